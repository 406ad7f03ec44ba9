"""Everything around the products: the library's version, the settings
it refused, the math mode, the device the host-memory calls use, the tuned
parameters and their database, and the program cache."""
import collections
import contextlib
import ctypes
import json
import os

from . import _lib
from ._lib import c as _c
from ._status import Error, check

_CACHE_MEMORY, _CACHE_DISK = 1, 2
_INVALID_ARGUMENT = -1032


def version():
    """The C library's version, "major.minor.patch"."""
    return _c.oclblas_version().decode()


def settings_error():
    """None when the library took every OCLBLAS_* environment variable,
    else its message naming each value it refused, what it should be and
    the default used in its place ("OCLBLAS_HOST_THREADS=0 is not a count
    from 1 to 64: ..."; several joined by "; "). A refused value never
    fails a call: its setting keeps the default. An OCLBLAS_DATABASE that
    cannot be loaded or an OCLBLAS_DEVICE that names no device shows up
    once the library has read it (the first call on a device)."""
    text = _c.oclblas_settings_error()
    return None if text is None else text.decode(errors="replace")


# ---- the math mode ----------------------------------------------------------------

# oclblas_math_mode's values (include/oclblas.h); their names come from the library.
_MODE_VALUES = (1, 2, 3)
MATH_MODES = tuple(_c.oclblas_math_mode_name(v).decode() for v in _MODE_VALUES)


def set_math_mode(mode):
    """How SGEMM (sgemm, and matmul of two matrices) computes from now on,
    in the whole process: "strict" (FP32 fused multiply-adds only),
    "accurate" (the default: FP32 accuracy, on tensor cores where the device
    has them and it is faster) or "tf32" (one TF32 product: faster, about
    1e-3 relative error). See math_mode for a scope. SGEMV is always FP32.
    Wins over $OCLBLAS_MATH_MODE."""
    name = str(mode).lower()
    if name not in MATH_MODES:
        raise ValueError("math mode %r: one of %s" % (mode, ", ".join(MATH_MODES)))
    check(_c.oclblas_set_math_mode(_MODE_VALUES[MATH_MODES.index(name)]), "oclblas_set_math_mode")


def get_math_mode():
    """The math mode in force: "strict", "accurate" or "tf32"."""
    return _c.oclblas_math_mode_name(_c.oclblas_get_math_mode()).decode()


@contextlib.contextmanager
def math_mode(mode):
    """A scope with another math mode, the one before restored at its end:

        with oclblas.math_mode("strict"):
            c = oclblas.sgemm(a, b)

    The mode belongs to the process, not to the thread: other threads'
    calls made meanwhile get it too."""
    before = get_math_mode()
    set_math_mode(mode)
    try:
        yield
    finally:
        set_math_mode(before)


# ---- the device -------------------------------------------------------------------

DefaultDevice = collections.namedtuple("DefaultDevice", "device context queue")
DefaultDevice.__doc__ = """The OpenCL handles (as integers) that the host-memory calls use. They stay
owned by the library; pyopencl users wrap them with
pyopencl.Device.from_int_ptr(h) and the like (retain=True)."""

Device = collections.namedtuple("Device", "spec name type platform handle")
Device.__doc__ = """An OpenCL device of this machine: spec, "P:D" (platform and device
index), which set_device and $OCLBLAS_DEVICE take; its name, type ("GPU",
"CPU", "accelerator" or "other"), its platform's name, and its cl_device_id
as an integer."""

_chosen = False


def device_may_be_chosen():
    """Called before every call that makes the library choose its device,
    which it does once per process."""
    global _chosen
    _chosen = True


def devices():
    """Every OpenCL device of this machine, as a list of Device, in the
    order that the "P:D" specs count them."""
    cl = ctypes.CDLL(_lib.OPENCL_SONAME)  # the loader liboclblas already uses
    u32, p_void = ctypes.c_uint32, ctypes.c_void_p

    def text(get, handle, what):
        size = ctypes.c_size_t()
        if get(p_void(handle), u32(what), ctypes.c_size_t(0), None, ctypes.byref(size)) != 0:
            return ""
        buf = ctypes.create_string_buffer(size.value + 1)
        get(p_void(handle), u32(what), ctypes.c_size_t(size.value), buf, None)
        return buf.value.decode(errors="replace").strip()

    found = []
    n = u32()
    if cl.clGetPlatformIDs(u32(0), None, ctypes.byref(n)) != 0 or n.value == 0:
        return found
    platforms = (p_void * n.value)()
    cl.clGetPlatformIDs(n, platforms, None)
    for p, platform in enumerate(platforms):
        nd = u32()
        if cl.clGetDeviceIDs(p_void(platform), ctypes.c_uint64(0xFFFFFFFF), u32(0), None, ctypes.byref(nd)) != 0:
            continue
        ids = (p_void * nd.value)()
        cl.clGetDeviceIDs(p_void(platform), ctypes.c_uint64(0xFFFFFFFF), nd, ids, None)
        for d, dev in enumerate(ids):
            kind = ctypes.c_uint64()
            cl.clGetDeviceInfo(p_void(dev), u32(0x1000), ctypes.c_size_t(8), ctypes.byref(kind), None)  # TYPE
            type_name = ("GPU" if kind.value & 4 else "accelerator" if kind.value & 8 else
                         "CPU" if kind.value & 2 else "other")
            found.append(Device("%d:%d" % (p, d), text(cl.clGetDeviceInfo, dev, 0x102B),  # NAME
                                type_name, text(cl.clGetPlatformInfo, platform, 0x0902), dev))  # PLATFORM_NAME
    return found


def set_device(device):
    """Chooses the device of the host-memory calls (sgemm, sgemv, matmul)
    and opens it; returns its DefaultDevice.

    device: a Device from devices(), a pyopencl.Device, or a spec as
    $OCLBLAS_DEVICE takes it: "gpu", "cpu", "accelerator", "P:D", part of
    the device's name (case-insensitive); or several, comma-separated, or
    "gpus" or "all", over which large SGEMMs spread, the first being the
    default device.

    The library chooses its device once per process, at the first call
    that needs one: call this before sgemm, sgemv, matmul and
    default_device (RuntimeError after them). A spec that names no device
    raises Error (OCLBLAS_DEVICE_NOT_FOUND), and the choice stays failed for
    the process."""
    if hasattr(device, "int_ptr"):  # a pyopencl.Device
        matches = [d for d in devices() if d.handle == device.int_ptr]
        if not matches:
            raise ValueError("set_device: %r is not among this machine's OpenCL devices" % (device,))
        device = matches[0]
    spec = device.spec if isinstance(device, Device) else device
    if not isinstance(spec, str):
        raise TypeError("set_device takes a Device, a pyopencl.Device or a spec string, not %r" % (device,))
    if not spec.strip():
        raise ValueError("set_device: an empty spec names no device")
    if _chosen:
        raise RuntimeError("set_device(%r): the library has chosen its device already (%s), and it chooses once per "
                           "process; call set_device before any sgemm, sgemv, matmul or default_device, or set "
                           "OCLBLAS_DEVICE before Python starts" % (spec, _default_description()))
    os.environ["OCLBLAS_DEVICE"] = spec
    try:
        return default_device()
    except Error as e:
        raise Error(e.status, e.function, " for set_device(%r); the library chooses once per process: start "
                    "another to choose again" % spec) from None


def _default_description():
    try:
        return device_description()["name"]
    except Error as e:
        return "none: %s" % e.message


def default_device():
    """DefaultDevice(device, context, queue): the device the host-memory
    calls use, chosen once: by set_device, else from $OCLBLAS_DEVICE, else
    the first GPU, accelerator, CPU."""
    device_may_be_chosen()
    handles = [ctypes.c_void_p() for _ in range(3)]
    check(_c.oclblas_default_device(*(ctypes.byref(h) for h in handles)), "oclblas_default_device")
    return DefaultDevice(*(h.value for h in handles))


def _device(device, default_if_none=True):
    """A cl_device_id as an integer: from an integer, a Device, a
    pyopencl.Device, or None (the default device, or NULL where the
    library reads it as 'every device')."""
    if device is None:
        return default_device().device if default_if_none else None
    if isinstance(device, Device):
        return device.handle
    if hasattr(device, "int_ptr"):
        return device.int_ptr
    return int(device)


# ---- parameters, database, cache --------------------------------------------------

CacheStats = collections.namedtuple("CacheStats", "memory_hits disk_hits builds disk_rejects")


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
        check(status, function)
        return buf.value.decode()


def device_description(device=None):
    """The device as the database names it: a dict with vendor, type,
    architecture and name (ready to paste into a database entry). device:
    None for the default device, a Device, a pyopencl.Device or a
    cl_device_id integer."""
    handle = _device(device)
    return json.loads(_text(lambda buf, n: _c.oclblas_device_description(handle, buf, n),
                            "oclblas_device_description"))


def get_params(kernel, device=None):
    """The parameters a kernel ("gemm_fast", "gemm_direct", "gemm_tc",
    "helpers", "gemv_n", "gemv_t", "routine") uses on a device, and where
    they came from: "NAME=VALUE,...;source"."""
    handle = _device(device)
    return _text(lambda buf, n: _c.oclblas_get_params(handle, kernel.encode(), buf, n), "oclblas_get_params")


def override_params(kernel, params, device=None):
    """Parameters of one kernel that win over the database: params is
    "NAME=VALUE,..." (None or "" removes the override); device None means
    every device. Checked against the kernel's constraints first."""
    check(_c.oclblas_override_params(_device(device, default_if_none=False), kernel.encode(),
                                     None if params is None else params.encode()), "oclblas_override_params")


def database_load(path):
    """Loads database entries (a JSON file or a folder of them) that win
    over the compiled-in ones, as $OCLBLAS_DATABASE does at start."""
    check(_c.oclblas_database_load(os.fsencode(path)), "oclblas_database_load")


def cache_clear(memory=True, disk=False):
    """Drops built programs held in memory, and with disk=True deletes the
    binaries in the disk cache folder."""
    what = (_CACHE_MEMORY if memory else 0) | (_CACHE_DISK if disk else 0)
    if not what:
        raise ValueError("cache_clear: nothing to clear (memory and disk both False)")
    check(_c.oclblas_cache_clear(what), "oclblas_cache_clear")


def cache_fill(device=None):
    """Builds (or loads from the disk cache) every kernel the device's
    database entry needs, so that later calls compile nothing."""
    check(_c.oclblas_cache_fill(_device(device)), "oclblas_cache_fill")


def cache_stats():
    """CacheStats(memory_hits, disk_hits, builds, disk_rejects) since the
    process started."""
    stats = _lib.cache_stats_t()
    check(_c.oclblas_cache_get_stats(ctypes.byref(stats)), "oclblas_cache_get_stats")
    return CacheStats(stats.memory_hits, stats.disk_hits, stats.builds, stats.disk_rejects)
