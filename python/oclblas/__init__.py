"""oclblas for Python: SGEMM and SGEMV on any OpenCL device, on numpy arrays.

A thin ctypes layer over the installed C library (liboclblas), which picks
the device, compiles and caches the kernels, and decides per call whether
the device or the host is faster. Nothing here is compiled.

    import numpy as np, oclblas
    a = np.random.rand(500, 300).astype(np.float32)
    b = np.random.rand(300, 200).astype(np.float32)
    c = oclblas.sgemm(a, b)                      # a @ b, a new array
    oclblas.sgemm(a, b, alpha=2, beta=1, c=c, out=c)   # c = 2 a b + c, in place
    y = oclblas.sgemv(a, np.ones(300, np.float32))

Operands are numpy float32 arrays (native byte order) in either order (C or
Fortran), and views of them: slices, transposes, column blocks of a larger
matrix. Those are passed to the library as they are, by leading dimension
and increment, with no copy. A copy is made only where the memory cannot be
described that way, and it is said where (see sgemm, sgemv). Other dtypes
are refused (TypeError) rather than converted behind your back.

Every failure of the library raises oclblas.Error, carrying its status and
message. Every function may be called from several threads at once; the
library runs without the GIL.

Where the library is found: $OCLBLAS_LIBRARY (the path of liboclblas.so.0),
else the prefix this package is installed in (PREFIX/lib), else the
loader's path; oclblas.library_path says which file was loaded. The
device-buffer calls for pyopencl users are in oclblas.cl.
"""
import collections
import ctypes
import json
import os

import numpy as np

from . import _lib
from ._layout import COL, ROW, matrix_order, vector_inc

__all__ = ["sgemm", "sgemv", "Error", "version", "status_string", "default_device", "device_description",
           "get_params", "override_params", "database_load", "cache_clear", "cache_fill", "cache_stats",
           "library_path", "ROW_MAJOR", "COL_MAJOR", "NO_TRANS", "TRANS", "CONJ_TRANS"]

_c, library_path = _lib.load()
_lib.declare(_c)

ROW_MAJOR, COL_MAJOR = 101, 102
NO_TRANS, TRANS, CONJ_TRANS = 111, 112, 113
_CACHE_MEMORY, _CACHE_DISK = 1, 2
_INVALID_ARGUMENT = -1032
_TooHardError = getattr(getattr(np, "exceptions", np), "TooHardError")


def status_string(status):
    """The library's description of a status code (OpenCL codes too)."""
    return _c.oclblas_status_string(int(status)).decode()


def _status_name(status):
    if hasattr(_c, "oclblas_status_name"):
        name = _c.oclblas_status_name(int(status))
        return name.decode() if name else None
    return None


class Error(RuntimeError):
    """A call of the library failed. status: its code; name: its name where
    the library gives one (else None); message: its description
    (oclblas_status_string); function: the C function that returned it."""

    def __init__(self, status, function):
        self.status = int(status)
        self.name = _status_name(status)
        self.message = status_string(status)
        self.function = function
        super().__init__("%s: %s (%s)" % (function, self.message, self.name or "status %d" % self.status))


def _check(status, function):
    if status != 0:
        raise Error(status, function)


def version():
    """The C library's version, "major.minor.patch"."""
    return _c.oclblas_version().decode()


# ---- operands -----------------------------------------------------------------

def _array(x, name, ndim, writeable=False):
    if not isinstance(x, np.ndarray):
        raise TypeError("%s must be a numpy array, not %s" % (name, type(x).__name__))
    if x.dtype != np.float32:
        raise TypeError("%s must be float32 in native byte order, not %s (convert it with np.asarray(%s, np.float32))"
                        % (name, x.dtype.str, name))
    if x.ndim != ndim:
        raise ValueError("%s must have %d dimension%s, not %d" % (name, ndim, "s" if ndim > 1 else "", x.ndim))
    if writeable and not x.flags.writeable:
        raise ValueError("%s is read-only" % name)
    return x


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


def sgemm(a, b, *, alpha=1.0, beta=0.0, c=None, trans_a=False, trans_b=False, out=None):
    """alpha op(a) op(b) + beta c, where op(x) is x or x.T (trans_a, trans_b).

    a, b, c, out: 2-D float32 numpy arrays, each C- or Fortran-ordered or a
    view with one unit stride (a slice, a transpose, a block of a larger
    matrix): all passed as they are. op(a) is m x k, op(b) k x n, c and out
    m x n. c is read only when beta != 0 (as in BLAS, beta = 0 ignores it,
    NaN included) and never written unless it is out.

    Returns out when given, else a new C-ordered array. out=c updates c in
    place, the BLAS way, without a copy.

    Copies, and only these: an operand with no unit stride, or with negative
    or zero strides, is copied to a C-ordered array first; so is c into out
    when they are different arrays; out is computed in a new array and then
    copied into when it cannot be passed as it is or overlaps a or b.
    """
    a = _array(a, "a", 2)
    b = _array(b, "b", 2)
    m, k = (a.shape[1], a.shape[0]) if trans_a else a.shape
    kb, n = (b.shape[1], b.shape[0]) if trans_b else b.shape
    if kb != k:
        raise ValueError("op(a) is %dx%d but op(b) is %dx%d: the inner dimensions differ" % (m, k, kb, n))
    alpha, beta = float(alpha), float(beta)
    if c is not None:
        c = _array(c, "c", 2)
        if c.shape != (m, n):
            raise ValueError("c is %dx%d, the product %dx%d" % (c.shape + (m, n)))
    elif beta != 0:
        raise ValueError("beta = %g needs c" % beta)
    if out is not None:
        out = _array(out, "out", 2, writeable=True)
        if out.shape != (m, n):
            raise ValueError("out is %dx%d, the product %dx%d" % (out.shape + (m, n)))
    work = _destination((m, n), c, beta, out, (a, b), lambda o: matrix_order(o.shape, o.strides) is not None)
    order, ldc = matrix_order(work.shape, work.strides)
    a_ptr, ta, lda, a_keep = _matrix_operand(a, trans_a, order)
    b_ptr, tb, ldb, b_keep = _matrix_operand(b, trans_b, order)
    _check(_c.oclblas_sgemm(ROW_MAJOR if order == ROW else COL_MAJOR, ta, tb, m, n, k, alpha, a_ptr, lda, b_ptr,
                            ldb, beta, work.ctypes.data, ldc), "oclblas_sgemm")
    del a_keep, b_keep
    return _finish(work, out)


def sgemv(a, x, *, alpha=1.0, beta=0.0, y=None, trans=False, out=None):
    """alpha op(a) x + beta y, where op(a) is a or a.T (trans).

    a: a 2-D float32 array, m x n, C- or Fortran-ordered or a view with one
    unit stride (passed as it is); x, y, out: 1-D float32 arrays of any
    stride, negative included (passed as BLAS increments): x has n elements
    (m with trans), y and out the other count. y is read only when
    beta != 0, and never written unless it is out; out=y updates y in place.

    Returns out when given, else a new array.

    Copies, and only these: a with no unit stride (or negative or zero
    strides), and x or out with a zero (broadcast) stride, are copied; y is
    copied into out when they are different arrays; out is computed in a new
    array and then copied into when it overlaps a or x.
    """
    a = _array(a, "a", 2)
    x = _array(x, "x", 1)
    m, n = a.shape
    nx, ny = (m, n) if trans else (n, m)
    if x.shape[0] != nx:
        raise ValueError("x has %d elements, op(a) is %dx%d" % (x.shape[0], ny, nx))
    alpha, beta = float(alpha), float(beta)
    if y is not None:
        y = _array(y, "y", 1)
        if y.shape[0] != ny:
            raise ValueError("y has %d elements, the product %d" % (y.shape[0], ny))
    elif beta != 0:
        raise ValueError("beta = %g needs y" % beta)
    if out is not None:
        out = _array(out, "out", 1, writeable=True)
        if out.shape[0] != ny:
            raise ValueError("out has %d elements, the product %d" % (out.shape[0], ny))
    work = _destination((ny,), y, beta, out, (a, x), lambda o: vector_inc(o.shape[0], o.strides[0]) is not None)
    passed = matrix_order(a.shape, a.strides)
    if passed is None:
        a = np.ascontiguousarray(a)
        passed = (ROW, max(1, n))
    order, lda = passed
    x_ptr, incx, x_keep = _vector_operand(x)
    y_ptr, incy, _ = _vector_operand(work)
    _check(_c.oclblas_sgemv(ROW_MAJOR if order == ROW else COL_MAJOR, TRANS if trans else NO_TRANS, m, n, alpha,
                            a.ctypes.data, lda, x_ptr, incx, beta, y_ptr, incy), "oclblas_sgemv")
    del x_keep
    return _finish(work, out)


# ---- device, database, cache ------------------------------------------------------

DefaultDevice = collections.namedtuple("DefaultDevice", "device context queue")
DefaultDevice.__doc__ = """The OpenCL handles (as integers) that the host-pointer calls use. They stay
owned by the library; pyopencl users wrap them with
pyopencl.Device.from_int_ptr(h) and the like (retain=True)."""

CacheStats = collections.namedtuple("CacheStats", "memory_hits disk_hits builds disk_rejects")


def default_device():
    """DefaultDevice(device, context, queue): the device the host-pointer
    calls use, chosen once from $OCLBLAS_DEVICE, else the first GPU,
    accelerator, CPU."""
    handles = [ctypes.c_void_p() for _ in range(3)]
    _check(_c.oclblas_default_device(*(ctypes.byref(h) for h in handles)), "oclblas_default_device")
    return DefaultDevice(*(h.value for h in handles))


def _device(device, default_if_none=True):
    """A cl_device_id as an integer: from an integer, a pyopencl.Device, or
    None (the default device, or NULL where the library reads it as 'all')."""
    if device is None:
        return default_device().device if default_if_none else None
    if hasattr(device, "int_ptr"):
        return device.int_ptr
    return int(device)


def _text(call, function, start=4096):
    """Calls call(buf, len) with a larger buffer while the library says the
    buffer is too small."""
    size = start
    while True:
        buf = ctypes.create_string_buffer(size)
        status = call(buf, size)
        if status == _INVALID_ARGUMENT and size < (1 << 20):
            size *= 4
            continue
        _check(status, function)
        return buf.value.decode()


def device_description(device=None):
    """The device as the database names it: a dict with vendor, type,
    architecture and name (ready to paste into a database entry). device:
    None for the default device, a cl_device_id integer or a pyopencl.Device."""
    handle = _device(device)
    return json.loads(_text(lambda buf, n: _c.oclblas_device_description(handle, buf, n),
                            "oclblas_device_description"))


def get_params(kernel, device=None):
    """The parameters a kernel ("gemm_fast", "gemm_direct", "helpers",
    "gemv_n", "gemv_t", "routine") uses on a device, and where they came
    from: "NAME=VALUE,...;source"."""
    handle = _device(device)
    return _text(lambda buf, n: _c.oclblas_get_params(handle, kernel.encode(), buf, n), "oclblas_get_params")


def override_params(kernel, params, device=None):
    """Parameters of one kernel that win over the database: params is
    "NAME=VALUE,..." (None or "" removes the override); device None means
    every device. Checked against the kernel's constraints first."""
    _check(_c.oclblas_override_params(_device(device, default_if_none=False), kernel.encode(),
                                      None if params is None else params.encode()), "oclblas_override_params")


def database_load(path):
    """Loads database entries (a JSON file or a folder of them) that win
    over the compiled-in ones, as $OCLBLAS_DATABASE does at start."""
    _check(_c.oclblas_database_load(os.fsencode(path)), "oclblas_database_load")


def cache_clear(memory=True, disk=False):
    """Drops built programs held in memory, and with disk=True deletes the
    binaries in the disk cache folder."""
    what = (_CACHE_MEMORY if memory else 0) | (_CACHE_DISK if disk else 0)
    if not what:
        raise ValueError("cache_clear: nothing to clear (memory and disk both False)")
    _check(_c.oclblas_cache_clear(what), "oclblas_cache_clear")


def cache_fill(device=None):
    """Builds (or loads from the disk cache) every kernel the device's
    database entry needs, so that later calls compile nothing."""
    _check(_c.oclblas_cache_fill(_device(device)), "oclblas_cache_fill")


def cache_stats():
    """CacheStats(memory_hits, disk_hits, builds, disk_rejects) since the
    process started."""
    stats = _lib.cache_stats_t()
    _check(_c.oclblas_cache_get_stats(ctypes.byref(stats)), "oclblas_cache_get_stats")
    return CacheStats(stats.memory_hits, stats.disk_hits, stats.builds, stats.disk_rejects)
