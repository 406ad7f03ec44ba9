"""oclblas for Python: SGEMM and SGEMV on any OpenCL device, on numpy arrays
and anything numpy reads as one.

    import numpy as np, oclblas
    a = np.random.rand(500, 300)                 # float64: converted to float32
    b = np.asfortranarray(np.random.rand(300, 200).astype(np.float32))
    c = oclblas.matmul(a, b)                     # a @ b, a new float32 array
    oclblas.sgemm(a, b, alpha=2, beta=1, c=c, out=c)   # c = 2 a b + c, in place
    y = oclblas.sgemv(a, [1.0] * 300)            # lists work too
    with oclblas.math_mode("strict"):            # FP32 fused multiply-adds only
        c = oclblas.sgemm(a, b)

The package holds its own build of the C library (liboclblas), which picks
the device, compiles and caches the kernels, and decides per call whether
the device or the host is faster; oclblas.library_path says which file was
loaded.

Operands: float32 numpy arrays in native byte order go to the library as
they are, in C or Fortran order, and as views of larger arrays (slices,
transposes, blocks) by leading dimension and increment, with no copy; a
copy is made only where the memory cannot be described that way. Anything
else (lists, tuples, integer or float64 arrays) is converted to float32
first, as numpy's astype would. Results are float32. Complex operands are
refused (TypeError).

Errors: wrong arguments raise TypeError or ValueError before the library is
called; every failure of the library raises oclblas.Error, carrying its
status, name and message (from the library) and the C function.

Settings: the OCLBLAS_* environment variables are read by the library; a
value it refuses keeps its default and never fails a call, and
settings_error() returns the message that names it (None when every value
was taken).

The math mode (set_math_mode, get_math_mode, the math_mode scope) and the
device (devices, set_device, default_device) belong to the process. Every
function may be called from several threads at once; the library runs
without the GIL. The device-buffer calls for pyopencl users are in
oclblas.cl.
"""
from ._lib import library_path, opencl_loader_path
from ._status import Error, status_name, status_string
from ._blas import CONJ_TRANS, COL_MAJOR, NO_TRANS, ROW_MAJOR, TRANS, matmul, sgemm, sgemv
from ._control import (MATH_MODES, CacheStats, DefaultDevice, Device, cache_clear, cache_fill, cache_stats,
                       database_load, default_device, device_description, devices, get_math_mode, get_params,
                       math_mode, override_params, set_device, set_math_mode, settings_error, version)

__version__ = version()

__all__ = ["sgemm", "sgemv", "matmul", "Error", "status_string", "status_name", "version", "settings_error",
           "set_math_mode", "get_math_mode", "math_mode", "MATH_MODES",
           "devices", "set_device", "default_device", "device_description", "Device", "DefaultDevice",
           "get_params", "override_params", "database_load", "cache_clear", "cache_fill", "cache_stats", "CacheStats",
           "library_path", "opencl_loader_path", "ROW_MAJOR", "COL_MAJOR", "NO_TRANS", "TRANS", "CONJ_TRANS"]
