// addcmul, addcdiv and lerp: argument checks and type promotion here, the
// loops in cpu/PointwiseOpsKernel.cpp. Each comes as functional, in-place and
// out=, with PyTorch's rules: addcmul/addcdiv promote their three tensors to
// one dtype; lerp wants self, end and a non-0-d weight of one floating dtype.
#include <ATen/ATen.h>
#include <ATen/native/PointwiseOps.h>

namespace at::native {

DEFINE_DISPATCH(addcmul_stub);
DEFINE_DISPATCH(addcdiv_stub);
DEFINE_DISPATCH(lerp_scalar_stub);
DEFINE_DISPATCH(lerp_tensor_stub);

namespace {

// `out` undefined: allocate; `inplace`: out is `inputs[0]` and keeps its shape.
TensorIterator pointwise_iter(const Tensor& out, std::initializer_list<const Tensor*> inputs, bool inplace) {
  TensorIteratorConfig config;
  config.add_output(out);
  for (const Tensor* t : inputs) config.add_input(*t);
  return config.promote_inputs_to_common_dtype(true).resize_outputs(!inplace).build();
}

template <typename Stub>
Tensor addc_impl(const Stub& stub, const Tensor& out, const Tensor& self, const Tensor& t1, const Tensor& t2,
                 const Scalar& value, bool inplace) {
  auto iter = pointwise_iter(out, {&self, &t1, &t2}, inplace);
  stub(iter.device().type, iter, value);
  iter.finish();
  return iter.output();
}

void check_addcdiv(const Tensor& t1, const Tensor& t2) {
  TORCH_CHECK(!(c10::isIntegralType(t1.scalar_type(), true) && c10::isIntegralType(t2.scalar_type(), true)),
              "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform "
              "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
              "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
              "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter "
              "implementation: (input + value * tensor1 / tensor2), for all dtypes.");
}

void check_lerp_dtype(const Tensor& self, const Tensor& other, const char* name) {
  TORCH_CHECK(self.scalar_type() == other.scalar_type(), "expected dtype ", c10::cppTypeName(self.scalar_type()),
              " for `", name, "` but got dtype ", c10::cppTypeName(other.scalar_type()));
}

Tensor lerp_scalar_impl(const Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight, bool inplace) {
  check_lerp_dtype(self, end, "end");
  auto iter = pointwise_iter(out, {&self, &end}, inplace);
  lerp_scalar_stub(iter.device().type, iter, weight);
  iter.finish();
  return iter.output();
}

// A 0-d weight is taken as a number, whatever its dtype, as PyTorch does
// (lerp(x, y, torch.tensor(0.3, dtype=torch.float64)) on float32 tensors).
Tensor lerp_tensor_impl(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight, bool inplace) {
  check_lerp_dtype(self, end, "end");
  if (weight.dim() == 0) return lerp_scalar_impl(out, self, end, at::_local_scalar_dense(weight), inplace);
  check_lerp_dtype(self, weight, "weight");
  // With a tensor weight, out= must have the inputs' dtype exactly (PyTorch
  // casts into it only with a number weight).
  TORCH_CHECK(inplace || !out.defined() || out.scalar_type() == self.scalar_type(), "Found dtype ", out.scalar_type(),
              " but expected ", self.scalar_type());
  auto iter = pointwise_iter(out, {&self, &end, &weight}, inplace);
  lerp_tensor_stub(iter.device().type, iter);
  iter.finish();
  return iter.output();
}

}  // namespace

Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  return addc_impl(addcmul_stub, Tensor(), self, t1, t2, value, false);
}
const Tensor& addcmul_(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  addc_impl(addcmul_stub, self, self, t1, t2, value, true);
  return self;
}
const Tensor& addcmul_out(const Tensor& out, const Tensor& self, const Tensor& t1, const Tensor& t2,
                          const Scalar& value) {
  addc_impl(addcmul_stub, out, self, t1, t2, value, false);
  return out;
}

Tensor addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  check_addcdiv(t1, t2);
  return addc_impl(addcdiv_stub, Tensor(), self, t1, t2, value, false);
}
const Tensor& addcdiv_(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  check_addcdiv(t1, t2);
  addc_impl(addcdiv_stub, self, self, t1, t2, value, true);
  return self;
}
const Tensor& addcdiv_out(const Tensor& out, const Tensor& self, const Tensor& t1, const Tensor& t2,
                          const Scalar& value) {
  check_addcdiv(t1, t2);
  addc_impl(addcdiv_stub, out, self, t1, t2, value, false);
  return out;
}

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  return lerp_scalar_impl(Tensor(), self, end, weight, false);
}
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  return lerp_tensor_impl(Tensor(), self, end, weight, false);
}
const Tensor& lerp_(const Tensor& self, const Tensor& end, const Scalar& weight) {
  lerp_scalar_impl(self, self, end, weight, true);
  return self;
}
const Tensor& lerp_(const Tensor& self, const Tensor& end, const Tensor& weight) {
  lerp_tensor_impl(self, self, end, weight, true);
  return self;
}
const Tensor& lerp_out(const Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight) {
  lerp_scalar_impl(out, self, end, weight, false);
  return out;
}
const Tensor& lerp_out(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight) {
  lerp_tensor_impl(out, self, end, weight, false);
  return out;
}

}  // namespace at::native
