"""The library's statuses as Python exceptions: every failure of a C call
raises Error, named and described by the library itself."""
from ._lib import c as _c


def status_string(status):
    """The library's description of a status code (OpenCL's codes too)."""
    return _c.oclblas_status_string(int(status)).decode()


def status_name(status):
    """The status's name: "OCLBLAS_INVALID_LDA", "CL_OUT_OF_RESOURCES", or
    "unknown"."""
    return _c.oclblas_status_name(int(status)).decode()


class Error(RuntimeError):
    """A call of the library failed. status: its code; name: its name
    ("OCLBLAS_DEVICE_NOT_FOUND"); message: its description; function: the C
    function that returned it."""

    def __init__(self, status, function, note=""):
        self.status = int(status)
        self.name = status_name(status)
        self.message = status_string(status)
        self.function = function
        super().__init__("%s: %s (%s)%s" % (function, self.message, self.name, note))


def check(status, function, note=""):
    """Raises Error unless status is success. note: added to the message."""
    if status != 0:
        raise Error(status, function, note)
