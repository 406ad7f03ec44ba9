"""sgemm, sgemv and matmul on host memory: operands in, the C calls, results
out; matmul of batches (3 or more dimensions) as one batched call.

Operands are numpy arrays or anything numpy.asarray reads (lists, tuples,
scalars' nested sequences, objects with __array__ or the buffer protocol).
A float32 array in native byte order goes to the library as it is, in
either order and as a view of a larger array, by leading dimension and
increment (see _layout); it is copied only where its strides cannot be
described that way. Everything else is converted to float32 first, as
numpy's astype would (integers, booleans, other floats); complex numbers
are refused rather than losing their imaginary parts. Results are float32.
"""
import numpy as np

from . import _control
from ._layout import ITEM, ROW, matrix_order, vector_inc
from ._lib import c as _c
from ._status import check

ROW_MAJOR, COL_MAJOR = 101, 102
NO_TRANS, TRANS, CONJ_TRANS = 111, 112, 113
_TooHardError = getattr(getattr(np, "exceptions", np), "TooHardError")


# ---- operands -----------------------------------------------------------------

def _operand(x, name, ndim=None):
    """x as a float32 array in native byte order: itself when it is one,
    else converted; ndim, when given, is the number of dimensions it must
    have."""
    if not (isinstance(x, np.ndarray) and x.dtype == np.float32 and x.dtype.isnative):
        try:
            x = np.asarray(x)
        except (TypeError, ValueError) as e:
            raise type(e)("%s cannot be read as an array: %s" % (name, e)) from None
        if x.dtype.kind == "c":
            raise TypeError("%s is complex (%s): oclblas computes real float32 products" % (name, x.dtype))
        if x.dtype.kind not in "biufO":
            raise TypeError("%s holds %s, not numbers" % (name, x.dtype))
        try:
            x = x.astype(np.float32)
        except (TypeError, ValueError) as e:
            raise type(e)("%s cannot be converted to float32: %s" % (name, e)) from None
    if ndim is not None and x.ndim != ndim:
        raise ValueError("%s must have %d dimension%s, not %d" % (name, ndim, "s" if ndim > 1 else "", x.ndim))
    return x


def _output(out, name, shape):
    """out, which the library writes: a writeable float32 numpy array of the
    result's shape."""
    if not isinstance(out, np.ndarray):
        raise TypeError("%s must be a numpy array, not %s" % (name, type(out).__name__))
    if out.dtype != np.float32 or not out.dtype.isnative:
        raise TypeError("%s must be float32 in native byte order, not %s" % (name, out.dtype.str))
    if not out.flags.writeable:
        raise ValueError("%s is read-only" % name)
    if out.shape != shape:
        raise ValueError("%s has shape %s, the result %s" % (name, out.shape, shape))
    return out


def _overlaps(out, *inputs):
    for x in inputs:
        if x is None:
            continue
        try:
            if np.shares_memory(out, x, max_work=10000):
                return True
        except _TooHardError:  # too costly to decide exactly: assume they do
            return True
    return False


def _same_view(x, y):
    return (x is y or (y is not None and x.shape == y.shape and x.strides == y.strides
                       and x.__array_interface__["data"][0] == y.__array_interface__["data"][0]))


def _matrix_operand(x, trans, order):
    """(address, transpose flag, ld, the array that must stay alive) of a
    matrix for a call in `order`; a copy only when its strides cannot be
    passed."""
    passed = matrix_order(x.shape, x.strides)
    if passed is None:
        x = np.ascontiguousarray(x)
        passed = (ROW, max(1, x.shape[1]))
    x_order, ld = passed
    flip = x_order != order
    return x.ctypes.data, (TRANS if trans != flip else NO_TRANS), ld, x


def _vector_operand(x):
    """(address of the lowest element BLAS reads, inc, the array to keep)."""
    passed = vector_inc(x.shape[0], x.strides[0])
    if passed is None:
        x = np.ascontiguousarray(x)
        passed = (0, 1)
    offset, inc = passed
    return x.ctypes.data + offset * 4, inc, x


def _destination(shape, c, beta, out, inputs, passable):
    """The array the library writes: out itself when it can be passed as it
    is and overlaps no input, else a new C-ordered array (copied into out
    afterwards). Filled from c where beta != 0 and it is not c itself."""
    if out is not None and passable(out) and not _overlaps(out, *inputs) and (
            beta == 0 or c is None or _same_view(out, c) or not _overlaps(out, c)):
        work = out
    else:
        work = np.empty(shape, np.float32)
    if beta != 0 and not _same_view(work, c):
        np.copyto(work, c)
    return work


def _finish(work, out):
    if out is not None and work is not out:
        np.copyto(out, work)
        return out
    return work


# ---- the calls ------------------------------------------------------------------

def sgemm(a, b, *, alpha=1.0, beta=0.0, c=None, trans_a=False, trans_b=False, out=None):
    """alpha op(a) op(b) + beta c, where op(x) is x or x.T (trans_a, trans_b).

    a, b, c: 2-D array-likes (see help(oclblas)); op(a) is m x k, op(b)
    k x n, c m x n. c is read only when beta != 0 (as in BLAS, beta = 0
    ignores it, NaN included) and never written unless it is out. out: a
    writeable m x n float32 numpy array, in either order or a view with one
    unit stride.

    Returns out when given, else a new C-ordered float32 array. out=c (a
    float32 array) updates c in place, the BLAS way, without a copy.

    Copies, and only these: an operand that is not float32 is converted; a
    float32 one with no unit stride, or with negative or zero strides, is
    copied to a C-ordered array first; so is c into out when they are
    different arrays; out is computed in a new array and then copied into
    when it cannot be passed as it is or overlaps a or b.
    """
    a = _operand(a, "a", 2)
    b = _operand(b, "b", 2)
    m, k = (a.shape[1], a.shape[0]) if trans_a else a.shape
    kb, n = (b.shape[1], b.shape[0]) if trans_b else b.shape
    if kb != k:
        raise ValueError("op(a) is %dx%d but op(b) is %dx%d: the inner dimensions differ" % (m, k, kb, n))
    alpha, beta = float(alpha), float(beta)
    if c is not None:
        c = _operand(c, "c", 2)
        if c.shape != (m, n):
            raise ValueError("c is %dx%d, the product %dx%d" % (c.shape + (m, n)))
    elif beta != 0:
        raise ValueError("beta = %g needs c" % beta)
    if out is not None:
        out = _output(out, "out", (m, n))
    work = _destination((m, n), c, beta, out, (a, b), lambda o: matrix_order(o.shape, o.strides) is not None)
    order, ldc = matrix_order(work.shape, work.strides)
    a_ptr, ta, lda, a_keep = _matrix_operand(a, trans_a, order)
    b_ptr, tb, ldb, b_keep = _matrix_operand(b, trans_b, order)
    _control.device_may_be_chosen()
    check(_c.oclblas_sgemm(ROW_MAJOR if order == ROW else COL_MAJOR, ta, tb, m, n, k, alpha, a_ptr, lda, b_ptr,
                           ldb, beta, work.ctypes.data, ldc), "oclblas_sgemm")
    del a_keep, b_keep
    return _finish(work, out)


def sgemv(a, x, *, alpha=1.0, beta=0.0, y=None, trans=False, out=None):
    """alpha op(a) x + beta y, where op(a) is a or a.T (trans).

    a: a 2-D array-like, m x n; x, y: 1-D array-likes, x of n elements (m
    with trans), y of the other count. y is read only when beta != 0, and
    never written unless it is out. out: a writeable 1-D float32 numpy
    array of any stride, negative included (passed as a BLAS increment);
    out=y (a float32 array) updates y in place.

    Returns out when given, else a new float32 array.

    Copies, and only these: an operand that is not float32 is converted; a
    float32 a with no unit stride (or negative or zero strides), and x or
    out with a zero (broadcast) stride, are copied; y is copied into out
    when they are different arrays; out is computed in a new array and then
    copied into when it overlaps a or x.
    """
    a = _operand(a, "a", 2)
    x = _operand(x, "x", 1)
    m, n = a.shape
    nx, ny = (m, n) if trans else (n, m)
    if x.shape[0] != nx:
        raise ValueError("x has %d elements, op(a) is %dx%d" % (x.shape[0], ny, nx))
    alpha, beta = float(alpha), float(beta)
    if y is not None:
        y = _operand(y, "y", 1)
        if y.shape[0] != ny:
            raise ValueError("y has %d elements, the product %d" % (y.shape[0], ny))
    elif beta != 0:
        raise ValueError("beta = %g needs y" % beta)
    if out is not None:
        out = _output(out, "out", (ny,))
    work = _destination((ny,), y, beta, out, (a, x), lambda o: vector_inc(o.shape[0], o.strides[0]) is not None)
    passed = matrix_order(a.shape, a.strides)
    if passed is None:
        a = np.ascontiguousarray(a)
        passed = (ROW, max(1, n))
    order, lda = passed
    x_ptr, incx, x_keep = _vector_operand(x)
    y_ptr, incy, _ = _vector_operand(work)
    _control.device_may_be_chosen()
    check(_c.oclblas_sgemv(ROW_MAJOR if order == ROW else COL_MAJOR, TRANS if trans else NO_TRANS, m, n, alpha,
                           a.ctypes.data, lda, x_ptr, incx, beta, y_ptr, incy), "oclblas_sgemv")
    del x_keep
    return _finish(work, out)


def _broadcast_shape(*shapes):
    """The shape numpy broadcasts shapes to (numpy.broadcast_shapes, which
    numpy has from 1.20 on: here through views that hold no memory)."""
    one = np.zeros(1, np.float32)
    views = [np.lib.stride_tricks.as_strided(one, shape=s, strides=(0,) * len(s)) for s in shapes]
    return np.broadcast(*views).shape


def _batch_stride(shape, strides):
    """The one stride in elements (>= 0) that steps an operand from each
    problem of a batch of this shape to the next, in C order of the batch's
    indices, where there is one; else None (a pointer per problem)."""
    stride = None
    span = 1  # problems one step of the current axis covers
    for size, step in zip(reversed(shape), reversed(strides)):
        if size > 1:
            if step % ITEM:
                return None
            if stride is None:
                stride = step // ITEM // span if step // ITEM % span == 0 else -1
            if step != stride * span * ITEM:
                return None
        span *= size
    stride = 0 if stride is None else stride
    return stride if stride >= 0 else None


def _batch_pointers(x):
    """The address of each problem's matrix of x (batch axes first, then
    the matrix), in C order of the batch's indices."""
    offsets = np.zeros(x.shape[:-2], np.intp)
    for axis, (size, step) in enumerate(zip(x.shape[:-2], x.strides[:-2])):
        along = [1] * offsets.ndim
        along[axis] = size
        offsets = offsets + (np.arange(size, dtype=np.intp) * step).reshape(along)
    return (x.ctypes.data + offsets.ravel()).astype(np.uintp)


def _batched_matmul(a, b, out):
    """numpy.matmul of operands of which one has 3 or more dimensions: the
    batch axes broadcast, one call for the whole batch (the strided batch
    where every operand steps evenly through it, else one group with a
    pointer per problem: broadcast operands are never copied)."""
    a_vector, b_vector = a.ndim == 1, b.ndim == 1
    a2 = a[np.newaxis, :] if a_vector else a
    b2 = b[:, np.newaxis] if b_vector else b
    (m, k), (kb, n) = a2.shape[-2:], b2.shape[-2:]
    if kb != k:
        raise ValueError("matmul: a has shape %s and b %s: the inner dimensions differ" % (a.shape, b.shape))
    try:
        batch = _broadcast_shape(a2.shape[:-2], b2.shape[:-2])
    except ValueError:
        raise ValueError("matmul: a has shape %s and b %s: the batch dimensions do not broadcast"
                         % (a.shape, b.shape)) from None
    shape = batch + (m, n)  # the product, a vector as a matrix of one row or column
    result = batch + (n,) if a_vector else batch + (m,) if b_vector else shape
    if out is not None:
        out = _output(out, "out", result)
    # out in the product's shape: a view with the vector's axis put back.
    out_full = None if out is None else out[..., np.newaxis, :] if a_vector else \
        out[..., :, np.newaxis] if b_vector else out
    # A copy of an operand whose matrices cannot be passed as they are.
    if matrix_order(a2.shape[-2:], a2.strides[-2:]) is None:
        a2 = np.ascontiguousarray(a2)
    if matrix_order(b2.shape[-2:], b2.strides[-2:]) is None:
        b2 = np.ascontiguousarray(b2)
    if out_full is not None and matrix_order(out_full.shape[-2:], out_full.strides[-2:]) is not None \
            and _batch_stride(batch, out_full.strides[:-2]) is not None and not _overlaps(out_full, a2, b2):
        work = out_full
    else:
        work = np.empty(shape, np.float32)
    count = int(np.prod(batch, dtype=np.int64))
    if count and m and n:
        if k == 0:
            work[...] = 0
        else:
            _batch_call(np.broadcast_to(a2, batch + (m, k)), np.broadcast_to(b2, batch + (k, n)), work, m, n, k,
                        count)
    if out is None:
        return work.reshape(result) if result != shape else work
    if work is not out_full:
        np.copyto(out_full, work)
    return out


def _batch_call(a, b, work, m, n, k, count):
    """work[i] = a[i] @ b[i] over the batch axes (broadcast views all)."""
    order, ldc = matrix_order(work.shape[-2:], work.strides[-2:])
    a_order, lda = matrix_order(a.shape[-2:], a.strides[-2:])
    b_order, ldb = matrix_order(b.shape[-2:], b.strides[-2:])
    ta = TRANS if a_order != order else NO_TRANS
    tb = TRANS if b_order != order else NO_TRANS
    layout = ROW_MAJOR if order == ROW else COL_MAJOR
    batch = work.shape[:-2]
    strides = [_batch_stride(batch, x.strides[:-2]) for x in (a, b, work)]
    _control.device_may_be_chosen()
    if None not in strides:
        check(_c.oclblas_sgemm_strided_batched(layout, ta, tb, m, n, k, 1.0, a.ctypes.data, lda, strides[0],
                                               b.ctypes.data, ldb, strides[1], 0.0, work.ctypes.data, ldc,
                                               strides[2], count), "oclblas_sgemm_strided_batched")
        return
    # One group of count problems, each operand by its own address.
    sizes = np.array([m, n, k, lda, ldb, ldc, count], np.uintp)
    trans = np.array([ta, tb], np.intc)
    scalars = np.array([1.0, 0.0], np.float32)
    pointers = [_batch_pointers(x) for x in (a, b, work)]
    size_at = [sizes.ctypes.data + i * sizes.itemsize for i in range(7)]
    check(_c.oclblas_sgemm_grouped_batched(layout, trans.ctypes.data, trans.ctypes.data + trans.itemsize,
                                           size_at[0], size_at[1], size_at[2], scalars.ctypes.data,
                                           pointers[0].ctypes.data, size_at[3], pointers[1].ctypes.data, size_at[4],
                                           scalars.ctypes.data + scalars.itemsize, pointers[2].ctypes.data,
                                           size_at[5], 1, size_at[6]), "oclblas_sgemm_grouped_batched")


def matmul(a, b, *, out=None):
    """The matrix product a @ b, as numpy.matmul gives it, in float32.

    a, b: array-likes of 1 or more dimensions. 2-D by 2-D is sgemm; a 1-D
    operand is a vector (sgemv): a @ b with b 1-D is a times the column b,
    with a 1-D the row a times b, and two 1-D operands give their inner
    product as a 0-d result. Operands of 3 or more dimensions are batches
    of matrices in their last two axes, the batch axes broadcast against
    each other as numpy broadcasts them (a 1-D operand is a vector for every
    problem): the whole batch is one batched call, strided where each
    operand steps evenly through the batch (a stacked array, a view of one,
    an operand broadcast along every batch axis), else with each problem's
    matrices by address; broadcast operands are never copied. out: a
    writeable float32 numpy array of the result's shape. Returns out when
    given, else a new float32 array (a float32 scalar for two vectors, as
    numpy gives).
    """
    a = _operand(a, "a")
    b = _operand(b, "b")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: a scalar operand (a has %d dimensions, b %d); multiply with * instead"
                         % (a.ndim, b.ndim))
    if a.ndim > 2 or b.ndim > 2:
        return _batched_matmul(a, b, out)
    if a.shape[-1] != b.shape[0]:
        raise ValueError("matmul: a has shape %s and b %s: the inner dimensions differ" % (a.shape, b.shape))
    if a.ndim == 2 and b.ndim == 2:
        return sgemm(a, b, out=out)
    if a.ndim == 2:
        return sgemv(a, b, out=out)
    if b.ndim == 2:
        return sgemv(b, a, trans=True, out=out)
    # Two vectors: their inner product, the 1 x 1 result of a row times a column.
    if out is not None:
        _output(out, "out", ())
    product = sgemv(a[np.newaxis, :], b)
    if out is None:
        return product[0]
    out[...] = product[0]
    return out
