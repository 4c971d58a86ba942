"""PyTorch's C++ spellings against the installed wheel: torch::Tensor and the
torch:: functions, TensorOptions, at::_ops, the pybind11 form of
load_inline, and the clear #error of the C++ frontend headers this build
leaves out. Each source is compiled once per session (load_inline's cache)."""
import os
import subprocess
import sys

import pytest
import torch
from torch.utils import cpp_extension

pytestmark = [pytest.mark.build,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="extensions build on Linux only")]

SOURCE = r"""
#include <torch/extension.h>
#include <ATen/Operators.h>
#include <torch/torch.h>

// torch:: factories with TensorOptions, requires_grad included.
torch::Tensor leaf(std::vector<int64_t> shape) {
  return torch::ones(shape, torch::dtype(torch::kFloat64).requires_grad(true));
}

// at::empty(size, x.options()) keeps x's dtype; at::zeros(size, at::kInt) the dtype overload.
std::vector<torch::Tensor> like(torch::Tensor x) {
  return {at::empty(x.sizes(), x.options()).fill_(1), at::zeros({2}, at::kInt),
          torch::arange(0, 6, 2, torch::TensorOptions().dtype(torch::kInt64)), torch::zeros_like(x)};
}

// Reductions with PyTorch's argument spellings; a dim given as a literal.
std::vector<torch::Tensor> reduce(torch::Tensor x) {
  return {x.sum(0, true), x.sum({0, 1}), x.mean(/*dim=*/1), torch::sum(x)};
}

// Operators: comparisons, compound assignment, scalars on either side.
torch::Tensor arith(torch::Tensor x, torch::Scalar alpha) {
  auto y = x.clone();
  y *= 2;
  y += x;
  auto mask = (alpha * (y - 1)) > 0;
  return mask.type_as(x) + (x <= 0).to(torch::kFloat32) * 10;
}

// at::_ops: the operator structs, with their names.
std::tuple<torch::Tensor, std::string> ops(torch::Tensor a, torch::Tensor b) {
  return {at::_ops::add_Tensor::call(a, b, 2), std::string(at::_ops::add_Tensor::schema_str)};
}

// Accessors of PyTorch's Tensor API.
std::vector<int64_t> facts(torch::Tensor x) {
  return {x.ndimension(), x.get_device(), x.requires_grad(), x.is_leaf(), (int64_t)x.item<double>(),
          x.dtype() == torch::kFloat32, (int64_t)torch::cuda::is_available()};
}

torch::Tensor elu(torch::Tensor x) { return torch::elu(x, 0.5); }

// Scoped grad modes: nothing recorded under NoGradGuard.
std::vector<bool> grad_modes(torch::Tensor x) {
  bool recorded_inside;
  {
    torch::NoGradGuard no_grad;
    recorded_inside = (x * 2).requires_grad();
  }
  return {recorded_inside, (x * 2).requires_grad()};
}

// Accessors: a[i][j] over strides (a transposed view here), and a packed one by value.
torch::Tensor accessors(torch::Tensor x) {
  auto a = x.accessor<float, 2>();
  auto out = torch::zeros({a.size(0), a.size(1)});
  auto o = out.packed_accessor32<float, 2, torch::RestrictPtrTraits>();
  for (int64_t i = 0; i < a.size(0); ++i)
    for (int64_t j = 0; j < a.size(1); ++j) o[i][j] = a[i][j] * 10 + static_cast<float>(j);
  return out;
}

void wrong_accessor(torch::Tensor x) { x.accessor<float, 3>(); }

// The older spellings PyTorch's tutorial still uses: x.type() in AT_DISPATCH_*,
// packed_accessor<T, N, PtrTraits, index_t>().
double older_spellings(torch::Tensor x) {
  TORCH_CHECK(!x.type().is_cuda(), "a CPU tensor");
  double total = 0;
  AT_DISPATCH_FLOATING_TYPES(x.type(), "older_spellings", ([&] {
    auto a = x.packed_accessor<scalar_t, 1, torch::RestrictPtrTraits, size_t>();
    for (size_t i = 0; i < a.size(0); ++i) total += static_cast<double>(a[i]);
  }));
  return total;
}

// Errors reach Python as torch's own bindings raise them.
void check_positive(int64_t x) {
  TORCH_CHECK_VALUE(x > 0, "x must be positive, got ", x);
  TORCH_CHECK_INDEX(x < 10, "x out of range: ", x);
  TORCH_CHECK(x != 5, "five is refused");
}

torch::Tensor maybe(c10::optional<torch::Tensor> x) { return x ? *x * 2 : torch::Tensor(); }
"""

FUNCTIONS = ["leaf", "like", "reduce", "arith", "ops", "facts", "elu", "maybe", "accessors", "wrong_accessor",
             "check_positive", "older_spellings", "grad_modes"]


@pytest.fixture(scope="module")
def ext(tmp_path_factory):
    os.environ["TORCH_EXTENSIONS_DIR"] = str(tmp_path_factory.mktemp("torch_extensions"))
    return cpp_extension.load_inline("cpp_api_ext", SOURCE, functions=FUNCTIONS, extra_cflags=["-O0"])


def test_load_inline_binds_with_pybind11(ext):
    assert ext.__name__ == "cpp_api_ext"
    assert ext.leaf.__doc__.startswith("leaf(")  # pybind11's signature line, then the docstring
    with pytest.raises(TypeError, match="incompatible function arguments"):
        ext.leaf("not a shape")


def test_factories_and_options(ext):
    t = ext.leaf([2, 3])
    assert t.shape == (2, 3) and t.dtype == torch.float64 and t.requires_grad and t.is_leaf
    x = torch.randn(3, 2, dtype=torch.float64)
    ones, zeros_int, arange, zeros_like = ext.like(x)
    assert ones.dtype == torch.float64 and ones.shape == (3, 2) and bool((ones == 1).all())
    assert zeros_int.dtype == torch.int32 and zeros_int.tolist() == [0, 0]
    assert arange.tolist() == [0, 2, 4] and arange.dtype == torch.int64
    assert zeros_like.dtype == torch.float64 and zeros_like.shape == (3, 2)


def test_reductions(ext):
    x = torch.arange(6.0).reshape(2, 3)
    keep, both, mean1, total = ext.reduce(x)
    torch.testing.assert_close(keep, x.sum(0, keepdim=True))
    torch.testing.assert_close(both, x.sum((0, 1)))
    torch.testing.assert_close(mean1, x.mean(1))
    torch.testing.assert_close(total, x.sum())


def test_operators(ext):
    x = torch.tensor([-1.0, 0.0, 0.5, 2.0])
    y = 3 * x
    expected = ((2.0 * (y - 1)) > 0).float() + (x <= 0).float() * 10
    torch.testing.assert_close(ext.arith(x, 2.0), expected)
    torch.testing.assert_close(ext.arith(x, -1), ((-1 * (y - 1)) > 0).float() + (x <= 0).float() * 10)


def test_at_ops_structs(ext):
    a, b = torch.ones(2), torch.full((2,), 3.0)
    result, schema = ext.ops(a, b)
    torch.testing.assert_close(result, a + 2 * b)
    assert schema == "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"


def test_tensor_accessors(ext):
    assert ext.facts(torch.tensor(7.0)) == [0, -1, 0, 1, 7, 1, int(torch.cuda.is_available())]
    assert ext.facts(torch.tensor(2.0, dtype=torch.float64, requires_grad=True))[2:6] == [1, 1, 2, 0]


def test_elu_matches_the_functional_form(ext):
    x = torch.linspace(-3, 3, 12, dtype=torch.float64, requires_grad=True)  # not 0: a kink
    torch.testing.assert_close(ext.elu(x), torch.nn.functional.elu(x, 0.5))
    assert torch.autograd.gradcheck(ext.elu, (x,))


def test_optional_and_undefined_tensors(ext):
    assert ext.maybe(None) is None
    torch.testing.assert_close(ext.maybe(torch.ones(2)), torch.full((2,), 2.0))


@pytest.mark.parametrize("header, names", [("torch/nn.h", "torch::nn"), ("torch/optim.h", "torch::optim"),
                                           ("torch/script.h", "torch::jit")])
def test_left_out_frontend_headers_stop_with_a_clear_error(tmp_path, header, names):
    src = tmp_path / "uses.cpp"
    src.write_text(f"#include <{header}>\nint main() {{ return 0; }}\n")
    include = cpp_extension.include_paths()[0]
    proc = subprocess.run([os.environ.get("CXX", "c++"), "-std=c++17", "-fsyntax-only", f"-I{include}", str(src)],
                          capture_output=True, text=True)
    assert proc.returncode != 0
    errors = [line for line in proc.stderr.splitlines() if ": error:" in line]
    assert len(errors) == 1 and f"<{header}>" in errors[0] and names in errors[0], proc.stderr


def test_accessors(ext):
    x = torch.arange(6.0).reshape(3, 2).t()
    torch.testing.assert_close(ext.accessors(x), x * 10 + torch.arange(3.0))
    with pytest.raises(RuntimeError, match="expected 3 dims but tensor has 2"):
        ext.wrong_accessor(x)
    with pytest.raises(RuntimeError, match="expected scalar type"):
        ext.accessors(x.double())


def test_errors_keep_their_python_exception(ext):
    with pytest.raises(ValueError, match="x must be positive, got -1"):
        ext.check_positive(-1)
    with pytest.raises(IndexError, match="x out of range: 12"):
        ext.check_positive(12)
    with pytest.raises(RuntimeError, match="five is refused"):
        ext.check_positive(5)
    ext.check_positive(3)


def test_older_spellings(ext):
    assert ext.older_spellings(torch.arange(5.0)) == 10.0
    assert ext.older_spellings(torch.arange(5.0, dtype=torch.float64)[::2]) == 6.0
    with pytest.raises(NotImplementedError, match="\"older_spellings\" not implemented for 'Long'"):
        ext.older_spellings(torch.arange(5))


def test_no_grad_guard(ext):
    assert ext.grad_modes(torch.ones(2, requires_grad=True)) == [False, True]
