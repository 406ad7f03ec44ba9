"""oclblas.cl, the device-buffer calls, on pyopencl buffers and arrays:
skipped where pyopencl is not installed. Results against numpy in float64;
the C functions one to one, with offsets; the library's errors; events."""
import numpy as np
import pytest

cl = pytest.importorskip("pyopencl")
import pyopencl.array as cla  # noqa: E402

import oclblas  # noqa: E402
import oclblas.cl as ocl  # noqa: E402
from conftest import check_gemm, check_gemv, operand, run_python  # noqa: E402


@pytest.fixture(scope="module")
def queue():
    # The library's own default device, seen through pyopencl.
    device = cl.Device.from_int_ptr(oclblas.default_device().device)
    ctx = cl.Context([device])
    return cl.CommandQueue(ctx)


@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True), (True, True)])
def test_sgemm_arrays(queue, rng, trans_a, trans_b):
    m, n, k = 150, 90, 130
    a = operand(rng, (k, m) if trans_a else (m, k))
    b = operand(rng, (n, k) if trans_b else (k, n), "F")
    c = operand(rng, (m, n))
    da, db, dc = (cla.to_device(queue, x) for x in (a, b, c))
    got = ocl.sgemm(da, db, alpha=1.5, beta=-0.5, c=dc, out=dc, trans_a=trans_a, trans_b=trans_b)
    assert got is dc and dc.events
    check_gemm(dc.get(), a, b, c, 1.5, -0.5, trans_a, trans_b)


def test_sgemm_views_and_new_result(queue, rng):
    a, b = operand(rng, (120, 80)), operand(rng, (80, 100))
    da = cla.to_device(queue, a)
    db = cla.to_device(queue, np.ascontiguousarray(b.T))
    got = ocl.sgemm(da, db.T)                       # a transposed view: passed as it is
    assert isinstance(got, cla.Array) and got.shape == (120, 100)
    check_gemm(got.get(), a, b, None, 1.0, 0.0)
    with pytest.raises(ValueError, match="unit stride"):
        ocl.sgemm(cla.to_device(queue, operand(rng, (120, 160)))[:, ::2], db.T)


@pytest.mark.parametrize("trans", [False, True])
def test_sgemv_arrays(queue, rng, trans):
    a = operand(rng, (300, 200), "F")
    x = operand(rng, (300 if trans else 200,))
    y = operand(rng, (200 if trans else 300,))
    da, dx, dy = (cla.to_device(queue, v) for v in (a, x, y))
    ocl.sgemv(da, dx, alpha=2.0, beta=1.0, y=dy, out=dy, trans=trans)
    check_gemv(dy.get(), a, x, y, 2.0, 1.0, trans)


def test_raw_calls_with_offsets(queue, rng):
    m, n, k = 33, 21, 17
    a, b = operand(rng, (m, k)), operand(rng, (k, n))
    mf = cl.mem_flags
    abuf = cl.Buffer(queue.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.concatenate([np.zeros(5, np.float32),
                                                                                              a.ravel()]))
    bbuf = cl.Buffer(queue.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    cbuf = cl.Buffer(queue.context, mf.READ_WRITE, size=(m * n + 3) * 4)
    ev = ocl.sgemm_cl(oclblas.ROW_MAJOR, oclblas.NO_TRANS, oclblas.NO_TRANS, m, n, k, 1.0, abuf, 5, k, bbuf, 0, n,
                      0.0, cbuf, 3, n, queue)
    assert isinstance(ev, cl.Event)
    ev.wait()
    c = np.empty(m * n + 3, np.float32)
    cl.enqueue_copy(queue, c, cbuf)
    check_gemm(c[3:].reshape(m, n), a, b, None, 1.0, 0.0)
    x = operand(rng, (k,))
    xbuf = cl.Buffer(queue.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    ybuf = cl.Buffer(queue.context, mf.READ_WRITE, size=m * 4)
    ocl.sgemv_cl(oclblas.ROW_MAJOR, oclblas.NO_TRANS, m, k, 1.0, abuf, 5, k, xbuf, 0, 1, 0.0, ybuf, 0, 1, queue).wait()
    y = np.empty(m, np.float32)
    cl.enqueue_copy(queue, y, ybuf)
    check_gemv(y, a, x, None, 1.0, 0.0)
    # A buffer too small for what the call says: the library's status and message.
    with pytest.raises(oclblas.Error) as e:
        ocl.sgemm_cl(oclblas.ROW_MAJOR, oclblas.NO_TRANS, oclblas.NO_TRANS, m, n, k + 50, 1.0, abuf, 0, k + 50, bbuf,
                     0, n, 0.0, cbuf, 0, n, queue)
    assert e.value.message == oclblas.status_string(e.value.status) and "oclblas_sgemm_cl" in str(e.value)


def test_set_device_takes_a_pyopencl_device():
    """In a fresh process (the library chooses its device once per process)."""
    result = run_python("import pyopencl as cl, oclblas\n"
                        "dev = cl.get_platforms()[-1].get_devices()[-1]\n"
                        "print(oclblas.set_device(dev).device == dev.int_ptr)\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True"]
