// Matrix products: shape and dtype checks, and how matmul, mm, addmm, dot,
// outer and linear reduce to one batched kernel (bmm_stub).
#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/native/LinearAlgebra.h>

#include <vector>

namespace at::native {

DEFINE_DISPATCH(bmm_stub);

namespace {

void check_same_dtype_and_device(const char* op, const Tensor& a, const Tensor& b) {
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "expected m1 and m2 to have the same dtype, but got: ",
              c10::cppTypeName(a.scalar_type()), " != ", c10::cppTypeName(b.scalar_type()));
  TORCH_CHECK(a.device() == b.device(), op, ": expected all tensors to be on the same device, but found ",
              a.device().str(), " and ", b.device().str());
}

void check_mm(const Tensor& a, const Tensor& b) {
  TORCH_CHECK(a.dim() == 2, "self must be a matrix");
  TORCH_CHECK(b.dim() == 2, "mat2 must be a matrix");
  TORCH_CHECK(a.size(1) == b.size(0), "mat1 and mat2 shapes cannot be multiplied (", a.size(0), "x", a.size(1),
              " and ", b.size(0), "x", b.size(1), ")");
  check_same_dtype_and_device("mm", a, b);
}

// The kernels have no bool product; an empty one (nothing to multiply) is
// answered before that check, as in PyTorch. After the out= dtype check.
void check_not_bool(const char* kernel, const Tensor& a, const Tensor& result) {
  TORCH_CHECK_NOT_IMPLEMENTED(a.scalar_type() != ScalarType::Bool || a.size(-1) == 0 || result.numel() == 0, "\"",
                              kernel, "\" not implemented for 'Bool'");
}

void check_bmm(const Tensor& a, const Tensor& b) {
  TORCH_CHECK(a.dim() == 3, "batch1 must be a 3D tensor");
  TORCH_CHECK(b.dim() == 3, "batch2 must be a 3D tensor");
  TORCH_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1),
              "Expected size for first two dimensions of batch2 tensor to be: [", a.size(0), ", ", a.size(2),
              "] but got: [", b.size(0), ", ", b.size(1), "].");
  check_same_dtype_and_device("bmm", a, b);
}

// out (contiguous, [B, m, n]) = alpha * a @ b + beta * out.
void run_bmm(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha, const Scalar& beta) {
  if (out.numel() == 0) return;
  if (a.size(2) == 0) {  // empty inner dimension: only the beta term is left
    if (beta.toDouble() == 0) out.zero_();
    else out.mul_(at::scalar_tensor(beta, out.scalar_type()));
    return;
  }
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
  check_not_bool("addmm_impl_cpu_", a, result);
  run_bmm(result.unsqueeze(0), a.unsqueeze(0), b.unsqueeze(0), 1, 0);
  return finish(out, result);
}

Tensor bmm_impl(const Tensor& out, const Tensor& a, const Tensor& b) {
  check_bmm(a, b);
  Tensor result = result_for(out, {a.size(0), a.size(1), b.size(2)}, a.scalar_type(), a.device());
  check_not_bool("bmm", a, result);
  run_bmm(result, a, b, 1, 0);
  return finish(out, result);
}

Tensor addmm_impl(const Tensor& out, const Tensor& self, const Tensor& a, const Tensor& b, const Scalar& beta,
                  const Scalar& alpha) {
  check_mm(a, b);
  TORCH_CHECK(self.scalar_type() == a.scalar_type(), "self and mat2 must have the same dtype, but got ",
              self.scalar_type(), " and ", a.scalar_type());
  const std::vector<int64_t> shape = {a.size(0), b.size(1)};
  Tensor result = result_for(out, shape, a.scalar_type(), a.device());
  check_not_bool("addmm_impl_cpu_", a, result);
  // `self` broadcasts to the result; beta == 0 ignores it (nan included), as in PyTorch.
  const bool use_self = beta.toDouble() != 0;
  if (use_self) {
    TORCH_CHECK(at::infer_size(self.sizes(), shape) == shape, "The expanded size of the tensor (", self.sizes(),
                ") must match the existing size (", IntArrayRef(shape), ")");
    if (!result.is_same(self)) result.copy_(self.expand(shape));
  }
  run_bmm(result.unsqueeze(0), a.unsqueeze(0), b.unsqueeze(0), alpha, use_self ? beta : Scalar(0));
  return finish(out, result);
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

Tensor dot(const Tensor& self, const Tensor& tensor) {
  TORCH_CHECK(self.dim() == 1 && tensor.dim() == 1, "1D tensors expected, but got ", self.dim(), "D and ",
              tensor.dim(), "D tensors");
  TORCH_CHECK(self.scalar_type() == tensor.scalar_type(), "dot : expected both vectors to have same dtype, but found ",
              self.scalar_type(), " and ", tensor.scalar_type());
  TORCH_CHECK(self.size(0) == tensor.size(0), "inconsistent tensor size, expected tensor [", self.size(0),
              "] and src [", tensor.size(0), "] to have the same number of elements, but got ", self.size(0),
              " and ", tensor.size(0), " elements respectively");
  TORCH_CHECK_NOT_IMPLEMENTED(self.scalar_type() != ScalarType::Bool, "\"dot\" not implemented for 'Bool'");
  return at::mm(self.unsqueeze(0), tensor.unsqueeze(1)).view({});
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  TORCH_CHECK(self.dim() == 1 && vec2.dim() == 1, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  return self.unsqueeze(1).mul(vec2.unsqueeze(0));
}

Tensor matmul(const Tensor& self, const Tensor& other) {
  const int64_t da = self.dim(), db = other.dim();
  TORCH_CHECK(da > 0 && db > 0, "both arguments to matmul need to be at least 1D, but they are ", da, "D and ", db,
              "D");
  if (da == 1 && db == 1) return at::dot(self, other);
  if (da == 2 && db == 1) return at::mm(self, other.unsqueeze(1)).squeeze(1);
  if (da == 1 && db == 2) return at::mm(self.unsqueeze(0), other).squeeze(0);
  if (da == 2 && db == 2) return at::mm(self, other);
  if (da >= 3 && db <= 2) {
    // Fold the batch into the rows: one matrix product instead of many.
    const Tensor rhs = db == 1 ? other.unsqueeze(1) : other;
    std::vector<int64_t> out_shape(self.sizes().begin(), self.sizes().end() - 1);
    if (db == 2) out_shape.push_back(other.size(1));
    TORCH_CHECK(self.size(-1) == rhs.size(0), "mat1 and mat2 shapes cannot be multiplied (",
                self.numel() / std::max<int64_t>(self.size(-1), 1), "x", self.size(-1), " and ", rhs.size(0), "x",
                rhs.size(1), ")");
    int64_t rows = 1;  // not numel / size(-1): the inner size may be 0
    for (int64_t d = 0; d + 1 < da; ++d) rows *= self.size(d);
    return at::_unsafe_view(at::mm(self.reshape({rows, self.size(-1)}), rhs), out_shape);
  }
  // Batched: broadcast the batch dims, then bmm.
  const Tensor a = da == 1 ? self.unsqueeze(0) : self;
  const Tensor b = db == 1 ? other.unsqueeze(-1) : other;
  const int64_t n = a.size(-2), m = a.size(-1), m2 = b.size(-2), p = b.size(-1);
  TORCH_CHECK(m == m2, "Expected size for first two dimensions of batch2 tensor to be: [", m, ", ", p,
              "] but got: [", m2, ", ", p, "].");
  const std::vector<int64_t> batch_a(a.sizes().begin(), a.sizes().end() - 2);
  const std::vector<int64_t> batch_b(b.sizes().begin(), b.sizes().end() - 2);
  std::vector<int64_t> batch = at::infer_size(batch_a, batch_b);
  int64_t nbatch = 1;
  for (int64_t s : batch) nbatch *= s;
  std::vector<int64_t> a_shape = batch, b_shape = batch;
  a_shape.insert(a_shape.end(), {n, m});
  b_shape.insert(b_shape.end(), {m, p});
  const Tensor a3 = a.expand(a_shape).reshape({nbatch, n, m});
  const Tensor b3 = b.expand(b_shape).reshape({nbatch, m, p});
  std::vector<int64_t> out_shape = batch;
  if (da > 1) out_shape.push_back(n);
  if (db > 1) out_shape.push_back(p);
  return at::_unsafe_view(at::bmm(a3, b3), out_shape);
}

Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  TORCH_CHECK(weight.dim() == 2 || weight.dim() == 1, "linear: weight must be 1-D or 2-D, got ", weight.dim(), "-D");
  if (input.dim() == 2 && weight.dim() == 2 && bias && bias->defined()) {
    return at::addmm(*bias, input, weight.t());
  }
  Tensor out = at::matmul(input, weight.t());
  if (bias && bias->defined()) out = out.add(*bias);
  return out;
}

}  // namespace at::native
