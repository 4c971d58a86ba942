"""torch.cuda and device placement. In a CPU build every CUDA request must raise
"Torch not compiled with CUDA enabled" as a RuntimeError (PyTorch raises an
AssertionError there; a RuntimeError is what its other device errors use), never crash.
A CUDA build (+cu130) without a GPU imports, computes on the CPU and raises a clear
RuntimeError for CUDA tensors. The tests marked needs_cuda run only where a CUDA
device is present (test_cuda_ops.py compares every op on CUDA with the CPU)."""
import os
import sys

import cuobjdump
import pytest
import torch
from torch import _cuda_loader

CPU_BUILD = torch.version.cuda is None
needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
needs_cuda_build = pytest.mark.skipif(CPU_BUILD, reason="a CPU build")
NOT_COMPILED = "Torch not compiled with CUDA enabled"
NO_GPU = "No CUDA GPUs are available|invalid device ordinal"
LIBTORCH_CUDA = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so")


def test_cpu_build_reports_no_cuda():
    if not CPU_BUILD:
        pytest.skip("CUDA build")
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    assert torch._C._cuda_is_built() is False


CUDA_REQUESTS = pytest.mark.parametrize(
    "request_cuda",
    [
        lambda: torch.zeros(2, device="cuda"),
        lambda: torch.ones(2, 3, device=torch.device("cuda", 0)),
        lambda: torch.tensor([1.0], device="cuda"),
        lambda: torch.randperm(4, device="cuda"),
        lambda: torch.ones(2).cuda(),
        lambda: torch.ones(2).to("cuda:0"),
        lambda: torch.ones(2).to(torch.device("cuda"), torch.float64),
        torch.cuda.current_device,
        torch.cuda.synchronize,
        lambda: torch.cuda.set_device(0),
        lambda: torch.cuda.get_device_name(0),
    ],
    ids=["zeros", "ones-device-obj", "tensor", "randperm", "Tensor.cuda", "to-str", "to-device-dtype", "current_device",
         "synchronize", "set_device", "get_device_name"],
)


@CUDA_REQUESTS
def test_cpu_build_raises_not_compiled(request_cuda):
    if not CPU_BUILD:
        pytest.skip("CUDA build")
    with pytest.raises(RuntimeError, match=NOT_COMPILED):
        request_cuda()


def test_cuda_manual_seed_and_memory_are_noops_without_cuda():
    if torch.cuda.is_available():
        pytest.skip("a CUDA device is present")
    assert torch.cuda.memory_allocated(0) == 0
    assert torch.cuda.memory_allocated() == 0
    assert torch.cuda.get_arch_list() == []
    torch.cuda.empty_cache()
    torch.cuda.manual_seed(3)
    torch.cuda.manual_seed_all(3)
    with pytest.raises(TypeError, match="expected an int"):
        torch.cuda.manual_seed("3")


def test_cpu_build_has_no_cuda_library():
    if not CPU_BUILD:
        pytest.skip("CUDA build")
    assert torch._C._cuda_arch_list() == ""
    assert not os.path.exists(LIBTORCH_CUDA)
    assert torch.__version__.endswith("+cpu") or "+" not in torch.__version__


# ---- a CUDA build (+cu130), with or without a GPU ---------------------------


@needs_cuda_build
def test_cuda_build_names_its_variant():
    assert torch._C._cuda_is_built() is True
    assert torch.__version__.split("+")[1] == "cu" + torch.version.cuda.replace(".", "")
    assert torch.cuda.is_available() == (torch.cuda.device_count() > 0)


@needs_cuda_build
@CUDA_REQUESTS
def test_cuda_build_without_gpu_raises_clearly(request_cuda):
    if torch.cuda.is_available():
        pytest.skip("a CUDA device is present")
    with pytest.raises(RuntimeError, match=NO_GPU):
        request_cuda()


@needs_cuda_build
def test_cuda_build_computes_on_the_cpu():
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    (x @ x.T).sum().backward()
    assert x.grad.tolist() == [[6.0, 10.0, 14.0], [6.0, 10.0, 14.0]]


@needs_cuda_build
def test_libtorch_cuda_carries_every_requested_architecture():
    requested = torch._C._cuda_arch_list().split()
    asked = os.environ.get("TORCH_CUDA_ARCH_LIST")  # set by the factory for the build it tests
    if asked:
        assert requested == asked.replace(";", " ").split()
    want_elf = {int(a.replace("+PTX", "").replace(".", "")) for a in requested}
    want_ptx = {int(a.replace("+PTX", "").replace(".", "")) for a in requested if a.endswith("+PTX")}
    if cuobjdump.find() is None:
        pytest.skip("no cuobjdump (tests/requirements.txt installs nvidia-cuda-cuobjdump on x86_64 Linux)")
    elf, ptx = cuobjdump.architectures(LIBTORCH_CUDA)
    assert (elf, ptx) == (want_elf, want_ptx)


@needs_cuda_build
def test_nvidia_libraries_come_from_their_wheels():
    if not os.environ.get("TORCH_TEST_WHEEL"):
        pytest.skip("not testing an installed wheel (TORCH_TEST_WHEEL unset)")
    with open("/proc/self/maps") as f:
        mapped = {line.split()[-1] for line in f if ".so" in line}
    cudart = [p for p in mapped if os.path.basename(p).startswith("libcudart.so")]
    assert cudart and all(os.sep + "nvidia" + os.sep in p for p in cudart), cudart
    package = os.path.dirname(torch.__file__)
    assert not any(p.startswith(package) and "cudart" in p for p in mapped)


# ---- how a CUDA wheel finds NVIDIA's libraries (every build) ----------------


def _fake_nvidia_tree(root, layout):
    for directory, names in layout.items():
        path = root / "nvidia" / directory / "lib"
        path.mkdir(parents=True)
        for name in names:
            (path / name).write_bytes(b"")


def test_loader_looks_in_the_wheel_layout_of_each_cuda_line(tmp_path, monkeypatch):
    _fake_nvidia_tree(tmp_path, {"cu13": [], "cublas": [], "cuda_runtime": []})
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    assert _cuda_loader._nvidia_dirs("13") == [str(tmp_path / "nvidia" / "cu13" / "lib")]
    assert _cuda_loader._nvidia_dirs("12") == [str(tmp_path / "nvidia" / "cublas" / "lib"),
                                               str(tmp_path / "nvidia" / "cuda_runtime" / "lib")]


def test_loader_preloads_cublaslt_before_cublas(tmp_path, monkeypatch):
    _fake_nvidia_tree(tmp_path, {"cu13": ["libcublas.so.13", "libcublasLt.so.13", "libcudart.so.13"]})
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    monkeypatch.delenv("CUDA_HOME", raising=False)
    loaded = []
    monkeypatch.setattr(_cuda_loader.ctypes, "CDLL", lambda path, mode=0: loaded.append(os.path.basename(path)))
    _cuda_loader._preload_nvidia_libraries("13.0")
    assert loaded == ["libcudart.so.13", "libcublasLt.so.13", "libcublas.so.13"]


def test_loader_does_nothing_for_a_cpu_build():
    assert _cuda_loader.load(None) is False


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


def test_loader_names_the_missing_runtime_wheels(tmp_path, monkeypatch):
    broken = tmp_path / "libtorch_cuda.so"
    broken.write_bytes(b"not a library")
    monkeypatch.setattr(_cuda_loader, "_LIBRARY", str(broken))
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    with pytest.raises(ImportError, match="built for CUDA 13.0.*nvidia-cuda-runtime, nvidia-cublas"):
        _cuda_loader.load("13.0")
