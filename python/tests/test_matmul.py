"""oclblas.matmul against numpy's matmul in float64: matrices and vectors in
every combination, array-likes, orders and views, results into given
arrays, and what it refuses (shapes numpy refuses too); batches of
matrices (3 or more dimensions) with numpy's broadcasting, views, orders
and outputs, and which batched call serves them."""
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
    with pytest.raises(TypeError, match="complex"):
        oclblas.matmul(a, np.ones((3, 2), np.complex64))


# ---- batches ---------------------------------------------------------------------

@pytest.fixture
def calls(monkeypatch):
    """Counts the library's calls that matmul makes, by name."""
    from oclblas import _blas
    counted = {}
    lib = _blas._c
    for name in ("oclblas_sgemm", "oclblas_sgemv", "oclblas_sgemm_strided_batched", "oclblas_sgemm_grouped_batched"):
        def wrap(*args, _f=getattr(lib, name), _name=name):
            counted[_name] = counted.get(_name, 0) + 1
            return _f(*args)
        monkeypatch.setattr(lib, name, wrap)
    return counted


@pytest.mark.parametrize("shape_a,shape_b,route", [
    ((5, 37, 45), (5, 45, 29), "strided"),          # stacked
    ((5, 37, 45), (45, 29), "strided"),             # b shared by every problem (stride 0)
    ((37, 45), (4, 45, 29), "strided"),
    ((4, 37, 45), (45,), "strided"),                # a vector for every problem
    ((45,), (4, 45, 29), "strided"),
    ((2, 3, 8, 9), (3, 9, 7), "grouped"),           # b repeats along the first axis only
    ((2, 1, 8, 9), (1, 3, 9, 7), "grouped"),        # both broadcast: an outer product of batches
    ((2, 3, 8, 9), (2, 3, 9, 7), "strided"),        # two batch axes, stacked
    ((6, 1, 1), (6, 1, 1), "strided"),
    ((1000, 4, 4), (1000, 4, 4), "strided"),
    ((3, 140, 130), (3, 130, 120), "strided"),      # the device's tiled kernel on PoCL
    ((0, 3, 4), (0, 4, 5), None),                   # an empty batch
    ((3, 5, 0), (3, 0, 4), None),                   # k = 0: zeros
])
def test_batches_as_numpy(rng, calls, shape_a, shape_b, route):
    a, b = operand(rng, shape_a), operand(rng, shape_b)
    got = oclblas.matmul(a, b)
    assert got.shape == np.matmul(a, b).shape
    check_gemm(got, a, b, None, 1.0, 0.0, what="matmul %s @ %s" % (shape_a, shape_b))
    want = {} if route is None else {"oclblas_sgemm_%s_batched" % route: 1}
    assert calls == want


def test_batch_views_and_orders(rng, calls):
    stack = operand(rng, (8, 30, 20))
    b = operand(rng, (4, 20, 25))
    # every other matrix of a stack; matrices in Fortran order; a batch axis
    # that is not the outermost one (interleaved matrices)
    cases = [(stack[::2], b), (np.swapaxes(operand(rng, (4, 20, 30), "C"), 1, 2), b),
             (operand(rng, (30, 4, 20)).transpose(1, 0, 2), b),
             (stack[:4], np.asfortranarray(operand(rng, (25, 20, 4)).T)),
             (stack[:4].tolist(), b.astype(np.float64))]
    for i, (x, y) in enumerate(cases):
        check_gemm(oclblas.matmul(x, y), np.asarray(x), np.asarray(y), None, 1.0, 0.0, what="case %d" % i)
    assert calls == {"oclblas_sgemm_strided_batched": len(cases)}
    # a batch walked backwards: each problem by address
    check_gemm(oclblas.matmul(stack[::-2], b), stack[::-2], b, None, 1.0, 0.0, what="reversed batch")
    assert calls["oclblas_sgemm_grouped_batched"] == 1


def test_batch_out(rng):
    a, b = operand(rng, (4, 30, 20)), operand(rng, (4, 20, 10))
    out = np.empty((4, 30, 10), np.float32)
    assert oclblas.matmul(a, b, out=out) is out
    check_gemm(out, a, b, None, 1.0, 0.0, what="out")
    # attention heads side by side in the rows of one array: out interleaves
    heads = np.full((30, 4, 10), np.nan, np.float32)
    view = heads.transpose(1, 0, 2)
    assert oclblas.matmul(a, b, out=view) is view
    check_gemm(view, a, b, None, 1.0, 0.0, what="interleaved out")
    # matrices of out in Fortran order, and out that overlaps an input
    f = np.asfortranarray(np.empty((10, 30, 4), np.float32)).T
    assert oclblas.matmul(a, b, out=f) is f
    check_gemm(f, a, b, None, 1.0, 0.0, what="Fortran out")
    sq = operand(rng, (3, 16, 16))
    want = np.matmul(sq.astype(np.float64), sq.astype(np.float64))
    keep = sq.copy()
    assert oclblas.matmul(sq, sq, out=sq) is sq
    check_gemm(sq, keep, keep, None, 1.0, 0.0, what="out = a = b")
    assert np.allclose(sq, want, rtol=1e-4, atol=1e-4)
    # a vector operand's result has no axis for it
    v = np.empty((4, 30), np.float32)
    assert oclblas.matmul(a, b[0, :, 0], out=v) is v
    check_gemm(v, a, b[0, :, 0], None, 1.0, 0.0, what="batch times a vector")
    with pytest.raises(ValueError, match="out has shape"):
        oclblas.matmul(a, b, out=np.empty((4, 10, 30), np.float32))


def test_batch_refusals(rng):
    with pytest.raises(ValueError, match="inner dimensions"):
        oclblas.matmul(operand(rng, (2, 4, 3)), operand(rng, (2, 4, 5)))
    with pytest.raises(ValueError, match="broadcast"):
        oclblas.matmul(operand(rng, (2, 4, 3)), operand(rng, (3, 3, 5)))
    with pytest.raises(TypeError, match="complex"):
        oclblas.matmul(operand(rng, (2, 4, 3)), np.ones((3, 2), np.complex64))
