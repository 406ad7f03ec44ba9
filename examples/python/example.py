"""The Python package: SGEMM and SGEMV on numpy arrays, in C and Fortran
order and as views of larger arrays (none of them copied), checked against
numpy in float64; the device the library chose, and its program cache.

    pip install ./python          # from the repository, once liboclblas is installed
    python examples/python/example.py
"""
import numpy as np

import oclblas

rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (400, 300)).astype(np.float32)
b = np.asfortranarray(rng.uniform(-1, 1, (300, 200)).astype(np.float32))
big = rng.uniform(-1, 1, (500, 500)).astype(np.float32)

c = oclblas.sgemm(a, b)                         # a new array
out = np.zeros((300, 200), np.float32)
oclblas.sgemm(a.T, big[:400, 100:300], out=out)  # a transposed, a block of big: passed as they are
y = oclblas.sgemv(a, big[7, ::-1][:300])         # a row of big, backwards


def error_over_bound(got, ref, mag, k):
    return float(np.max(np.abs(got - ref) / (4 * (k + 2) * np.finfo(np.float32).eps * mag + 1e-38)))


a64, b64, big64 = a.astype(np.float64), b.astype(np.float64), big.astype(np.float64)
worst = max(
    error_over_bound(c, a64 @ b64, np.abs(a64) @ np.abs(b64), 300),
    error_over_bound(out, a64.T @ big64[:400, 100:300], np.abs(a64.T) @ np.abs(big64[:400, 100:300]), 400),
    error_over_bound(y, a64 @ big64[7, ::-1][:300], np.abs(a64) @ np.abs(big64[7, ::-1][:300]), 300))

print("oclblas %s from %s" % (oclblas.version(), oclblas.library_path))
print("default device: %s" % oclblas.device_description())
print("gemm_fast parameters: %s" % oclblas.get_params("gemm_fast"))
print("program cache: %s" % (oclblas.cache_stats(),))
print("worst error/bound: %.3f" % worst)
try:
    oclblas.database_load("/nonexistent/entry.json")
except oclblas.Error as e:
    print("a library error as an exception: %s" % e)
raise SystemExit(0 if worst <= 1 else 1)
