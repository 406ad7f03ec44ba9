"""Shared pieces of the Python package's tests: a disk cache of their own,
seeded random operands, and the comparison against numpy in float64 with
the bound the C tests use (tests/testutil.c): for each element
    4 (k + 2) eps (|alpha| (|op(A)| |op(B)|)_ij + |beta| |C_ij|) + FLT_MIN,
the classical dot-product bound, scaled by k and the operands' magnitudes.
The reference takes the operands as the library gets them: converted to
float32 (as numpy's astype does) and then widened to float64.
"""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest

# Before the library reads it: a disk cache of the tests' own, which they
# may clear (test_cache does), whatever the caller's OCLBLAS_CACHE_DIR.
_cache = tempfile.mkdtemp(prefix="oclblas-pytest-cache-")
os.environ["OCLBLAS_CACHE_DIR"] = _cache
atexit.register(shutil.rmtree, _cache, True)

EPS = float(np.finfo(np.float32).eps)
TINY = float(np.finfo(np.float32).tiny)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def operand(rng, shape, order="C"):
    """Uniform in [-1, 1), float32, in the given order."""
    x = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
    return np.asfortranarray(x) if order == "F" else np.ascontiguousarray(x)


def assert_close(got, ref, bound, what):
    """Every element within its bound; the worst one in the message."""
    got = np.asarray(got, np.float64)
    err = np.abs(got - ref)
    tol = bound + TINY
    ratio = np.where(np.isnan(got), np.inf, err / tol)
    worst = np.unravel_index(np.argmax(ratio), ratio.shape) if ratio.size else ()
    assert ratio.size == 0 or ratio[worst] <= 1.0, \
        "%s: element %s is %r, float64 reference %r, error %.3g > bound %.3g" % (
            what, worst, got[worst], ref[worst], err[worst], tol[worst])


def wide(x):
    """x as the library reads it (float32), in float64."""
    return np.asarray(x).astype(np.float32).astype(np.float64)


def check_gemm(got, a, b, c, alpha, beta, trans_a=False, trans_b=False, what="sgemm", unit=EPS):
    """got against alpha op(a) op(b) + beta c; unit: the unit roundoff of
    the products (EPS for FP32, TF32's for the tf32 math mode)."""
    opa = wide(a).T if trans_a else wide(a)
    opb = wide(b).T if trans_b else wide(b)
    k = opa.shape[-1]
    ref = alpha * (opa @ opb)
    mag = abs(alpha) * (np.abs(opa) @ np.abs(opb))
    if beta != 0:
        ref = ref + beta * wide(c)
        mag = mag + abs(beta) * np.abs(wide(c))
    assert isinstance(got, np.ndarray) and got.dtype == np.float32
    assert got.shape == ref.shape, "%s: shape %s, numpy's %s" % (what, got.shape, ref.shape)
    assert_close(got, ref, 4 * (k + 2) * unit * mag, what)


def check_gemv(got, a, x, y, alpha, beta, trans=False, what="sgemv"):
    check_gemm(got, a, x, y, alpha, beta, trans_a=trans, what=what)


def run_python(code, env=None):
    """Runs code in a fresh interpreter, where the library has chosen no
    device yet (it chooses once per process), nor has $OCLBLAS_DEVICE;
    env: variables to set there besides (None: to remove)."""
    environ = dict(os.environ)
    environ.pop("OCLBLAS_DEVICE", None)
    for name, value in (env or {}).items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True, text=True, timeout=300)
