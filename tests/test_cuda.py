"""torch.cuda and device placement. In a CPU build every CUDA request must raise
"Torch not compiled with CUDA enabled" as a RuntimeError (PyTorch raises an
AssertionError there; a RuntimeError is what its other device errors use), never crash;
the tests marked needs_cuda run only where a CUDA device is present."""
import pytest
import torch

CPU_BUILD = torch.version.cuda is None
needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
NOT_COMPILED = "Torch not compiled with CUDA enabled"


def test_cpu_build_reports_no_cuda():
    if not CPU_BUILD:
        pytest.skip("CUDA build")
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    assert torch._C._cuda_is_built() is False


@pytest.mark.parametrize(
    "request_cuda",
    [
        lambda: torch.zeros(2, device="cuda"),
        lambda: torch.ones(2, 3, device=torch.device("cuda", 0)),
        lambda: torch.tensor([1.0], device="cuda"),
        lambda: torch.ones(2).cuda(),
        lambda: torch.ones(2).to("cuda:0"),
        lambda: torch.ones(2).to(torch.device("cuda"), torch.float64),
        torch.cuda.current_device,
        torch.cuda.synchronize,
        lambda: torch.cuda.set_device(0),
        lambda: torch.cuda.get_device_name(0),
    ],
    ids=["zeros", "ones-device-obj", "tensor", "Tensor.cuda", "to-str", "to-device-dtype", "current_device",
         "synchronize", "set_device", "get_device_name"],
)
def test_cpu_build_raises_not_compiled(request_cuda):
    if not CPU_BUILD:
        pytest.skip("CUDA build")
    with pytest.raises(RuntimeError, match=NOT_COMPILED):
        request_cuda()


def test_cuda_manual_seed_and_memory_are_noops_without_cuda():
    if not CPU_BUILD:
        pytest.skip("CUDA build")
    assert torch.cuda.memory_allocated(0) == 0
    torch.cuda.manual_seed(3)
    torch.cuda.manual_seed_all(3)
    with pytest.raises(TypeError, match="expected an int"):
        torch.cuda.manual_seed("3")


def test_device_arguments_are_checked():
    with pytest.raises(ValueError, match="expected a CUDA device"):
        torch.cuda.synchronize("cpu")
    with pytest.raises(TypeError, match="expected a CUDA device"):
        torch.cuda.get_device_name(1.5)
    with pytest.raises(ValueError, match="expects a CUDA device"):
        torch.ones(1).cuda("cpu")
    with pytest.raises(RuntimeError, match="device"):
        torch.ones(1).to("tpu")


def test_to_same_device_returns_self_unless_copy():
    t = torch.arange(4.0)
    assert t.to("cpu") is t
    assert t.to(torch.device("cpu")) is t
    assert t.cpu() is t
    c = t.to("cpu", copy=True)
    assert c is not t and c.tolist() == t.tolist()
    c[0] = 7.0
    assert t[0].item() == 0.0


def test_to_device_with_dtype_converts():
    t = torch.arange(3, dtype=torch.int64)
    d = t.to("cpu", torch.float64)
    assert d.dtype == torch.float64 and d.tolist() == [0.0, 1.0, 2.0]


def test_to_device_keeps_autograd_history():
    x = torch.ones(3, requires_grad=True)
    (x.to("cpu", torch.float64) * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


@needs_cuda
def test_round_trip_through_cuda_matches_cpu():
    x = torch.randn(64, 32)
    y = x.cuda()
    assert y.is_cuda and y.device == torch.device("cuda", torch.cuda.current_device())
    assert torch.equal(y.cpu(), x)
    assert torch.allclose((y @ y.T).cpu(), x @ x.T, atol=1e-4)
