"""oclblas.sgemm against numpy in float64: every order of every operand,
transposes, views with a leading dimension (passed without a copy, which
tracemalloc sees), views that need a copy, array-likes and other dtypes
(converted as numpy's astype would), results into given arrays, in place,
overlapping, the BLAS rules for beta = 0 and k = 0, and refusals."""
import itertools
import tracemalloc

import numpy as np
import pytest

import oclblas
from conftest import check_gemm, operand


@pytest.mark.parametrize("order_a,order_b,order_c", list(itertools.product("CF", repeat=3)))
@pytest.mark.parametrize("trans_a,trans_b", list(itertools.product([False, True], repeat=2)))
def test_orders_and_transposes(rng, order_a, order_b, order_c, trans_a, trans_b):
    m, n, k = 37, 29, 45
    a = operand(rng, (k, m) if trans_a else (m, k), order_a)
    b = operand(rng, (n, k) if trans_b else (k, n), order_b)
    c = operand(rng, (m, n), order_c)
    got = oclblas.sgemm(a, b, alpha=0.75, beta=-1.5, c=c, trans_a=trans_a, trans_b=trans_b)
    check_gemm(got, a, b, c, 0.75, -1.5, trans_a, trans_b)
    # c is an input only
    assert got is not c


@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (1, 300, 200), (300, 1, 200), (256, 192, 320), (301, 157, 523)])
def test_sizes(rng, m, n, k):
    a, b = operand(rng, (m, k)), operand(rng, (k, n))
    check_gemm(oclblas.sgemm(a, b), a, b, None, 1.0, 0.0)


def test_large_on_the_device(rng):
    """Large enough that the library sends it to the device (or finds the
    host faster: either way the result must hold)."""
    a, b = operand(rng, (640, 700), "F"), operand(rng, (700, 520))
    check_gemm(oclblas.sgemm(a, b, alpha=2.0), a, b, None, 2.0, 0.0)


def strided_views(rng):
    """Views that BLAS takes as they are: blocks of larger matrices in both
    orders, and transposes of them."""
    big_c = operand(rng, (500, 700))
    big_f = operand(rng, (700, 500), "F")
    return {
        "C block": big_c[13:413, 7:307],          # 400 x 300, ld 700
        "F block": big_f[11:411, 17:317],         # 400 x 300, column-major, ld 700
        "T of C block": big_c[20:320, 5:405].T,   # 400 x 300, column-major view
        "T of F block": big_f[3:303, 9:409].T,    # 400 x 300, row-major view
    }


@pytest.mark.parametrize("name", ["C block", "F block", "T of C block", "T of F block"])
def test_strided_views_are_not_copied(rng, name):
    a = strided_views(rng)[name]
    assert not a.flags.c_contiguous and not a.flags.f_contiguous
    b = operand(rng, (300, 64), "F")
    out = np.empty((400, 64), np.float32)
    oclblas.sgemm(a, b, out=out)                  # once, so that nothing is left to build
    tracemalloc.start()
    try:
        got = oclblas.sgemm(a, b, out=out)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got is out
    check_gemm(out, a, b, None, 1.0, 0.0, what=name)
    assert peak < a.size * 4 // 4, "%s: %d bytes allocated during the call: a copy of a (%d bytes)?" % (
        name, peak, a.size * 4)


def test_copy_where_strides_cannot_be_passed(rng):
    """No unit stride: the one case that is copied; tracemalloc sees it, so
    the test above would see one too."""
    big = operand(rng, (400, 600))
    a = big[:, ::2]                               # 400 x 300, strides (2400, 8)
    b = operand(rng, (300, 64))
    out = np.empty((400, 64), np.float32)
    tracemalloc.start()
    try:
        oclblas.sgemm(a, b, out=out)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    check_gemm(out, a, b, None, 1.0, 0.0)
    assert peak >= a.size * 4


@pytest.mark.parametrize("view", ["reversed rows", "reversed columns", "broadcast", "unaligned stride"])
def test_views_that_need_a_copy(rng, view):
    base = operand(rng, (60, 50))
    if view == "reversed rows":
        a = base[::-1]
    elif view == "reversed columns":
        a = base[:, ::-1]
    elif view == "broadcast":
        a = np.broadcast_to(base[0], (60, 50))
    else:
        raw = np.zeros(60 * 50 * 4 + 2, np.uint8)[2:]
        a = raw.view(np.float32).reshape(60, 50)   # data 2 bytes off 4-byte alignment
        a[...] = base
    b = operand(rng, (50, 40))
    check_gemm(oclblas.sgemm(a, b), a, b, None, 1.0, 0.0, what=view)


@pytest.mark.parametrize("order", "CF")
def test_out_in_place_and_views(rng, order):
    m, n, k = 70, 50, 60
    a, b = operand(rng, (m, k)), operand(rng, (k, n), "F")
    c = operand(rng, (m, n), order)
    c0 = c.copy()
    got = oclblas.sgemm(a, b, alpha=1.25, beta=0.5, c=c, out=c)   # C = 1.25 AB + 0.5 C, in place
    assert got is c
    check_gemm(c, a, b, c0, 1.25, 0.5)
    # Into a block of a larger array: the rest of it stays as it was.
    big = np.full((m + 10, n + 20), 7.0, np.float32, order=order)
    block = big[4:4 + m, 9:9 + n]
    got = oclblas.sgemm(a, b, out=block)
    assert got is block
    check_gemm(block, a, b, None, 1.0, 0.0)
    outside = np.ones(big.shape, bool)
    outside[4:4 + m, 9:9 + n] = False
    assert np.all(big[outside] == 7.0)
    # Into an array that is not c: c is read, left alone, out written.
    out = np.empty((m, n), np.float32)
    got = oclblas.sgemm(a, b, beta=2.0, c=c0, out=out)
    assert got is out
    check_gemm(out, a, b, c0, 1.0, 2.0)


def test_out_that_cannot_be_passed(rng):
    a, b = operand(rng, (30, 20)), operand(rng, (20, 25))
    big = np.zeros((30, 50), np.float32)
    out = big[:, ::2]                              # no unit stride
    got = oclblas.sgemm(a, b, out=out)
    assert got is out
    check_gemm(out, a, b, None, 1.0, 0.0)
    assert np.all(big[:, 1::2] == 0)


def test_out_overlapping_an_input(rng):
    a = operand(rng, (40, 40))
    b = operand(rng, (40, 40))
    a0 = a.copy()
    oclblas.sgemm(a, b, out=a)                     # a = a b, as numpy's a @ b would give
    check_gemm(a, a0, b, None, 1.0, 0.0)


def test_beta_zero_never_reads_c(rng):
    a, b = operand(rng, (20, 30)), operand(rng, (30, 10))
    c = np.full((20, 10), np.nan, np.float32)
    got = oclblas.sgemm(a, b, beta=0.0, c=c, out=c)
    assert not np.isnan(got).any()
    check_gemm(got, a, b, None, 1.0, 0.0)


def test_trivial_sizes(rng):
    c = operand(rng, (6, 5))
    got = oclblas.sgemm(np.zeros((6, 0), np.float32), np.zeros((0, 5), np.float32), beta=3.0, c=c)
    np.testing.assert_array_equal(got, 3.0 * c)    # k = 0: beta C
    got = oclblas.sgemm(operand(rng, (0, 4)), operand(rng, (4, 5)))
    assert got.shape == (0, 5)
    got = oclblas.sgemm(operand(rng, (6, 4)), operand(rng, (4, 5)), alpha=0.0, beta=-1.0, c=c)
    np.testing.assert_array_equal(got, -c)         # alpha = 0: beta C


@pytest.mark.parametrize("kind", ["list", "tuple", "float64", "float64 F", "int32", "bool", "float16",
                                  "big-endian float32", "strided float64", "object"])
def test_array_likes_and_dtypes(rng, kind):
    m, n, k = 23, 17, 31
    a64 = rng.uniform(-4, 4, (m, k))
    b64 = rng.uniform(-4, 4, (k, n))
    c64 = rng.uniform(-4, 4, (m, n))
    convert = {
        "list": lambda x: x.tolist(),
        "tuple": lambda x: tuple(map(tuple, x.tolist())),
        "float64": lambda x: x,
        "float64 F": np.asfortranarray,
        "int32": lambda x: np.round(x).astype(np.int32),
        "bool": lambda x: x > 0,
        "float16": lambda x: x.astype(np.float16),
        "big-endian float32": lambda x: x.astype(">f4"),
        "strided float64": lambda x: np.repeat(x, 2, axis=1)[:, ::2],
        "object": lambda x: x.astype(object),
    }[kind]
    a, b, c = convert(a64), convert(b64), convert(c64)
    got = oclblas.sgemm(a, b, alpha=0.5, beta=2.0, c=c)
    check_gemm(got, a, b, c, 0.5, 2.0, what=kind)
    got = oclblas.sgemm(b, a, trans_a=True, trans_b=True)
    check_gemm(got, b, a, None, 1.0, 0.0, trans_a=True, trans_b=True, what=kind + ", transposed")
    # The conversion is numpy's: the same product from numpy's own float32 copies.
    np.testing.assert_array_equal(oclblas.sgemm(a, b), oclblas.sgemm(np.asarray(a).astype(np.float32),
                                                                     np.asarray(b).astype(np.float32)))


def test_refusals(rng):
    a, b = operand(rng, (4, 3)), operand(rng, (3, 2))
    with pytest.raises(TypeError, match="a is complex"):
        oclblas.sgemm(a.astype(np.complex64), b)
    with pytest.raises(TypeError, match="b holds <U"):
        oclblas.sgemm(a, [["1", "2"]] * 3)
    with pytest.raises(ValueError, match="b cannot be read as an array"):
        oclblas.sgemm(a, [[1.0, 2.0], [3.0], [4.0, 5.0]])      # ragged
    with pytest.raises(TypeError, match="c cannot be converted to float32"):
        oclblas.sgemm(a, b, beta=1.0, c=np.array([[object()] * 2] * 4))
    with pytest.raises(ValueError, match="inner dimensions"):
        oclblas.sgemm(a, b, trans_a=True)
    with pytest.raises(ValueError, match="needs c"):
        oclblas.sgemm(a, b, beta=1.0)
    with pytest.raises(ValueError, match="c is 2x2"):
        oclblas.sgemm(a, b, beta=1.0, c=np.zeros((2, 2), np.float32))
    with pytest.raises(ValueError, match="a must have 2 dimensions, not 1"):
        oclblas.sgemm(a.ravel(), b)
    with pytest.raises(ValueError, match="b must have 2 dimensions, not 0"):
        oclblas.sgemm(a, 3.0)
    out = np.zeros((4, 2), np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        oclblas.sgemm(a, b, out=out)
    with pytest.raises(ValueError, match=r"out has shape \(2, 4\), the result \(4, 2\)"):
        oclblas.sgemm(a, b, out=np.zeros((2, 4), np.float32))
    with pytest.raises(TypeError, match="out must be float32"):
        oclblas.sgemm(a, b, out=np.zeros((4, 2)))
    with pytest.raises(TypeError, match="out must be a numpy array"):
        oclblas.sgemm(a, b, out=[[0.0] * 2] * 4)
