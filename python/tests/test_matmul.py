"""oclblas.matmul against numpy's matmul in float64: matrices and vectors in
every combination, array-likes, orders and views, results into given
arrays, and what it refuses (shapes numpy refuses too, and batches, which
it does not take yet)."""
import numpy as np
import pytest

import oclblas
from conftest import check_gemm, operand


@pytest.mark.parametrize("shape_a,shape_b", [((37, 45), (45, 29)), ((37, 45), (45,)), ((45,), (45, 29)),
                                             ((45,), (45,)), ((1, 1), (1, 1)), ((300, 200), (200, 250))])
def test_shapes_as_numpy(rng, shape_a, shape_b):
    a, b = operand(rng, shape_a), operand(rng, shape_b)
    got = np.asarray(oclblas.matmul(a, b))
    assert got.shape == np.matmul(a, b).shape
    check_gemm(got, a, b, None, 1.0, 0.0, what="matmul %s @ %s" % (shape_a, shape_b))


def test_inner_product_is_a_scalar(rng):
    a, b = operand(rng, (50,)), operand(rng, (50,))
    got = oclblas.matmul(a, b)
    assert isinstance(got, np.float32)
    check_gemm(np.asarray(got), a, b, None, 1.0, 0.0)
    out = np.zeros((), np.float32)
    assert oclblas.matmul(a, b, out=out) is out
    assert out == got


@pytest.mark.parametrize("order_a,order_b", [("C", "C"), ("C", "F"), ("F", "C"), ("F", "F")])
def test_orders_views_and_array_likes(rng, order_a, order_b):
    big = operand(rng, (80, 90), order_a)
    a = big[5:45, 10:70]                          # 40 x 60, a block
    b = operand(rng, (50, 60), order_b).T         # 60 x 50, a transpose
    check_gemm(oclblas.matmul(a, b), a, b, None, 1.0, 0.0)
    check_gemm(oclblas.matmul(a.tolist(), b.astype(np.float64)), a, b, None, 1.0, 0.0, what="array-likes")
    check_gemm(oclblas.matmul(a, b[:, 7]), a, b[:, 7], None, 1.0, 0.0, what="a column of a transpose")


def test_out(rng):
    a, b = operand(rng, (30, 20)), operand(rng, (20, 10))
    out = np.empty((30, 10), np.float32, order="F")
    assert oclblas.matmul(a, b, out=out) is out
    check_gemm(out, a, b, None, 1.0, 0.0)
    v = np.empty(30, np.float32)
    assert oclblas.matmul(a, b[:, 0], out=v) is v
    check_gemm(v, a, b[:, 0], None, 1.0, 0.0)
    with pytest.raises(ValueError, match="out has shape"):
        oclblas.matmul(a, b, out=np.empty((10, 30), np.float32))


def test_refusals(rng):
    a = operand(rng, (4, 3))
    with pytest.raises(ValueError, match="inner dimensions"):
        oclblas.matmul(a, operand(rng, (4, 2)))
    with pytest.raises(ValueError, match="inner dimensions"):
        oclblas.matmul(operand(rng, (5,)), a)
    with pytest.raises(ValueError, match="scalar"):
        oclblas.matmul(a, 2.0)
    with pytest.raises(NotImplementedError, match="batches"):
        oclblas.matmul(operand(rng, (2, 4, 3)), operand(rng, (3, 5)))
    with pytest.raises(TypeError, match="complex"):
        oclblas.matmul(a, np.ones((3, 2), np.complex64))
