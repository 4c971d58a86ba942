// Matrix products: shape and dtype checks, and how matmul, mm, mv, addmm,
// addmv, baddbmm, addbmm, dot and linear reduce to one batched kernel (bmm_stub). Each follows PyTorch's
// order of checks and its decomposition, so errors, result dtypes and the
// backward nodes (MvBackward0, SqueezeBackward4, ...) come out as PyTorch's.
#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/ScalarOps.h>
#include <ATen/TypePromotion.h>
#include <ATen/autograd/Variable.h>
#include <ATen/native/Lapack.h>
#include <ATen/native/LinearAlgebra.h>

#include <climits>
#include <functional>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(bmm_stub);

namespace {

void check_same_device(const char* op, const Tensor& a, const Tensor& b) {
  TORCH_CHECK(a.device() == b.device(), op, ": expected all tensors to be on the same device, but found ",
              a.device().str(), " and ", b.device().str());
}

void check_mm(const Tensor& a, const Tensor& b) {
  TORCH_CHECK(a.dim() == 2, "self must be a matrix");
  TORCH_CHECK(b.dim() == 2, "mat2 must be a matrix");
  TORCH_CHECK(a.size(1) == b.size(0), "mat1 and mat2 shapes cannot be multiplied (", a.size(0), "x", a.size(1),
              " and ", b.size(0), "x", b.size(1), ")");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "expected m1 and m2 to have the same dtype, but got: ",
              c10::cppTypeName(a.scalar_type()), " != ", c10::cppTypeName(b.scalar_type()));
  check_same_device("mm", a, b);
}

// The kernels have no bool product; one with nothing to multiply is answered
// before that check, as in PyTorch.
void check_not_bool(const char* kernel, const Tensor& a) {
  TORCH_CHECK_NOT_IMPLEMENTED(a.scalar_type() != ScalarType::Bool, "\"", kernel, "\" not implemented for 'Bool'");
}

// out (contiguous, [B, m, n]) = alpha * a @ b + beta * out, for a product
// with a non-empty inner dimension.
void run_bmm(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha, const Scalar& beta) {
  if (out.numel() == 0) return;
  bmm_stub(out.device().type, out, a, b, alpha, beta);
}

// A contiguous result tensor: `out` itself when it already is one of the
// right shape and dtype, else a new one to copy into `out` afterwards.
Tensor result_for(const Tensor& out, IntArrayRef shape, ScalarType dtype, Device device) {
  if (out.defined()) {
    TORCH_CHECK(out.scalar_type() == dtype, "Expected out tensor to have dtype ", c10::cppTypeName(dtype),
                ", but got ", c10::cppTypeName(out.scalar_type()), " instead");
    if (!out.sizes().equals(shape)) out.resize_(shape);
    if (out.is_contiguous()) return out;
  }
  return at::empty(shape, dtype, device);
}

const Tensor& finish(const Tensor& out, const Tensor& result) {
  if (out.defined() && !out.is_same(result)) out.copy_(result);
  return out.defined() ? out : result;
}

Tensor mm_impl(const Tensor& out, const Tensor& a, const Tensor& b) {
  check_mm(a, b);
  Tensor result = result_for(out, {a.size(0), b.size(1)}, a.scalar_type(), a.device());
  if (result.numel() == 0) return finish(out, result);
  if (a.size(1) == 0) {
    result.zero_();
    return finish(out, result);
  }
  check_not_bool("addmm_impl_cpu_", a);
  run_bmm(result.unsqueeze(0), a.unsqueeze(0), b.unsqueeze(0), 1, 0);
  return finish(out, result);
}

// bmm's result takes batch2's dtype (PyTorch's meta function); mixed dtypes
// fail only when there is something to multiply, where PyTorch's kernel for
// small products dispatches on batch1's dtype (a bool batch1 is then
// NotImplementedError) and the larger path reads batch2 as batch1's type.
Tensor bmm_impl(const Tensor& out, const Tensor& a, const Tensor& b) {
  TORCH_CHECK(a.dim() == 3, "batch1 must be a 3D tensor");
  TORCH_CHECK(b.dim() == 3, "batch2 must be a 3D tensor");
  TORCH_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1),
              "Expected size for first two dimensions of batch2 tensor to be: [", a.size(0), ", ", a.size(2),
              "] but got: [", b.size(0), ", ", b.size(1), "].");
  check_same_device("bmm", a, b);
  Tensor result = result_for(out, {a.size(0), a.size(1), b.size(2)}, b.scalar_type(), b.device());
  if (result.numel() == 0) return finish(out, result);
  if (a.size(2) == 0) {
    result.zero_();
    return finish(out, result);
  }
  const bool small = a.size(1) * a.size(2) * b.size(2) < 400;
  if (a.scalar_type() != b.scalar_type()) {
    if (small) check_not_bool("bmm", a);
    TORCH_CHECK(false, "expected scalar type ", small ? a.scalar_type() : b.scalar_type(), " but found ",
                small ? b.scalar_type() : a.scalar_type());
  }
  check_not_bool(small ? "bmm" : "addmm_impl_cpu_", a);
  run_bmm(result, a, b, 1, 0);
  return finish(out, result);
}

Tensor addmm_impl(const Tensor& out, const Tensor& self, const Tensor& a, const Tensor& b, const Scalar& beta,
                  const Scalar& alpha) {
  TORCH_CHECK(self.scalar_type() == b.scalar_type(), "self and mat2 must have the same dtype, but got ",
              self.scalar_type(), " and ", b.scalar_type());
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "mat1 and mat2 must have the same dtype, but got ",
              a.scalar_type(), " and ", b.scalar_type());
  TORCH_CHECK(a.dim() == 2, "mat1 must be a matrix, got ", a.dim(), "-D tensor");
  TORCH_CHECK(b.dim() == 2, "mat2 must be a matrix, got ", b.dim(), "-D tensor");
  TORCH_CHECK(a.size(1) == b.size(0), "mat1 and mat2 shapes cannot be multiplied (", a.size(0), "x", a.size(1),
              " and ", b.size(0), "x", b.size(1), ")");
  check_same_device("addmm", a, b);
  const std::vector<int64_t> shape = {a.size(0), b.size(1)};
  Tensor result = result_for(out, shape, a.scalar_type(), a.device());
  // `self` is broadcast to the result even where beta == 0 ignores its values.
  const Tensor self_expanded = self.expand(shape);
  if (result.numel() == 0) return finish(out, result);
  if (a.size(1) == 0) {  // nothing to multiply: only the beta term is left
    if (beta.toDouble() == 0) {
      result.zero_();
    } else {
      if (!result.is_same(self)) result.copy_(self_expanded);
      result.mul_(wrapped_scalar_tensor(beta));  // an integer result and a float beta: PyTorch's cast error
    }
    return finish(out, result);
  }
  check_not_bool("addmm_impl_cpu_", a);
  // beta == 0 ignores self (nan included), as in PyTorch.
  const bool use_self = beta.toDouble() != 0;
  if (use_self && !result.is_same(self)) result.copy_(self_expanded);
  run_bmm(result.unsqueeze(0), a.unsqueeze(0), b.unsqueeze(0), alpha, use_self ? beta : Scalar(0));
  return finish(out, result);
}

// matmul folds the batch of its larger operand into the rows of one matrix
// product where that needs no copy, or where the smaller operand requires
// grad (its gradient is then one mm, not a bmm and a sum): PyTorch's should_fold.
bool should_fold(const Tensor& t1, const Tensor& t2) {
  const bool t1_larger = t1.dim() >= t2.dim();
  const Tensor larger = t1_larger ? t1 : t2.transpose(-2, -1);
  const int64_t dim_larger = larger.dim(), dim_smaller = t1_larger ? t2.dim() : t1.dim();
  if (!(dim_larger >= 3 && dim_smaller <= 2)) return false;
  if (autograd::requires_grad(t1_larger ? t2 : t1)) return true;
  if (t1.dim() == 2) return false;  // mm on the transposed operand would need a copy back
  if (larger.numel() == 0) return true;
  const auto sizes = larger.sizes();
  const auto strides = larger.strides();
  for (int64_t i = 0; i < dim_larger - 2; ++i) {
    if (strides[i] != strides[i + 1] * sizes[i + 1]) return false;
  }
  return true;
}

Tensor folded_matmul(const Tensor& tensor1, const Tensor& tensor2) {
  const bool transpose = tensor2.dim() > tensor1.dim();
  const Tensor t1 = transpose ? tensor2.transpose(-2, -1) : tensor1;
  const Tensor t2 = !transpose ? tensor2 : (tensor1.dim() == 2 ? tensor1.t() : tensor1);
  std::vector<int64_t> output_shape(t1.sizes().begin(), t1.sizes().end() - 1);
  int64_t rows = 1;  // not numel / size(-1): the inner size may be 0
  for (int64_t s : output_shape) rows *= s;
  const Tensor t1_folded = t1.reshape({rows, t1.size(-1)});
  if (t2.dim() == 2) {
    output_shape.push_back(t2.size(1));
    const Tensor output = at::_unsafe_view(t1_folded.mm(t2), output_shape);
    return transpose ? output.transpose(-2, -1).contiguous() : output;
  }
  return at::_unsafe_view(t1_folded.mv(t2), output_shape);
}

Tensor batched_matmul(const Tensor& tensor1, const Tensor& tensor2) {
  const int64_t dim1 = tensor1.dim(), dim2 = tensor2.dim();
  const int64_t n = dim1 > 1 ? tensor1.size(-2) : 1, m1 = tensor1.size(-1);
  const int64_t m2 = dim2 > 1 ? tensor2.size(-2) : tensor2.size(0), p = dim2 > 1 ? tensor2.size(-1) : 1;
  const std::vector<int64_t> batch1(tensor1.sizes().begin(), tensor1.sizes().begin() + std::max<int64_t>(dim1 - 2, 0));
  const std::vector<int64_t> batch2(tensor2.sizes().begin(), tensor2.sizes().begin() + std::max<int64_t>(dim2 - 2, 0));
  const std::vector<int64_t> batch = at::infer_size(batch1, batch2);
  int64_t nbatch = 1;
  for (int64_t s : batch) nbatch *= s;
  std::vector<int64_t> shape1 = batch;
  shape1.insert(shape1.end(), {n, m1});
  const Tensor a = tensor1.expand(shape1).reshape({nbatch, n, m1});
  std::vector<int64_t> shape2 = batch;
  if (dim2 == 1) shape2.push_back(m2);
  else shape2.insert(shape2.end(), {m2, p});
  Tensor b = tensor2.expand(shape2);
  b = dim2 == 1 ? b.reshape({nbatch, m2}).unsqueeze(2) : b.reshape({nbatch, m2, p});
  std::vector<int64_t> output_shape = batch;
  if (dim1 > 1) output_shape.push_back(n);
  if (dim2 > 1) output_shape.push_back(p);
  const Tensor product = a.bmm(b);
  return at::_unsafe_view(dim2 == 1 ? product.squeeze(-1) : product, output_shape);
}

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) { return mm_impl(Tensor(), self, mat2); }
const Tensor& mm_out(const Tensor& out, const Tensor& self, const Tensor& mat2) {
  mm_impl(out, self, mat2);
  return out;
}

Tensor bmm(const Tensor& self, const Tensor& mat2) { return bmm_impl(Tensor(), self, mat2); }
const Tensor& bmm_out(const Tensor& out, const Tensor& self, const Tensor& mat2) {
  bmm_impl(out, self, mat2);
  return out;
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  return addmm_impl(Tensor(), self, mat1, mat2, beta, alpha);
}
const Tensor& addmm_out(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                        const Scalar& beta, const Scalar& alpha) {
  addmm_impl(out, self, mat1, mat2, beta, alpha);
  return out;
}

// PyTorch's mv is addmv into a result of vec's dtype: the check names the
// three dtypes in that order (result, mat, vec).
Tensor mv(const Tensor& self, const Tensor& vec) {
  TORCH_CHECK(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got 1, ", self.dim(), ", ",
              vec.dim());
  TORCH_CHECK(self.size(1) == vec.size(0), "size mismatch, got input (", self.size(0), "), mat (", self.size(0), "x",
              self.size(1), "), vec (", vec.size(0), ")");
  TORCH_CHECK(self.scalar_type() == vec.scalar_type(), "addmv input tensors must have the same dtype, but got ",
              vec.scalar_type(), ", ", self.scalar_type(), ", and ", vec.scalar_type());
  check_same_device("mv", self, vec);
  Tensor result = at::empty({self.size(0)}, vec.scalar_type(), vec.device());
  if (result.numel() == 0) return result;
  if (self.size(1) == 0) return result.zero_();
  check_not_bool("addmv_impl_cpu", self);
  run_bmm(result.view({1, -1, 1}), self.unsqueeze(0), vec.view({1, -1, 1}), 1, 0);
  return result;
}

Tensor dot(const Tensor& self, const Tensor& tensor) {
  TORCH_CHECK(self.dim() == 1 && tensor.dim() == 1, "1D tensors expected, but got ", self.dim(), "D and ",
              tensor.dim(), "D tensors");
  TORCH_CHECK(self.scalar_type() == tensor.scalar_type(), "dot : expected both vectors to have same dtype, but found ",
              self.scalar_type(), " and ", tensor.scalar_type());
  TORCH_CHECK(self.size(0) == tensor.size(0), "inconsistent tensor size, expected tensor [", self.size(0),
              "] and src [", tensor.size(0), "] to have the same number of elements, but got ", self.size(0),
              " and ", tensor.size(0), " elements respectively");
  TORCH_CHECK_NOT_IMPLEMENTED(self.scalar_type() != ScalarType::Bool, "\"dot\" not implemented for 'Bool'");
  const int64_t n = self.size(0);
  const bool blas = self.device().is_cpu() && tensor.device().is_cpu() && n > 0 && n <= INT_MAX &&
                    self.stride(0) >= 1 && tensor.stride(0) >= 1 && self.stride(0) <= INT_MAX &&
                    tensor.stride(0) <= INT_MAX &&
                    (self.scalar_type() == kFloat || self.scalar_type() == kDouble);
  if (blas) {  // BLAS's dot, as PyTorch's: a 1 x n by n x 1 product is ten times slower
    return AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "dot", [&] {
      const scalar_t value = lapack::dot(static_cast<int>(n), self.data_ptr<scalar_t>(),
                                         static_cast<int>(self.stride(0)), tensor.data_ptr<scalar_t>(),
                                         static_cast<int>(tensor.stride(0)));
      return scalar_tensor_of(value, self.scalar_type());
    });
  }
  return at::mm(self.unsqueeze(0), tensor.unsqueeze(1)).view(IntArrayRef{});
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  TORCH_CHECK(self.dim() == 1 && vec2.dim() == 1, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  return self.unsqueeze(1).mul(vec2.unsqueeze(0));
}

namespace {

// PyTorch's check of addr's beta and alpha against the result dtype.
void check_addr_scalar(ScalarType dtype, const Scalar& scalar, const char* name) {
  TORCH_CHECK(!scalar.isBoolean() || dtype == ScalarType::Bool, "Boolean ", name, " only supported for Boolean results.");
  TORCH_CHECK(isFloatingType(dtype) || isComplexType(dtype) || scalar.isIntegral(/*includeBool=*/true),
              "For integral input tensors, argument ", name, " must not be a floating point number.");
}

// beta * self + alpha * outer(vec1, vec2) as PyTorch's addr kernel computes
// it: self's values (NaN included) ignored where beta is 0, and for bool
// (beta and self) or (alpha and vec1 and vec2). One pass through addcmul,
// whose loop reads vec1 once per row.
Tensor addr_result(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta,
                   const Scalar& alpha) {
  TORCH_CHECK(vec1.dim() == 1, "addr: Expected 1-D argument vec1, but got ", vec1.dim(), "-D");
  TORCH_CHECK(vec2.dim() == 1, "addr: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  const ScalarType dtype = c10::promoteTypes(c10::promoteTypes(self.scalar_type(), vec1.scalar_type()), vec2.scalar_type());
  check_addr_scalar(dtype, beta, "beta");
  check_addr_scalar(dtype, alpha, "alpha");
  if (!isComplexType(dtype)) {  // PyTorch's kernel converts both to the result's dtype
    check_scalar_fits(beta, dtype);
    check_scalar_fits(alpha, dtype);
  }
  const Tensor base = self.expand({vec1.size(0), vec2.size(0)}).to(dtype);
  const Tensor col = vec1.to(dtype).unsqueeze(1), row = vec2.to(dtype);
  if (dtype == ScalarType::Bool) {
    const Tensor product = alpha.toBool() ? col.logical_and(row) : at::zeros(base.sizes(), dtype, base.device());
    return beta.toBool() ? product.logical_or(base) : product.expand(base.sizes()).contiguous();
  }
  if (!beta.toBool()) return col.mul(wrapped_scalar_tensor(alpha)).mul(row);
  return at::addcmul(beta.toDouble() == 1.0 ? base : base.mul(wrapped_scalar_tensor(beta)), col, row, alpha);
}

// The checks of an in-place or out= result, as PyTorch's iterator makes them.
void check_addr_into(const Tensor& into, const Tensor& result, bool inplace) {
  TORCH_CHECK(!inplace || into.sizes() == result.sizes(), "output with shape ", into.sizes(),
              " doesn't match the broadcast shape ", result.sizes());
  TORCH_CHECK(canCast(result.scalar_type(), into.scalar_type()), "result type ", result.scalar_type(),
              " can't be cast to the desired output type ", into.scalar_type());
}

}  // namespace

Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta, const Scalar& alpha) {
  return addr_result(self, vec1, vec2, beta, alpha);
}

const Tensor& addr_(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta,
                    const Scalar& alpha) {
  const Tensor result = addr_result(self, vec1, vec2, beta, alpha);
  check_addr_into(self, result, /*inplace=*/true);
  self.copy_(result);
  return self;
}

const Tensor& addr_out(const Tensor& out, const Tensor& self, const Tensor& vec1, const Tensor& vec2,
                       const Scalar& beta, const Scalar& alpha) {
  const Tensor result = addr_result(self, vec1, vec2, beta, alpha);
  check_addr_into(out, result, /*inplace=*/false);
  out.resize_(result.sizes());
  out.copy_(result);
  return out;
}

namespace {

// beta * self + alpha * product into a contiguous result of `shape`: `self`
// expanded to it (its values, NaN included, ignored where beta is 0), and
// the product written by bmm_stub through `as_batches`, the result's
// [B, m, n] view. With sum_batches the B products of a and b add into one
// [m, n] result, PyTorch's addbmm loop of addmm_ calls. The caller checked
// shapes and that a, b and the result share a dtype.
Tensor scaled_product(const Tensor& out, const Tensor& self, IntArrayRef shape, const Tensor& a, const Tensor& b,
                      const Scalar& beta, const Scalar& alpha, bool sum_batches, const char* kernel,
                      const std::function<Tensor(const Tensor&)>& as_batches) {
  Tensor result = result_for(out, shape, a.scalar_type(), a.device());
  const Tensor self_expanded = self.expand(shape);
  if (result.numel() == 0) return finish(out, result);
  const bool use_self = beta.toDouble() != 0;
  if (a.size(2) == 0 || a.size(0) == 0) {  // nothing to multiply: only the beta term is left
    if (!use_self) {
      result.zero_();
    } else {
      if (!result.is_same(self)) result.copy_(self_expanded);
      result.mul_(wrapped_scalar_tensor(beta));
    }
    return finish(out, result);
  }
  check_not_bool(kernel, a);
  if (use_self && !result.is_same(self)) result.copy_(self_expanded);
  const Tensor batches = as_batches(result);
  if (!sum_batches) {
    run_bmm(batches, a, b, alpha, use_self ? beta : Scalar(0));
    return finish(out, result);
  }
  const Scalar first_beta = use_self ? beta : Scalar(0);
  for (int64_t i = 0; i < a.size(0); ++i) {  // the first product takes beta, the rest accumulate
    run_bmm(batches, a.narrow(0, i, 1), b.narrow(0, i, 1), alpha, i == 0 ? first_beta : Scalar(1));
  }
  return finish(out, result);
}

void check_inplace_shape(const Tensor& self, IntArrayRef shape) {
  TORCH_CHECK(self.sizes().equals(shape), "Bad in-place call: input tensor size ", self.sizes(),
              " and output tensor size ", shape, " should match");
}

// PyTorch's addmv meta checks; the result takes vec's dtype.
std::vector<int64_t> addmv_shape(const Tensor& self, const Tensor& mat, const Tensor& vec) {
  TORCH_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1, "vector + matrix @ vector expected, got ",
              self.dim(), ", ", mat.dim(), ", ", vec.dim());
  TORCH_CHECK(mat.size(1) == vec.size(0) && (mat.size(0) == self.numel() || self.numel() == 1),
              "size mismatch, got input (", self.dim() == 0 ? 1 : self.size(0), "), mat (", mat.size(0), "x",
              mat.size(1), "), vec (", vec.size(0), ")");
  TORCH_CHECK(self.scalar_type() == mat.scalar_type() && mat.scalar_type() == vec.scalar_type(),
              "addmv input tensors must have the same dtype, but got ", self.scalar_type(), ", ", mat.scalar_type(),
              ", and ", vec.scalar_type());
  check_same_device("addmv", mat, vec);
  check_same_device("addmv", self, mat);
  return {mat.size(0)};
}

Tensor addmv_impl(const Tensor& out, const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                  const Scalar& alpha) {
  const std::vector<int64_t> shape = addmv_shape(self, mat, vec);
  return scaled_product(out, self, shape, mat.unsqueeze(0), vec.view({1, -1, 1}), beta, alpha, false,
                        "addmv_impl_cpu", [](const Tensor& r) { return r.view({1, -1, 1}); });
}

// The checks of baddbmm and addbmm's batches (PyTorch's messages differ).
void check_batches(const Tensor& batch1, const Tensor& batch2) {
  TORCH_CHECK(batch1.dim() == 3, "batch1 must be a 3D tensor");
  TORCH_CHECK(batch2.dim() == 3, "batch2 must be a 3D tensor");
  check_same_device("bmm", batch1, batch2);
}

// PyTorch sizes the result (an IndexError for a batch of too few dims) and
// expands self to it before it checks the batches.
Tensor baddbmm_impl(const Tensor& out, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                    const Scalar& beta, const Scalar& alpha) {
  const std::vector<int64_t> shape = {batch1.size(0), batch1.size(1), batch2.size(2)};
  const Tensor self_expanded = self.expand(shape);
  check_batches(batch1, batch2);
  TORCH_CHECK(self.scalar_type() == batch1.scalar_type(), "Input dtypes must be the same, got: input ",
              c10::cppTypeName(self.scalar_type()), ", batch1: ", c10::cppTypeName(batch1.scalar_type()), ", batch2: ",
              c10::cppTypeName(batch2.scalar_type()));
  TORCH_CHECK(batch2.size(0) == batch1.size(0) && batch2.size(1) == batch1.size(2),
              "Expected size for first two dimensions of batch2 tensor to be: [", batch1.size(0), ", ",
              batch1.size(2), "] but got: [", batch2.size(0), ", ", batch2.size(1), "].");
  // PyTorch's CPU kernel refuses bool after the sizes, before it compares batch2's dtype (addbmm goes
  // through addmm's checks instead).
  TORCH_CHECK_NOT_IMPLEMENTED(self.scalar_type() != ScalarType::Bool || !self.is_cpu(),
                              "\"baddbmm\" not implemented for 'Bool'");
  TORCH_CHECK(batch1.scalar_type() == batch2.scalar_type(), "expected scalar type ", batch1.scalar_type(),
              " but found ", batch2.scalar_type());
  return scaled_product(out, self, shape, batch1, batch2, beta, alpha, false, "baddbmm",
                        [](const Tensor& r) { return r; });
}

Tensor addbmm_impl(const Tensor& out, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                   const Scalar& beta, const Scalar& alpha) {
  const std::vector<int64_t> shape = {batch1.size(1), batch2.size(2)};
  const Tensor self_expanded = self.expand(shape);
  check_batches(batch1, batch2);
  TORCH_CHECK(batch1.size(0) == batch2.size(0), "batch1 and batch2 must have same number of batches, got ",
              batch1.size(0), " and ", batch2.size(0));
  TORCH_CHECK(batch1.size(2) == batch2.size(1), "Incompatible matrix sizes for bmm (", batch1.size(1), "x",
              batch1.size(2), " and ", batch2.size(1), "x", batch2.size(2), ")");
  TORCH_CHECK(self.scalar_type() == batch2.scalar_type(), "self and mat2 must have the same dtype, but got ",
              self.scalar_type(), " and ", batch2.scalar_type());
  TORCH_CHECK(batch1.scalar_type() == batch2.scalar_type(), "mat1 and mat2 must have the same dtype, but got ",
              batch1.scalar_type(), " and ", batch2.scalar_type());
  return scaled_product(out, self, shape, batch1, batch2, beta, alpha, true, "addmm_impl_cpu_",
                        [](const Tensor& r) { return r.unsqueeze(0); });
}

}  // namespace

Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  return addmv_impl(Tensor(), self, mat, vec, beta, alpha);
}
const Tensor& addmv_(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                     const Scalar& alpha) {
  if (mat.dim() == 2) check_inplace_shape(self, {mat.size(0)});
  addmv_impl(self, self, mat, vec, beta, alpha);
  return self;
}
const Tensor& addmv_out(const Tensor& out, const Tensor& self, const Tensor& mat, const Tensor& vec,
                        const Scalar& beta, const Scalar& alpha) {
  addmv_impl(out, self, mat, vec, beta, alpha);
  return out;
}

Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  return baddbmm_impl(Tensor(), self, batch1, batch2, beta, alpha);
}
const Tensor& baddbmm_(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                       const Scalar& alpha) {
  const std::vector<int64_t> shape = {batch1.size(0), batch1.size(1), batch2.size(2)};
  (void)self.expand(shape);  // PyTorch's first errors: a batch of too few dims, a self that does not broadcast
  check_inplace_shape(self, shape);
  baddbmm_impl(self, self, batch1, batch2, beta, alpha);
  return self;
}
const Tensor& baddbmm_out(const Tensor& out, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                          const Scalar& beta, const Scalar& alpha) {
  baddbmm_impl(out, self, batch1, batch2, beta, alpha);
  return out;
}

Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
              const Scalar& alpha) {
  return addbmm_impl(Tensor(), self, batch1, batch2, beta, alpha);
}
// PyTorch's addbmm_ resizes a self that only broadcasts to the result.
const Tensor& addbmm_(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                      const Scalar& alpha) {
  const bool fits = self.sizes().equals({batch1.size(1), batch2.size(2)});
  if (fits) {
    addbmm_impl(self, self, batch1, batch2, beta, alpha);
    return self;
  }
  const Tensor result = addbmm_impl(Tensor(), self, batch1, batch2, beta, alpha);
  self.resize_(result.sizes());
  self.copy_(result);
  return self;
}
const Tensor& addbmm_out(const Tensor& out, const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                         const Scalar& beta, const Scalar& alpha) {
  addbmm_impl(out, self, batch1, batch2, beta, alpha);
  return out;
}

// PyTorch's _matmul_impl: dot, mv, mm with an in-place squeeze, mm, a folded
// mm or mv, or a broadcast bmm, by the operands' dims.
Tensor matmul(const Tensor& self, const Tensor& other) {
  const int64_t da = self.dim(), db = other.dim();
  TORCH_CHECK(da > 0 && db > 0, "both arguments to matmul need to be at least 1D, but they are ", da, "D and ", db,
              "D");
  if (da == 1 && db == 1) return at::dot(self, other);
  if (da == 2 && db == 1) return at::mv(self, other);
  if (da == 1 && db == 2) {
    Tensor result = at::mm(self.unsqueeze(0), other);
    result.squeeze_(0);
    return result;
  }
  if (da == 2 && db == 2) return at::mm(self, other);
  if (should_fold(self, other)) return folded_matmul(self, other);
  // 3-D @ 3-D where one batch is 1 and broadcasts: a size-1 batch that
  // requires grad is squeezed away (its gradient is then one mm, no sum).
  if (da == 3 && db == 3 && self.size(0) != other.size(0)) {
    if (self.size(0) == 1 && autograd::requires_grad(self)) return at::matmul(self.squeeze(0), other);
    if (other.size(0) == 1 && autograd::requires_grad(other)) return at::matmul(self, other.squeeze(0));
  }
  return batched_matmul(self, other);
}

// PyTorch's linear: addmm for a 2-D input with a bias; with a bias that is
// (or squeezes to) a contiguous vector and a contiguous input, one addmm on
// the input's rows; else matmul, and the bias added in place.
Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt) {
  TORCH_CHECK(input.dim() != 0 && weight.dim() != 0, "both arguments to linear need to be at least 1D, but they are ",
              input.dim(), "D and ", weight.dim(), "D");
  const bool has_bias = bias_opt && bias_opt->defined();
  if (input.dim() == 2 && has_bias) return at::addmm(*bias_opt, input, weight.t());
  if (has_bias) {
    const Tensor& bias = *bias_opt;
    const bool fusable = (bias.dim() == 1 || bias.squeeze().dim() == 1) && bias.is_contiguous();
    if (fusable && input.is_contiguous()) {
      int64_t rows = 1;
      for (int64_t d = 0; d + 1 < input.dim(); ++d) rows *= input.size(d);
      const Tensor result = at::addmm(bias, input.reshape({rows, input.size(-1)}), weight.t());
      std::vector<int64_t> shape(input.sizes().begin(), input.sizes().end() - 1);
      shape.push_back(result.size(1));
      return result.view(shape);
    }
  }
  Tensor output = at::matmul(input, weight.t());
  if (has_bias) output.add_(*bias_opt);
  return output;
}

}  // namespace at::native
