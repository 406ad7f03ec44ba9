"""The Python package: SGEMM and SGEMV on numpy arrays, in C and Fortran
order and as views of larger arrays (none of them copied), matmul on plain
lists, the strict math mode for a scope, all checked against numpy in
float64; the devices, the one the library chose, and its program cache.

    pip install .                 # from the repository root: builds and bundles the library
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
lists = oclblas.matmul([[1, 2], [3, 4]], [[5, 6], [7, 8]])   # converted to float32
with oclblas.math_mode("strict"):                # FP32 fused multiply-adds only, then back
    strict = oclblas.sgemm(a, b)


def error_over_bound(got, ref, mag, k):
    return float(np.max(np.abs(got - ref) / (4 * (k + 2) * np.finfo(np.float32).eps * mag + 1e-38)))


a64, b64, big64 = a.astype(np.float64), b.astype(np.float64), big.astype(np.float64)
worst = max(
    error_over_bound(c, a64 @ b64, np.abs(a64) @ np.abs(b64), 300),
    error_over_bound(out, a64.T @ big64[:400, 100:300], np.abs(a64.T) @ np.abs(big64[:400, 100:300]), 400),
    error_over_bound(y, a64 @ big64[7, ::-1][:300], np.abs(a64) @ np.abs(big64[7, ::-1][:300]), 300),
    error_over_bound(strict, a64 @ b64, np.abs(a64) @ np.abs(b64), 300))
exact = bool(np.array_equal(lists, [[19, 22], [43, 50]]))

print("oclblas %s from %s" % (oclblas.version(), oclblas.library_path))
print("devices: %s" % ", ".join("%s %s (%s)" % (d.spec, d.name, d.type) for d in oclblas.devices()))
print("default device: %s" % oclblas.device_description())
print("math mode: %s" % oclblas.get_math_mode())
print("gemm_fast parameters: %s" % oclblas.get_params("gemm_fast"))
print("program cache: %s" % (oclblas.cache_stats(),))
print("worst error/bound: %.3f; matmul of lists exact: %s" % (worst, exact))
try:
    oclblas.database_load("/nonexistent/entry.json")
except oclblas.Error as e:
    print("a library error as an exception: %s" % e)
raise SystemExit(0 if worst <= 1 and exact else 1)
