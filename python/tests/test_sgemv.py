"""oclblas.sgemv against numpy in float64: both orders of A, both
directions, vectors of any stride (negative ones walked backwards, as BLAS
does), array-likes and other dtypes, results into given arrays and in
place, and refusals."""
import itertools

import numpy as np
import pytest

import oclblas
from conftest import check_gemv, operand


def vector(rng, n, stride):
    """n elements at the given stride (in elements) inside a larger array."""
    base = operand(rng, (n * abs(stride) + 3,))
    v = base[1:1 + n * stride:stride] if stride > 0 else base[1 + (n - 1) * -stride::stride][:n]
    assert v.shape == (n,)
    return v


@pytest.mark.parametrize("order,trans", list(itertools.product("CF", [False, True])))
@pytest.mark.parametrize("incx,incy", [(1, 1), (2, 3), (-1, 1), (1, -2), (-3, -1)])
def test_orders_directions_and_increments(rng, order, trans, incx, incy):
    m, n = 53, 41
    a = operand(rng, (m, n), order)
    x = vector(rng, m if trans else n, incx)
    y = vector(rng, n if trans else m, incy)
    y0 = y.copy()
    got = oclblas.sgemv(a, x, alpha=-0.5, beta=1.5, y=y, trans=trans, out=y)  # in place, at y's stride
    assert got is y
    check_gemv(y, a, x, y0, -0.5, 1.5, trans)


@pytest.mark.parametrize("m,n", [(1, 1), (1, 500), (500, 1), (1024, 768), (3001, 299)])
def test_sizes(rng, m, n):
    a = operand(rng, (m, n))
    x = operand(rng, (n,))
    check_gemv(oclblas.sgemv(a, x), a, x, None, 1.0, 0.0)
    xt = operand(rng, (m,))
    check_gemv(oclblas.sgemv(a, xt, trans=True), a, xt, None, 1.0, 0.0, True)


def test_matrix_views(rng):
    big = operand(rng, (300, 400), "F")
    for a in (big[10:210, 20:320], big[10:210, 20:320].T, big[::3, :]):
        x = operand(rng, (a.shape[1],))
        check_gemv(oclblas.sgemv(a, x), a, x, None, 1.0, 0.0)


def test_copies_where_needed(rng):
    a = operand(rng, (30, 20))
    x = np.broadcast_to(np.float32(0.25), (20,))   # stride 0: no BLAS increment
    check_gemv(oclblas.sgemv(a, x), a, x, None, 1.0, 0.0)
    # An out whose stride is not a whole number of elements: computed aside, copied in.
    raw = np.zeros(30 * 6, np.uint8)
    out = np.ndarray((30,), np.float32, buffer=raw, strides=(6,))
    x = operand(rng, (20,))
    got = oclblas.sgemv(a, x, out=out)
    assert got is out
    check_gemv(out, a, x, None, 1.0, 0.0)


def test_out_overlapping_x(rng):
    a = operand(rng, (40, 40))
    v = operand(rng, (40,))
    v0 = v.copy()
    oclblas.sgemv(a, v, out=v)                     # v = A v
    check_gemv(v, a, v0, None, 1.0, 0.0)


def test_beta_zero_never_reads_y(rng):
    a, x = operand(rng, (20, 30)), operand(rng, (30,))
    y = np.full(20, np.nan, np.float32)
    oclblas.sgemv(a, x, y=y, out=y)
    assert not np.isnan(y).any()
    check_gemv(y, a, x, None, 1.0, 0.0)


def test_trivial_sizes(rng):
    # m or n = 0 is a no-op, as in reference BLAS: y is not even scaled.
    y = operand(rng, (6,))
    y0 = y.copy()
    oclblas.sgemv(np.zeros((6, 0), np.float32), np.zeros(0, np.float32), beta=2.0, y=y, out=y)
    np.testing.assert_array_equal(y, y0)
    assert oclblas.sgemv(np.zeros((0, 3), np.float32), operand(rng, (3,))).shape == (0,)
    # alpha = 0: beta y, x not read
    x = np.full(4, np.nan, np.float32)
    np.testing.assert_array_equal(oclblas.sgemv(operand(rng, (6, 4)), x, alpha=0.0, beta=2.0, y=y0), 2.0 * y0)


@pytest.mark.parametrize("trans", [False, True])
def test_array_likes_and_dtypes(rng, trans):
    a = rng.uniform(-2, 2, (19, 13))
    x = rng.uniform(-2, 2, 19 if trans else 13)
    y = rng.integers(-5, 5, 13 if trans else 19)
    got = oclblas.sgemv(a.tolist(), tuple(x), alpha=1.5, beta=-1.0, y=list(y), trans=trans)
    check_gemv(got, a, x, y, 1.5, -1.0, trans)
    got = oclblas.sgemv(np.asfortranarray(a), x[::-1], trans=trans)    # float64, F order, reversed
    check_gemv(got, a, x[::-1], None, 1.0, 0.0, trans)


def test_refusals(rng):
    a, x = operand(rng, (4, 3)), operand(rng, (3,))
    with pytest.raises(TypeError, match="x is complex"):
        oclblas.sgemv(a, x.astype(np.complex128))
    with pytest.raises(ValueError, match="x has 3 elements"):
        oclblas.sgemv(a, x, trans=True)
    with pytest.raises(ValueError, match="needs y"):
        oclblas.sgemv(a, x, beta=0.5)
    with pytest.raises(ValueError, match="x must have 1 dimension, not 2"):
        oclblas.sgemv(a, x.reshape(3, 1))
    with pytest.raises(ValueError, match="y has 2 elements"):
        oclblas.sgemv(a, x, beta=1.0, y=[1.0, 2.0])
    with pytest.raises(ValueError, match=r"out has shape \(3,\), the result \(4,\)"):
        oclblas.sgemv(a, x, out=np.zeros(3, np.float32))
