"""The rest of the package: where the library came from, the settings the
library refused, the math mode and its scope, the device choice,
parameters, the database, the program cache, errors that carry the
library's own status and message, and calls from several threads at once."""
import concurrent.futures
import json
import os
import re
import sys

import numpy as np
import pytest

import oclblas
from conftest import EPS, check_gemm, operand, run_python


def test_version_and_library_path():
    assert re.fullmatch(r"\d+\.\d+\.\d+", oclblas.version())
    assert oclblas.__version__ == oclblas.version()
    assert os.path.isfile(oclblas.library_path)
    assert os.path.basename(oclblas.opencl_loader_path or "").startswith("libOpenCL")
    # CI installs the wheel into a fresh virtual environment and says so:
    # the package must come from there and load the library it bundles.
    if os.environ.get("OCLBLAS_TEST_INSTALLED"):
        assert "OCLBLAS_LIBRARY" not in os.environ
        package = os.path.dirname(os.path.realpath(oclblas.__file__))
        assert package.startswith(os.path.realpath(sys.prefix) + os.sep), package
        assert oclblas.library_path == os.path.join(package, "liboclblas.so.0"), oclblas.library_path


def test_pypi_opencl_loader():
    """The ICD loader of the dependency nvidia-cuda-opencl, which the package
    loads where the system has none, serves the library: loaded first (as
    the package does then), it is the one liboclblas uses, and it finds the
    same devices as the system's."""
    from oclblas._lib import pypi_opencl_loader
    loader = pypi_opencl_loader()
    if loader is None:
        assert not os.environ.get("OCLBLAS_TEST_INSTALLED"), "the installed package's dependency is missing"
        pytest.skip("nvidia-cuda-opencl is not installed")
    result = run_python("import ctypes\n"
                        "ctypes.CDLL(%r, mode=ctypes.RTLD_GLOBAL)\n"
                        "import oclblas, numpy as np\n"
                        "print(oclblas.opencl_loader_path)\n"
                        "print([d.name for d in oclblas.devices()])\n"
                        "print(float(oclblas.sgemm(np.ones((3, 4)), np.ones((4, 2)))[2, 1]))" % loader)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [os.path.realpath(loader), str([d.name for d in oclblas.devices()]), "4.0"]


def test_math_mode(rng):
    assert oclblas.MATH_MODES == ("strict", "accurate", "tf32")
    before = oclblas.get_math_mode()
    assert before in oclblas.MATH_MODES
    a, b = operand(rng, (130, 170)), operand(rng, (170, 90))
    for mode in oclblas.MATH_MODES:
        with oclblas.math_mode(mode):
            assert oclblas.get_math_mode() == mode
            # tf32: one product of 10-bit mantissas where the device has tensor cores, else FP32.
            check_gemm(oclblas.sgemm(a, b), a, b, None, 1.0, 0.0, what=mode,
                       unit=2.0 ** -10 if mode == "tf32" else EPS)
        assert oclblas.get_math_mode() == before
    # Nested scopes, one left by an exception: each restores the mode it found.
    with pytest.raises(KeyError):
        with oclblas.math_mode("strict"):
            with oclblas.math_mode("TF32"):
                assert oclblas.get_math_mode() == "tf32"
                raise KeyError("leave")
    assert oclblas.get_math_mode() == before
    oclblas.set_math_mode("strict")
    try:
        assert oclblas.get_math_mode() == "strict"
    finally:
        oclblas.set_math_mode(before)
    for bad in ("fast", "", 2, None):
        with pytest.raises(ValueError, match="strict, accurate, tf32"):
            oclblas.set_math_mode(bad)
    assert oclblas.get_math_mode() == before


def test_devices_and_set_device():
    found = oclblas.devices()
    assert found, "no OpenCL device: the tests need one (PoCL)"
    assert all(re.fullmatch(r"\d+:\d+", d.spec) and d.name and d.handle for d in found)
    assert oclblas.default_device().device in [d.handle for d in found]
    # This process has chosen (the calls above): set_device says so.
    with pytest.raises(RuntimeError, match="chooses once per process"):
        oclblas.set_device(found[0])
    # A fresh process: the last device by its spec, and a product on it.
    last = found[-1]
    result = run_python("import oclblas, numpy as np\n"
                        "d = oclblas.set_device(%r)\n"
                        "print(d.device == oclblas.default_device().device == oclblas.devices()[-1].handle)\n"
                        "print(float(oclblas.sgemm(np.ones((70, 50)), np.ones((50, 60)))[3, 4]))" % last.spec)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "50.0"]
    # A spec that names nothing: the library's own status, named.
    result = run_python("import oclblas\n"
                        "try:\n"
                        "    oclblas.set_device('no such device anywhere')\n"
                        "except oclblas.Error as e:\n"
                        "    print(e.name)\n"
                        "    print(e)\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "OCLBLAS_DEVICE_NOT_FOUND"
    assert "set_device('no such device anywhere')" in result.stdout
    with pytest.raises(TypeError):
        oclblas.set_device(3.5)
    with pytest.raises(ValueError, match="empty"):
        oclblas.set_device(" ")


def test_default_device():
    dev = oclblas.default_device()
    assert dev.device and dev.context and dev.queue
    assert oclblas.default_device() == dev         # chosen once
    desc = oclblas.device_description()
    assert set(desc) >= {"vendor", "type", "architecture", "name"}
    assert desc == oclblas.device_description(dev.device)


def test_params_and_overrides():
    text = oclblas.get_params("gemm_direct")
    assert re.match(r"WGD=\d+,", text) and ";" in text
    dev = oclblas.default_device().device
    with pytest.raises(oclblas.Error) as e:
        oclblas.override_params("gemm_fast", "MWG=7", device=dev)
    assert e.value.message == oclblas.status_string(e.value.status)
    assert e.value.message in str(e.value) and "oclblas_override_params" in str(e.value)
    assert e.value.status < -1000
    with pytest.raises(oclblas.Error) as e:
        oclblas.get_params("no_such_kernel")
    assert e.value.status < -1000 and e.value.message == oclblas.status_string(e.value.status)
    # An accepted override shows in get_params, and removing it restores the database's values.
    before = oclblas.get_params("gemm_direct")
    oclblas.override_params("gemm_direct", "PADA=0", device=dev)
    try:
        assert "PADA=0" in oclblas.get_params("gemm_direct")
        a, b = operand(np.random.default_rng(1), (70, 50)), operand(np.random.default_rng(2), (50, 60))
        check_gemm(oclblas.sgemm(a, b), a, b, None, 1.0, 0.0)
    finally:
        oclblas.override_params("gemm_direct", None, device=dev)
    assert oclblas.get_params("gemm_direct") == before


def test_status_strings():
    assert oclblas.status_string(0)
    assert oclblas.status_string(-5)               # OpenCL codes too
    assert oclblas.status_string(-1024) != oclblas.status_string(-1031)


def test_settings_error():
    """A value the library refuses is named by settings_error() and costs
    nothing else: its setting keeps its default and calls compute."""
    code = ("import json, numpy, oclblas\n"
            "c = oclblas.sgemm(numpy.ones((3, 4)), numpy.ones((4, 2)))\n"
            "print(json.dumps([oclblas.settings_error(), c.tolist()]))")
    # Every OCLBLAS_* of this environment out, but the tests' cache and the library to load.
    clean = {name: None for name in os.environ
             if name.startswith("OCLBLAS_") and name not in ("OCLBLAS_CACHE_DIR", "OCLBLAS_LIBRARY")}
    for env, refused in (({}, []),
                         ({"OCLBLAS_HOST_THREADS": "0", "OCLBLAS_HOST_CALLS": "sometimes"},
                          ["OCLBLAS_HOST_THREADS=0", "OCLBLAS_HOST_CALLS=sometimes"])):
        r = run_python(code, dict(clean, **env))
        assert r.returncode == 0, r.stderr
        message, c = json.loads(r.stdout)
        assert c == [[4.0, 4.0]] * 3
        if not refused:
            assert message is None
        for value in refused:
            assert value in message, message


def test_database_load(tmp_path):
    with pytest.raises(oclblas.Error) as e:
        oclblas.database_load(tmp_path / "missing.json")
    assert e.value.message == oclblas.status_string(e.value.status)
    assert e.value.name == "OCLBLAS_DATABASE_FILE_ERROR" and e.value.name in str(e.value)
    assert "oclblas_database_load" in str(e.value)
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(oclblas.Error):
        oclblas.database_load(bad)
    # An entry for this very device wins over the compiled-in one.
    entry = {"format": "oclblas-database-1", "device": oclblas.device_description(),
             "tuned": {"tool": "python test", "date": "2026-01-01", "sizes": "none"},
             "parameters": {"gemm_direct": {"WGD": 16, "KWGD": 16, "MDIMCD": 8, "NDIMCD": 8, "KWID": 2, "PADA": 1,
                                            "PADB": 1}}}
    good = tmp_path / "entry.json"
    good.write_text(json.dumps(entry))
    oclblas.database_load(good)
    text = oclblas.get_params("gemm_direct")
    assert text.startswith("WGD=16,KWGD=16,MDIMCD=8,NDIMCD=8,") and str(good) in text
    a, b = operand(np.random.default_rng(3), (40, 33)), operand(np.random.default_rng(4), (33, 21))
    check_gemm(oclblas.sgemm(a, b), a, b, None, 1.0, 0.0)


def test_cache():
    with pytest.raises(ValueError):
        oclblas.cache_clear(memory=False)
    oclblas.cache_clear()                           # memory
    before = oclblas.cache_stats()
    oclblas.cache_fill()
    after = oclblas.cache_stats()
    # Every kernel the entry needs came from the disk or was built.
    assert after.builds + after.disk_hits > before.builds + before.disk_hits
    oclblas.cache_fill()
    again = oclblas.cache_stats()
    assert again.builds == after.builds             # nothing compiled twice
    oclblas.cache_clear(memory=True, disk=True)
    oclblas.cache_fill()
    rebuilt = oclblas.cache_stats()
    assert rebuilt.builds > again.builds           # nothing left on disk to load


def test_threads():
    rng = np.random.default_rng(7)
    cases = [(operand(rng, (m, 40)), operand(rng, (40, m))) for m in (30, 50, 70, 90, 110, 130, 150, 170)]

    def one(case):
        a, b = case
        return oclblas.sgemm(a, b)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for (a, b), got in zip(cases, pool.map(one, cases * 3)):
            check_gemm(got, a, b, None, 1.0, 0.0)
