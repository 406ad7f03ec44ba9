"""Loading liboclblas and the OpenCL ICD loader it needs, and the C
prototypes of the library's functions.

The library is the first of:

1. ``$OCLBLAS_LIBRARY``, the path of a ``liboclblas.so.0`` (a developer's
   build); when set, the only place tried.
2. The one the wheel bundles beside this module (``pip install`` builds it).
3. The dynamic loader's own search (``LD_LIBRARY_PATH``, the system folders),
   for a checkout's package used without installing it.

liboclblas links the OpenCL ICD loader, ``libOpenCL.so.1``, which finds the
devices' drivers (``/etc/OpenCL/vendors``). The system's loader is used
where there is one. Where there is none, the one from the PyPI package
``nvidia-cuda-opencl`` (a dependency on Linux x86_64 and aarch64: the ICD
loader alone, which serves every vendor's drivers) is loaded first, so that
the library's need is met by it. Without either, ImportError names the
package to install.
"""
import ctypes
import glob
import importlib.util
import os

SONAME = "liboclblas.so.0"
OPENCL_SONAME = "libOpenCL.so.1"
BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), SONAME)

NO_OPENCL_LOADER = (
    "oclblas needs the OpenCL ICD loader %s, which this system lacks. Install it: Debian and Ubuntu "
    "`apt-get install ocl-icd-libopencl1`, Fedora `dnf install ocl-icd`, or from PyPI `pip install "
    "nvidia-cuda-opencl` (Linux x86_64 and aarch64); and an OpenCL driver for your device (e.g. Debian's "
    "pocl-opencl-icd for the CPU). The loader said: %s")


class cache_stats_t(ctypes.Structure):
    _fields_ = [("memory_hits", ctypes.c_ulong), ("disk_hits", ctypes.c_ulong),
                ("builds", ctypes.c_ulong), ("disk_rejects", ctypes.c_ulong)]


def loaded_path(name):
    """The file the dynamic loader mapped for a library whose file name
    starts with name, from /proc/self/maps; None if none is mapped."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split(None, 5)[-1].strip()
                if os.path.basename(path).startswith(name):
                    return path
    except OSError:
        pass
    return None


def pypi_opencl_loader():
    """The libOpenCL.so.1 of the nvidia-cuda-opencl package, if installed
    (its folder under the `nvidia` namespace package varies by release)."""
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        found = sorted(glob.glob(os.path.join(folder, "*", "lib", OPENCL_SONAME)))
        if found:
            return found[0]
    return None


def _open(path):
    """ctypes.CDLL(path), with the PyPI ICD loader loaded first when the
    system has no libOpenCL.so.1."""
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        if OPENCL_SONAME not in str(e):
            raise
        loader = pypi_opencl_loader()
        if loader is None:
            raise ImportError(NO_OPENCL_LOADER % (OPENCL_SONAME, e)) from None
        # Global, so that the library's need of libOpenCL.so.1 (its soname) is met by it.
        ctypes.CDLL(loader, mode=ctypes.RTLD_GLOBAL)
        return ctypes.CDLL(path)


def load():
    """(ctypes.CDLL, path) of liboclblas, or ImportError saying where it looked."""
    explicit = os.environ.get("OCLBLAS_LIBRARY")
    if explicit:
        try:
            return _open(explicit), os.path.realpath(explicit)
        except OSError as e:
            raise ImportError("oclblas: cannot load OCLBLAS_LIBRARY=%s: %s" % (explicit, e)) from None
    if os.path.exists(BUNDLED):
        try:
            return _open(BUNDLED), BUNDLED
        except OSError as e:
            raise ImportError("oclblas: cannot load its library %s: %s" % (BUNDLED, e)) from None
    try:
        lib = _open(SONAME)
    except OSError as e:
        raise ImportError("oclblas: %s is neither beside the package (%s; `pip install` puts it there) nor in the "
                          "loader's path, and OCLBLAS_LIBRARY is not set: %s" % (SONAME, BUNDLED, e)) from None
    return lib, loaded_path("liboclblas.so") or SONAME


def declare(lib):
    """Gives every function the library's C prototype (include/oclblas.h)."""
    c_int, c_size, c_ptrdiff, c_float, c_void_p = (ctypes.c_int, ctypes.c_size_t, ctypes.c_ssize_t, ctypes.c_float,
                                                   ctypes.c_void_p)
    c_char_p, p_void_p = ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)
    protos = {
        "oclblas_status_string": (c_char_p, [c_int]),
        "oclblas_status_name": (c_char_p, [c_int]),
        "oclblas_version": (c_char_p, []),
        "oclblas_set_math_mode": (c_int, [c_int]),
        "oclblas_get_math_mode": (c_int, []),
        "oclblas_math_mode_name": (c_char_p, [c_int]),
        "oclblas_settings_error": (c_char_p, []),
        "oclblas_sgemm": (c_int, [c_int, c_int, c_int, c_size, c_size, c_size, c_float, c_void_p, c_size, c_void_p,
                                  c_size, c_float, c_void_p, c_size]),
        "oclblas_sgemv": (c_int, [c_int, c_int, c_size, c_size, c_float, c_void_p, c_size, c_void_p, c_ptrdiff,
                                  c_float, c_void_p, c_ptrdiff]),
        "oclblas_sgemm_strided_batched": (c_int, [c_int, c_int, c_int, c_size, c_size, c_size, c_float, c_void_p,
                                                  c_size, c_size, c_void_p, c_size, c_size, c_float, c_void_p,
                                                  c_size, c_size, c_size]),
        # The arrays by address (numpy arrays' .ctypes.data): transposes as
        # int, sizes as size_t, scalars as float, operands as pointers.
        "oclblas_sgemm_grouped_batched": (c_int, [c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                                                  c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                                                  c_void_p, c_size, c_void_p]),
        "oclblas_sgemm_cl": (c_int, [c_int, c_int, c_int, c_size, c_size, c_size, c_float, c_void_p, c_size, c_size,
                                     c_void_p, c_size, c_size, c_float, c_void_p, c_size, c_size, c_void_p, p_void_p]),
        "oclblas_sgemv_cl": (c_int, [c_int, c_int, c_size, c_size, c_float, c_void_p, c_size, c_size, c_void_p, c_size,
                                     c_ptrdiff, c_float, c_void_p, c_size, c_ptrdiff, c_void_p, p_void_p]),
        "oclblas_default_device": (c_int, [p_void_p, p_void_p, p_void_p]),
        "oclblas_device_description": (c_int, [c_void_p, ctypes.c_char_p, c_size]),
        "oclblas_override_params": (c_int, [c_void_p, c_char_p, c_char_p]),
        "oclblas_get_params": (c_int, [c_void_p, c_char_p, ctypes.c_char_p, c_size]),
        "oclblas_database_load": (c_int, [c_char_p]),
        "oclblas_cache_clear": (c_int, [c_int]),
        "oclblas_cache_fill": (c_int, [c_void_p]),
        "oclblas_cache_get_stats": (c_int, [ctypes.POINTER(cache_stats_t)]),
    }
    for name, (restype, argtypes) in protos.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = argtypes
    return lib


c, library_path = load()
declare(c)
opencl_loader_path = loaded_path("libOpenCL")
