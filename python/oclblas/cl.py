"""oclblas on pyopencl buffers and queues: the device-buffer calls.

    import numpy as np, pyopencl as cl, pyopencl.array as cla, oclblas.cl
    ctx = cl.create_some_context()
    queue = cl.CommandQueue(ctx)
    a = cla.to_device(queue, np.random.rand(300, 200).astype(np.float32))
    b = cla.to_device(queue, np.random.rand(200, 100).astype(np.float32))
    c = oclblas.cl.sgemm(a, b)      # enqueued on a's queue; c.events holds its event
    print(c.get())

Two levels, both asynchronous on the caller's queue:

- sgemm and sgemv take pyopencl.array.Array operands (2-D matrices, 1-D
  vectors, float32), as oclblas.sgemm and oclblas.sgemv take numpy arrays:
  either order and views with one unit stride go as they are. Nothing is
  ever copied on the device: an operand whose strides cannot be passed is
  refused (ValueError). They wait for the operands' pending events and add
  their own to the result's.
- sgemm_cl and sgemv_cl are the C functions one to one: pyopencl Buffers,
  offsets and leading dimensions in elements, the layout and transpose
  constants of the oclblas module. They return the call's pyopencl.Event.

Needs pyopencl (importing this module without it raises ImportError). The
buffers and queue may come from any context, not only the library's default
one; oclblas.default_device() gives the library's own handles.
"""
import ctypes

import numpy as np
import pyopencl as cl
import pyopencl.array as cla

from ._blas import COL_MAJOR, NO_TRANS, ROW_MAJOR, TRANS
from ._layout import ROW, matrix_order, vector_inc
from ._lib import c as _c
from ._status import check as _check

__all__ = ["sgemm", "sgemv", "sgemm_cl", "sgemv_cl"]


def _mem(buf):
    if buf is None:
        return None
    return buf.int_ptr if hasattr(buf, "int_ptr") else int(buf)


def _event(handle):
    # The library hands over its reference; pyopencl releases it.
    return cl.Event.from_int_ptr(handle.value, retain=False) if handle.value else None


def _wait(queue, wait_for):
    events = [e for e in (wait_for or []) if e is not None]
    if events:
        cl.enqueue_barrier(queue, wait_for=events)


def sgemm_cl(layout, trans_a, trans_b, m, n, k, alpha, a, a_offset, lda, b, b_offset, ldb, beta, c, c_offset, ldc,
             queue, wait_for=None):
    """oclblas_sgemm_cl on pyopencl Buffers: C = alpha op(A) op(B) + beta C
    on `queue`, after the events in wait_for. Returns the call's Event."""
    _wait(queue, wait_for)
    event = ctypes.c_void_p()
    _check(_c.oclblas_sgemm_cl(layout, trans_a, trans_b, m, n, k, float(alpha), _mem(a), a_offset, lda, _mem(b),
                               b_offset, ldb, float(beta), _mem(c), c_offset, ldc, queue.int_ptr, ctypes.byref(event)),
           "oclblas_sgemm_cl")
    return _event(event)


def sgemv_cl(layout, trans, m, n, alpha, a, a_offset, lda, x, x_offset, incx, beta, y, y_offset, incy, queue,
             wait_for=None):
    """oclblas_sgemv_cl on pyopencl Buffers: y = alpha op(A) x + beta y on
    `queue`, after the events in wait_for. Returns the call's Event."""
    _wait(queue, wait_for)
    event = ctypes.c_void_p()
    _check(_c.oclblas_sgemv_cl(layout, trans, m, n, float(alpha), _mem(a), a_offset, lda, _mem(x), x_offset, incx,
                               float(beta), _mem(y), y_offset, incy, queue.int_ptr, ctypes.byref(event)),
           "oclblas_sgemv_cl")
    return _event(event)


def _device_array(x, name, ndim):
    if not isinstance(x, cla.Array):
        raise TypeError("%s must be a pyopencl.array.Array, not %s" % (name, type(x).__name__))
    if x.dtype != np.float32:
        raise TypeError("%s must be float32, not %s" % (name, x.dtype))
    if x.ndim != ndim:
        raise ValueError("%s must have %d dimension%s, not %d" % (name, ndim, "s" if ndim > 1 else "", x.ndim))
    if x.offset % 4:
        raise ValueError("%s starts %d bytes into its buffer, not at a whole element" % (name, x.offset))
    return x


def _passed_matrix(x, name):
    passed = matrix_order(x.shape, x.strides)
    if passed is None:
        raise ValueError("%s (strides %s) has no unit stride: it cannot be passed without a copy on the device; "
                         "make one with a contiguous copy first" % (name, x.strides))
    return passed


def _result(shape, c, beta, out, queue, name):
    """out, or a new array (a copy of c where beta != 0)."""
    if beta != 0:
        if out is None:
            return c.copy(queue=queue)
        if out is not c:
            raise ValueError("with beta != 0, %s must be out itself on device arrays (or leave out out)" % name)
    if out is None:
        return cla.empty(queue, shape, np.float32)
    return out


def sgemm(a, b, *, alpha=1.0, beta=0.0, c=None, trans_a=False, trans_b=False, out=None, queue=None):
    """alpha op(a) op(b) + beta c on pyopencl arrays, enqueued on `queue`
    (default: out's, else a's). Shapes and the roles of c and out as in
    oclblas.sgemm; out=c updates c in place. With beta != 0 and no out, the
    result is a new copy of c (the only device copy made). Returns out, or a
    new C-ordered array, with the call's event added to its events."""
    a = _device_array(a, "a", 2)
    b = _device_array(b, "b", 2)
    m, k = (a.shape[1], a.shape[0]) if trans_a else a.shape
    kb, n = (b.shape[1], b.shape[0]) if trans_b else b.shape
    if kb != k:
        raise ValueError("op(a) is %dx%d but op(b) is %dx%d: the inner dimensions differ" % (m, k, kb, n))
    if c is not None:
        c = _device_array(c, "c", 2)
        if c.shape != (m, n):
            raise ValueError("c is %dx%d, the product %dx%d" % (c.shape + (m, n)))
    elif beta != 0:
        raise ValueError("beta = %g needs c" % beta)
    if out is not None:
        out = _device_array(out, "out", 2)
        if out.shape != (m, n):
            raise ValueError("out is %dx%d, the product %dx%d" % (out.shape + (m, n)))
    queue = queue or (out.queue if out is not None else None) or a.queue
    out = _result((m, n), c, beta, out, queue, "c")
    if m == 0 or n == 0:
        return out
    order, ldc = _passed_matrix(out, "out")
    operands = []
    for x, trans, name in ((a, trans_a, "a"), (b, trans_b, "b")):
        x_order, ld = _passed_matrix(x, name)
        # k = 0: no buffer exists for an empty operand, and none is read.
        operands.append((x.data if x.data is not None else out.data, x.offset // 4,
                         TRANS if bool(trans) != (x_order != order) else NO_TRANS, ld))
    (a_buf, a_off, ta, lda), (b_buf, b_off, tb, ldb) = operands
    event = sgemm_cl(ROW_MAJOR if order == ROW else COL_MAJOR, ta, tb, m, n, k, alpha, a_buf, a_off, lda, b_buf,
                     b_off, ldb, beta, out.data, out.offset // 4, ldc, queue,
                     wait_for=list(a.events) + list(b.events) + list(out.events))
    out.add_event(event)
    return out


def sgemv(a, x, *, alpha=1.0, beta=0.0, y=None, trans=False, out=None, queue=None):
    """alpha op(a) x + beta y on pyopencl arrays, enqueued on `queue`
    (default: out's, else a's). Shapes and the roles of y and out as in
    oclblas.sgemv; vectors of any non-zero stride go as BLAS increments.
    Returns out, or a new array, with the call's event added to its events."""
    a = _device_array(a, "a", 2)
    x = _device_array(x, "x", 1)
    m, n = a.shape
    nx, ny = (m, n) if trans else (n, m)
    if x.shape[0] != nx:
        raise ValueError("x has %d elements, op(a) is %dx%d" % (x.shape[0], ny, nx))
    if y is not None:
        y = _device_array(y, "y", 1)
        if y.shape[0] != ny:
            raise ValueError("y has %d elements, the product %d" % (y.shape[0], ny))
    elif beta != 0:
        raise ValueError("beta = %g needs y" % beta)
    if out is not None:
        out = _device_array(out, "out", 1)
        if out.shape[0] != ny:
            raise ValueError("out has %d elements, the product %d" % (out.shape[0], ny))
    queue = queue or (out.queue if out is not None else None) or a.queue
    out = _result((ny,), y, beta, out, queue, "y")
    if ny == 0:
        return out
    order, lda = _passed_matrix(a, "a")
    vectors = []
    for v, name in ((x, "x"), (out, "out")):
        passed = vector_inc(v.shape[0], v.strides[0])
        if passed is None:
            raise ValueError("%s (stride %d) cannot be passed as a BLAS increment" % (name, v.strides[0]))
        vectors.append((v.data if v.data is not None else out.data, v.offset // 4 + passed[0], passed[1]))
    (x_buf, x_off, incx), (y_buf, y_off, incy) = vectors
    event = sgemv_cl(ROW_MAJOR if order == ROW else COL_MAJOR, TRANS if trans else NO_TRANS, m, n, alpha,
                     a.data if a.data is not None else out.data, a.offset // 4, lda, x_buf, x_off, incx, beta, y_buf,
                     y_off, incy, queue, wait_for=list(a.events) + list(x.events) + list(out.events))
    out.add_event(event)
    return out
