"""Finding and loading liboclblas, and the C prototypes of its functions.

The library is looked for, in this order (the first place that has it wins;
nothing is searched after a failure at an explicit place):

1. ``$OCLBLAS_LIBRARY``: the path of ``liboclblas.so.0`` (or of another name
   of the same library). When set, it is the only place tried.
2. The installation prefix that this package sits in (the nearest folder
   above the package with the library in its ``lib``, ``lib64`` or
   ``lib/<multiarch>``), then ``sys.prefix`` likewise. So
   ``cmake --install build --prefix P`` followed by
   ``pip install --prefix P ./python`` (or both into one virtual
   environment) needs no setting at all.
3. The dynamic loader's own search: ``LD_LIBRARY_PATH``, the ``ldconfig``
   cache, the system folders (a ``cmake --install`` to ``/usr/local``).
"""
import ctypes
import os
import sys
import sysconfig

SONAME = "liboclblas.so.0"


class cache_stats_t(ctypes.Structure):
    _fields_ = [("memory_hits", ctypes.c_ulong), ("disk_hits", ctypes.c_ulong),
                ("builds", ctypes.c_ulong), ("disk_rejects", ctypes.c_ulong)]


def _prefix_candidates():
    """Where liboclblas would be in the prefixes this package may share with
    it: every folder above the package (PREFIX/lib/pythonX.Y/site-packages/
    oclblas, or Debian's PREFIX/local/lib/python3/dist-packages/oclblas),
    nearest first, then sys.prefix."""
    prefixes = []
    folder = os.path.dirname(os.path.abspath(__file__))
    while True:
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        prefixes.append(parent)
        folder = parent
    prefixes.append(sys.prefix)
    multiarch = sysconfig.get_config_var("MULTIARCH")
    subs = ["lib", "lib64"] + (["lib/" + multiarch] if multiarch else [])
    seen = []
    for prefix in prefixes:
        for sub in subs:
            path = os.path.join(prefix, sub, SONAME)
            if path not in seen:
                seen.append(path)
    return seen


def _loaded_path(name):
    """The file the loader mapped for a library, from /proc/self/maps."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split(None, 5)[-1].strip()
                if os.path.basename(path).startswith(name):
                    return path
    except OSError:
        pass
    return None


def load():
    """(ctypes.CDLL, path) of liboclblas, or OSError saying where it looked."""
    explicit = os.environ.get("OCLBLAS_LIBRARY")
    if explicit:
        try:
            return ctypes.CDLL(explicit), os.path.realpath(explicit)
        except OSError as e:
            raise OSError("oclblas: cannot load OCLBLAS_LIBRARY=%s: %s" % (explicit, e)) from None
    for path in _prefix_candidates():
        if os.path.exists(path):
            return ctypes.CDLL(path), os.path.realpath(path)
    try:
        lib = ctypes.CDLL(SONAME)
    except OSError as e:
        raise OSError("oclblas: %s not found: set OCLBLAS_LIBRARY to its path, or install it in this package's "
                      "prefix or in the loader's path (looked above %s and in %s, then asked the loader: %s)"
                      % (SONAME, os.path.dirname(os.path.abspath(__file__)), sys.prefix, e)) from None
    return lib, _loaded_path("liboclblas.so") or SONAME


def declare(lib):
    """Gives every function the library's C prototype (include/oclblas.h)."""
    c_int, c_size, c_ptrdiff, c_float, c_void_p = (ctypes.c_int, ctypes.c_size_t, ctypes.c_ssize_t, ctypes.c_float,
                                                   ctypes.c_void_p)
    c_char_p, p_void_p = ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)
    protos = {
        "oclblas_status_string": (c_char_p, [c_int]),
        "oclblas_version": (c_char_p, []),
        "oclblas_sgemm": (c_int, [c_int, c_int, c_int, c_size, c_size, c_size, c_float, c_void_p, c_size, c_void_p,
                                  c_size, c_float, c_void_p, c_size]),
        "oclblas_sgemv": (c_int, [c_int, c_int, c_size, c_size, c_float, c_void_p, c_size, c_void_p, c_ptrdiff,
                                  c_float, c_void_p, c_ptrdiff]),
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
    # Newer libraries also name each status; older ones only describe it.
    if hasattr(lib, "oclblas_status_name"):
        lib.oclblas_status_name.restype = c_char_p
        lib.oclblas_status_name.argtypes = [c_int]
    return lib
