"""torch.utils.cpp_extension and torch.ops against the installed wheel: a C++
library compiled here (JIT, and with setuptools' BuildExtension) registers
operators with TORCH_LIBRARY and Python calls them. Each test would fail if
registration, the boxed call, argument conversion, error translation or the
build helpers broke. Compiles with the machine's C++ compiler (marked build)."""
import os
import subprocess
import sys
import sysconfig
import textwrap

import pytest
import torch
from torch.utils import cpp_extension

pytestmark = [pytest.mark.build,
              pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="extensions build against the Linux wheels only (tests/test_platform.py "
                                        "checks the refusal elsewhere)")]
# The suite runs once per wheel: unoptimised builds compile faster.
FAST = ["-O0"]

OPS_SOURCE = r"""
#include <torch/extension.h>

// A kernel for CPU only: what it computes is not recorded by autograd.
at::Tensor scale_add_cpu(const at::Tensor& x, const at::Tensor& y, double alpha) {
  TORCH_CHECK(x.sizes() == y.sizes(), "scale_add: x and y differ in shape: ", x.sizes(), " vs ", y.sizes());
  at::Tensor xc = x.contiguous(), yc = y.contiguous(), out = at::empty_like(xc);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale_add", [&] {
    const scalar_t *a = xc.data_ptr<scalar_t>(), *b = yc.data_ptr<scalar_t>();
    scalar_t* o = out.data_ptr<scalar_t>();
    for (int64_t i = 0; i < xc.numel(); ++i) o[i] = a[i] + static_cast<scalar_t>(alpha) * b[i];
  });
  return out;
}

// Made of other ops (CompositeImplicitAutograd): differentiable through them.
std::tuple<at::Tensor, at::Tensor> split_scale(const at::Tensor& x, double s, int64_t shift, bool negate,
                                               std::optional<at::Tensor> extra) {
  at::Tensor a = x * s + shift;
  if (extra) a = a + *extra;
  return {negate ? -a : a, x.relu()};
}

int64_t describe(std::vector<at::Tensor> tensors, at::IntArrayRef sizes, std::string_view tag) {
  TORCH_CHECK_VALUE(tag != "bad", "describe: tag may not be 'bad'");
  return static_cast<int64_t>(tensors.size() * 1000 + sizes.size() * 10 + tag.size());
}

at::Tensor only_on_cuda(const at::Tensor& x) { return x; }

TORCH_LIBRARY(TORCH_EXTENSION_NAME, m) {
  m.def("scale_add(Tensor x, Tensor y, float alpha=1.0) -> Tensor");
  m.def("split_scale(Tensor x, float s=2.0, int shift=0, *, bool negate=False, Tensor? extra=None) -> (Tensor, Tensor)",
        &split_scale);
  m.def("describe", &describe);
  m.def("scale(Tensor x, Scalar s) -> Tensor", [](const at::Tensor& x, const at::Scalar& s) { return x * s; });
  m.def(TORCH_SELECTIVE_SCHEMA("only_on_cuda(Tensor x) -> Tensor"));  // the selective-build spellings
}
TORCH_LIBRARY_IMPL(TORCH_EXTENSION_NAME, CPU, m) { m.impl(TORCH_SELECTIVE_NAME("scale_add"), TORCH_FN(scale_add_cpu)); }
TORCH_LIBRARY_IMPL(TORCH_EXTENSION_NAME, CUDA, m) { m.impl("only_on_cuda", &only_on_cuda); }
"""

BAD_REGISTRATIONS = r"""
#include <torch/extension.h>
TORCH_LIBRARY(TORCH_EXTENSION_NAME, m) {
  m.def("fine(Tensor x) -> Tensor", [](const at::Tensor& x) { return x + 1; });
}
TORCH_LIBRARY_FRAGMENT(TORCH_EXTENSION_NAME, m) { m.def("typo(Tensr x) -> Tensor"); }
TORCH_LIBRARY_FRAGMENT(TORCH_EXTENSION_NAME, m) {
  m.def("mismatch(Tensor x) -> Tensor", [](int64_t k) { return k; });
}
"""
# In a second file of the same library: the namespace claimed again.
CLAIMED_TWICE = r"""
#include <torch/extension.h>
TORCH_LIBRARY(TORCH_EXTENSION_NAME, m) { m.def("twice(Tensor x) -> Tensor"); }
"""


@pytest.fixture(scope="module")
def ext_dir(tmp_path_factory):
    old = os.environ.get("TORCH_EXTENSIONS_DIR")
    path = tmp_path_factory.mktemp("torch_extensions")
    os.environ["TORCH_EXTENSIONS_DIR"] = str(path)
    yield path
    if old is None:
        del os.environ["TORCH_EXTENSIONS_DIR"]
    else:
        os.environ["TORCH_EXTENSIONS_DIR"] = old


@pytest.fixture(scope="module")
def ops(ext_dir, tmp_path_factory):
    src = tmp_path_factory.mktemp("src") / "ops.cpp"
    src.write_text(OPS_SOURCE)
    return cpp_extension.load("test_ext_ops", [str(src)], extra_cflags=FAST)


def test_device_kernel_values_defaults_and_keywords(ops):
    x, y = torch.randn(3, 4), torch.randn(3, 4)
    assert torch.allclose(ops.scale_add(x, y), x + y)
    assert torch.allclose(torch.ops.test_ext_ops.scale_add(x, y, alpha=0.5), x + 0.5 * y)
    assert torch.allclose(ops.scale_add(x.t(), y.t(), 2), x.t() + 2 * y.t())  # non-contiguous, int as float
    assert str(ops.scale_add._schema) == "test_ext_ops::scale_add(Tensor x, Tensor y, float alpha=1.0) -> Tensor"


def test_composite_kernel_tuple_optional_and_autograd(ops):
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    a, r = ops.split_scale(x, 3.0, 1, negate=True, extra=torch.ones(2))
    assert torch.equal(a, -(x * 3 + 1 + 1)) and torch.equal(r, x.relu())
    (a.sum() + r.sum()).backward()  # recorded by the ops it is made of
    assert torch.equal(x.grad, torch.tensor([-3.0, -2.0]))
    a2, _ = ops.split_scale(x)
    assert torch.equal(a2, x * 2)


def test_lists_strings_scalars_and_inferred_schema(ops):
    assert ops.describe([torch.zeros(1)] * 3, [4, 5], "ab") == 3022
    assert ops.describe((), torch.Size([2]), "") == 10
    assert str(ops.describe._schema) == "test_ext_ops::describe(Tensor[] _0, int[] _1, str _2) -> int"
    assert torch.equal(ops.scale(torch.ones(2, dtype=torch.int32), 3), torch.full((2,), 3, dtype=torch.int32))
    assert ops.scale(torch.ones(2, dtype=torch.int32), 2.5).dtype == torch.float32


def test_errors_arrive_as_python_exceptions(ops):
    with pytest.raises(RuntimeError, match=r"scale_add: x and y differ in shape: \[2\] vs \[3\]"):
        ops.scale_add(torch.zeros(2), torch.zeros(3))
    with pytest.raises(ValueError, match="tag may not be 'bad'"):
        ops.describe([], [], "bad")
    with pytest.raises(TypeError, match="argument 'y' must be Tensor, not float"):
        ops.scale_add(torch.zeros(2), 1.5)
    with pytest.raises(TypeError, match="argument '_1' must be int\\[\\], not str"):
        ops.describe([], "12", "x")
    with pytest.raises(TypeError, match="takes 3 positional arguments but 4 were given"):
        ops.scale_add(torch.zeros(1), torch.zeros(1), 1.0, 2.0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'beta'"):
        ops.scale_add(torch.zeros(1), torch.zeros(1), beta=1.0)
    with pytest.raises(TypeError, match="missing required argument 'y'"):
        ops.scale_add(torch.zeros(1))
    with pytest.raises(TypeError, match="argument 'negate' must be bool, not int"):
        ops.split_scale(torch.zeros(1), negate=1)
    with pytest.raises(RuntimeError, match="Overflow"):
        ops.split_scale(torch.zeros(1), 1.0, 2**70)


def test_device_kernel_output_refuses_a_gradient(ops):
    x = torch.randn(2, requires_grad=True)
    out = ops.scale_add(x, torch.ones(2))
    assert out.requires_grad and out.grad_fn is not None
    with pytest.raises(NotImplementedError, match="the derivative for 'test_ext_ops::scale_add' is not implemented"):
        out.sum().backward()
    with torch.no_grad():
        assert ops.scale_add(x, torch.ones(2)).grad_fn is None


def test_missing_backend_kernel_names_what_exists(ops):
    with pytest.raises(NotImplementedError, match=r"Could not run 'test_ext_ops::only_on_cuda' with arguments from "
                       r"the 'CPU' backend.*only available for these backends: \[CUDA\]"):
        ops.only_on_cuda(torch.zeros(1))


def test_torch_ops_namespace_lookup(ops):
    assert "scale_add" in dir(torch.ops.test_ext_ops)
    with pytest.raises(AttributeError, match="has no attribute 'nope'.*was its library loaded"):
        torch.ops.test_ext_ops.nope
    assert torch.ops.aten.add(torch.ones(1), torch.ones(1)).item() == 2
    with pytest.raises(OSError, match="no such file"):
        torch.ops.load_library("/nonexistent/libnothing.so")


def test_failed_registrations_raise_and_the_rest_works(ext_dir, tmp_path):
    (tmp_path / "bad.cpp").write_text(BAD_REGISTRATIONS)
    (tmp_path / "twice.cpp").write_text(CLAIMED_TWICE)
    with pytest.raises(RuntimeError) as info:
        cpp_extension.load("test_ext_bad", [str(tmp_path / "bad.cpp"), str(tmp_path / "twice.cpp")], extra_cflags=FAST)
    message = str(info.value)
    assert "unknown type 'Tensr'" in message
    assert "takes (int) and returns (int), but its schema says (Tensor) -> (Tensor)" in message
    assert "Only a single TORCH_LIBRARY can be used to register the namespace test_ext_bad" in message
    assert torch.equal(torch.ops.test_ext_bad.fine(torch.zeros(1)), torch.ones(1))


def test_load_inline_caches_and_versions(ext_dir):
    source = "at::Tensor plus(const at::Tensor& x, int64_t k) { return x + k; }"
    first = cpp_extension.load_inline("test_ext_inline", source, functions=["plus"], extra_cflags=FAST)
    assert torch.equal(first.plus(torch.zeros(2), 3), torch.full((2,), 3.0))
    assert cpp_extension.load_inline("test_ext_inline", source, functions=["plus"], extra_cflags=FAST) is first
    library = first.__file__
    mtime = os.path.getmtime(library)
    changed = cpp_extension.load_inline("test_ext_inline", source.replace("x + k", "x - k"), functions="plus",
                                        extra_cflags=FAST)
    assert changed.__name__ == "test_ext_inline_v1"  # a namespace cannot be unloaded: a new one
    assert torch.equal(changed.plus(torch.zeros(1), 3), torch.full((1,), -3.0))
    assert os.path.getmtime(library) == mtime


PARALLEL_SOURCE = r"""
#include <ATen/Parallel.h>

#include <chrono>
#include <mutex>
#include <set>
#include <thread>

at::Tensor square_all(const at::Tensor& x) {
  at::Tensor c = x.contiguous(), out = at::empty_like(c);
  const float* in = c.data_ptr<float>();
  float* o = out.data_ptr<float>();
  at::parallel_for(0, c.numel(), 1024, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) o[i] = in[i] * in[i];
  });
  return out;
}

int64_t threads_used(int64_t n) {
  std::mutex m;
  std::set<std::thread::id> ids;
  at::parallel_for(0, n, 1, [&](int64_t, int64_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard<std::mutex> lock(m);
    ids.insert(std::this_thread::get_id());
  });
  return static_cast<int64_t>(ids.size());
}
"""


def test_parallel_for_in_an_extension_without_openmp_flags(ext_dir):
    """parallel_for compiled into an extension (no -fopenmp) runs its chunks on torch's threads."""
    m = cpp_extension.load_inline("test_ext_parallel", PARALLEL_SOURCE, functions=["square_all", "threads_used"],
                                  extra_cflags=FAST)
    x = torch.randn(100_000)
    assert torch.equal(m.square_all(x), x * x)
    assert m.threads_used(64) == min(torch.get_num_threads(), 64)


def test_load_builds_a_pybind11_module(ext_dir, tmp_path):
    """A source with PYBIND11_MODULE is a Python module for this Python: load() imports it."""
    src = tmp_path / "pb.cpp"
    src.write_text("#include <torch/extension.h>\n"
                   "torch::Tensor twice(const torch::Tensor& x) { return x * 2; }\n"
                   "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def(\"twice\", &twice, \"2x\"); }\n")
    module = cpp_extension.load("test_ext_pybind", [str(src)], extra_cflags=FAST)
    assert torch.equal(module.twice(torch.ones(2)), torch.full((2,), 2.0))
    assert module.__file__.endswith(".so") and sys.modules["test_ext_pybind"] is module
    with pytest.raises(ValueError, match="must be a C identifier"):
        cpp_extension.load_inline("not-a-name", "")


def test_paths_and_extension_settings():
    (include,) = cpp_extension.include_paths()
    assert os.path.exists(os.path.join(include, "torch", "extension.h"))
    assert os.path.exists(os.path.join(include, "torch", "library.h"))
    (lib,) = cpp_extension.library_paths()
    assert os.path.exists(os.path.join(lib, "libtorch_cpu.so"))
    ext = cpp_extension.CppExtension("pkg._C", ["a.cpp"], py_limited_api=True)
    assert ext.language == "c++" and include in ext.include_dirs and lib in ext.library_dirs
    assert {"c10", "torch_cpu"} <= set(ext.libraries)
    assert (("Py_LIMITED_API", "0x03090000") in ext.define_macros) != bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    flags = cpp_extension.common_cxx_flags()
    assert "-std=c++17" in flags and f"-D_GLIBCXX_USE_CXX11_ABI={torch._C._GLIBCXX_USE_CXX11_ABI}" in flags


def test_cuda_arch_flags():
    assert cpp_extension.cuda_arch_flags("8.0;9.0+PTX") == [
        "-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=sm_90",
        "-gencode=arch=compute_90,code=compute_90"]
    with pytest.raises(ValueError, match="unknown architecture 'sm_80'"):
        cpp_extension.cuda_arch_flags("sm_80")


@pytest.mark.skipif(torch.version.cuda is not None, reason="a CPU build of torch")
def test_cuda_extension_needs_a_cuda_torch():
    with pytest.raises(RuntimeError, match="needs a CUDA build of torch"):
        cpp_extension.CUDAExtension("pkg._C", ["k.cu"])


def test_build_extension_with_setuptools(tmp_path):
    """A package's setup.py with CppExtension + BuildExtension (dict extra_compile_args), built in place."""
    pytest.importorskip("setuptools")
    (tmp_path / "ops.cpp").write_text(textwrap.dedent("""
        #include <torch/extension.h>
        #ifndef FROM_CXX_ARGS
        #error the "cxx" entry of extra_compile_args was not used
        #endif
        at::Tensor twice(const at::Tensor& x) { return x * 2; }
        TORCH_LIBRARY(test_ext_setuptools, m) { m.def("twice", &twice); }
    """))
    (tmp_path / "setup.py").write_text(textwrap.dedent("""
        from setuptools import setup
        from torch.utils.cpp_extension import BuildExtension, CppExtension
        setup(name="t", ext_modules=[CppExtension("t_ops", ["ops.cpp"], py_limited_api=True,
                                                  extra_compile_args={"cxx": ["-DFROM_CXX_ARGS", "-O0", "-g0"]})],
              cmdclass={"build_ext": BuildExtension})
    """))
    proc = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (library,) = tmp_path.glob("t_ops*.so")
    # One stable-ABI library, except on a free-threaded Python, which has no stable ABI.
    free_threaded = sysconfig.get_config_var("Py_GIL_DISABLED")
    assert (library.name == "t_ops.abi3.so") != bool(free_threaded), library.name
    torch.ops.load_library(str(library))
    assert torch.equal(torch.ops.test_ext_setuptools.twice(torch.ones(2)), torch.full((2,), 2.0))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_load_inline_cuda_kernel(ext_dir):
    """A CUDA kernel compiled by nvcc (CUDA_HOME) for this torch's architectures, registered for CUDA."""
    if cpp_extension.CUDA_HOME is None:
        pytest.skip("no CUDA toolkit (nvcc) on this machine")
    cuda_source = r"""
        __global__ void square_kernel(const float* x, float* out, int64_t n) {
          int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
          if (i < n) out[i] = x[i] * x[i];
        }
        at::Tensor square_cuda(const at::Tensor& x) {
          TORCH_CHECK(x.scalar_type() == at::ScalarType::Float, "square: float32 only");
          at::Tensor xc = x.contiguous(), out = at::empty_like(xc);
          const int64_t n = xc.numel();
          if (n) square_kernel<<<(n + 255) / 256, 256>>>(xc.data_ptr<float>(), out.data_ptr<float>(), n);
          return out;
        }
        TORCH_LIBRARY(TORCH_EXTENSION_NAME, m) { m.def("square(Tensor x) -> Tensor"); }
        TORCH_LIBRARY_IMPL(TORCH_EXTENSION_NAME, CUDA, m) { m.impl("square", &square_cuda); }
    """
    module = cpp_extension.load_inline("test_ext_cuda", cpp_sources="", cuda_sources=cuda_source)
    x = torch.randn(1000, device="cuda")
    assert torch.equal(module.square(x).cpu(), (x * x).cpu())
    with pytest.raises(NotImplementedError, match="only available for these backends: \\[CUDA\\]"):
        module.square(torch.ones(2))


def test_set_python_module_imports_the_fake_kernels(ext_dir, tmp_path, monkeypatch):
    """m.impl_abstract_pystub (now set_python_module) names the module whose import registers
    the namespace's fake kernels: torch.library imports it when a fake kernel is needed."""
    (tmp_path / "pystub_fakes.py").write_text(
        "import torch\n\n@torch.library.register_fake('test_ext_pystub::twice')\n"
        "def _(x):\n    return torch.empty_like(x)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    source = r"""
        at::Tensor twice(const at::Tensor& x) { return x * 2; }
        TORCH_LIBRARY(test_ext_pystub, m) {
          m.impl_abstract_pystub("pystub_fakes");
          m.def("twice(Tensor x) -> Tensor");
        }
        TORCH_LIBRARY_IMPL(test_ext_pystub, CPU, m) { m.impl("twice", &twice); }
    """
    cpp_extension.load_inline("test_ext_pystub", source, extra_cflags=FAST)
    assert "pystub_fakes" not in sys.modules
    report = torch.library.opcheck(torch.ops.test_ext_pystub.twice.default, (torch.ones(2),))
    assert report["test_faketensor"] == "SUCCESS" and "pystub_fakes" in sys.modules
