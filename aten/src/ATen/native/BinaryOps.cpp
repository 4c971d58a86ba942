// Binary pointwise ops: argument checks and type promotion here, the loops
// in cpu/BinaryOpsKernel.cpp. Each op comes as functional, in-place and out=.
#include <ATen/ATen.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/BinaryOps.h>

#include <string_view>

namespace at::native {

DEFINE_DISPATCH(add_stub);
DEFINE_DISPATCH(mul_stub);
DEFINE_DISPATCH(div_true_stub);
DEFINE_DISPATCH(div_trunc_stub);
DEFINE_DISPATCH(div_floor_stub);
DEFINE_DISPATCH(pow_stub);

namespace {

enum class Promote { Common, IntegerToFloat };

// `out` undefined: allocate; `inplace`: out is `a` and may not change shape.
TensorIterator binary_iter(const Tensor& out, const Tensor& a, const Tensor& b, Promote promote, bool inplace) {
  return TensorIteratorConfig()
      .add_output(out)
      .add_input(a)
      .add_input(b)
      .promote_inputs_to_common_dtype(true)
      .promote_integer_inputs_to_float(promote == Promote::IntegerToFloat)
      .resize_outputs(!inplace)
      .build();
}

template <typename Stub, typename... Extra>
Tensor run_binary(const Stub& stub, const Tensor& out, const Tensor& a, const Tensor& b, Promote promote,
                  bool inplace, const Extra&... extra) {
  auto iter = binary_iter(out, a, b, promote, inplace);
  stub(iter.device().type, iter, extra...);
  iter.finish();
  return iter.output();
}

void check_alpha(ScalarType dtype, const Scalar& alpha) {
  TORCH_CHECK(!alpha.isBoolean() || dtype == ScalarType::Bool, "Boolean alpha only supported for Boolean results.");
  TORCH_CHECK(c10::isFloatingType(dtype) || alpha.isIntegral(true),
              "For integral input tensors, argument alpha must not be a floating point number.");
}

void check_sub(const Tensor& a, const Tensor& b) {
  TORCH_CHECK(a.scalar_type() != ScalarType::Bool || b.scalar_type() != ScalarType::Bool,
              "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
              "`logical_xor()` operator instead.");
  TORCH_CHECK(a.scalar_type() != ScalarType::Bool && b.scalar_type() != ScalarType::Bool,
              "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a "
              "mask, use the `~` or `logical_not()` operator instead.");
}

Tensor add_impl(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha, bool inplace) {
  auto iter = binary_iter(out, a, b, Promote::Common, inplace);
  check_alpha(iter.common_dtype(), alpha);
  add_stub(iter.device().type, iter, alpha);
  iter.finish();
  return iter.output();
}


}  // namespace

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return add_impl(Tensor(), self, other, alpha, false);
}
const Tensor& add_(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  add_impl(self, self, other, alpha, true);
  return self;
}
const Tensor& add_out(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  add_impl(out, self, other, alpha, false);
  return out;
}

Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other);
  return add_impl(Tensor(), self, other, -alpha, false);
}
const Tensor& sub_(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other);
  add_impl(self, self, other, -alpha, true);
  return self;
}
const Tensor& sub_out(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other);
  add_impl(out, self, other, -alpha, false);
  return out;
}

Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha) { return at::sub(other, self, alpha); }

Tensor mul(const Tensor& self, const Tensor& other) {
  return run_binary(mul_stub, Tensor(), self, other, Promote::Common, false);
}
const Tensor& mul_(const Tensor& self, const Tensor& other) {
  run_binary(mul_stub, self, self, other, Promote::Common, true);
  return self;
}
const Tensor& mul_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  run_binary(mul_stub, out, self, other, Promote::Common, false);
  return out;
}

namespace {

// True division lifts integers to float; "trunc" and "floor" keep the dtype.
Tensor div_impl(const Tensor& out, const Tensor& a, const Tensor& b, std::optional<std::string_view> mode,
                bool inplace) {
  if (!mode) return run_binary(div_true_stub, out, a, b, Promote::IntegerToFloat, inplace);
  if (*mode == "trunc") return run_binary(div_trunc_stub, out, a, b, Promote::Common, inplace);
  if (*mode == "floor") return run_binary(div_floor_stub, out, a, b, Promote::Common, inplace);
  TORCH_CHECK(false, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode, "'");
}

}  // namespace

Tensor div(const Tensor& self, const Tensor& other) { return div_impl(Tensor(), self, other, std::nullopt, false); }
const Tensor& div_(const Tensor& self, const Tensor& other) {
  div_impl(self, self, other, std::nullopt, true);
  return self;
}
const Tensor& div_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  div_impl(out, self, other, std::nullopt, false);
  return out;
}
Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  return div_impl(Tensor(), self, other, rounding_mode, false);
}
const Tensor& div_(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode) {
  div_impl(self, self, other, rounding_mode, true);
  return self;
}
const Tensor& div_out(const Tensor& out, const Tensor& self, const Tensor& other,
                      std::optional<std::string_view> rounding_mode) {
  div_impl(out, self, other, rounding_mode, false);
  return out;
}

namespace {

Tensor pow_impl(const Tensor& out, const Tensor& base, const Tensor& exp, bool inplace) {
  auto iter = binary_iter(out, base, exp, Promote::Common, inplace);
  if (c10::isIntegralType(iter.common_dtype(), true) && exp.dim() == 0) {
    // PyTorch rejects a negative integer exponent of an integer base outright.
    TORCH_CHECK(at::item(exp).toDouble() >= 0 || exp.is_floating_point(),
                "Integers to negative integer powers are not allowed.");
  }
  pow_stub(iter.device().type, iter);
  iter.finish();
  return iter.output();
}

}  // namespace

Tensor pow(const Tensor& self, const Tensor& exponent) { return pow_impl(Tensor(), self, exponent, false); }
Tensor pow(const Tensor& self, const Scalar& exponent) {
  return pow_impl(Tensor(), self, wrapped_scalar_tensor(exponent), false);
}
Tensor pow(const Scalar& self, const Tensor& exponent) {
  return pow_impl(Tensor(), wrapped_scalar_tensor(self), exponent, false);
}
const Tensor& pow_(const Tensor& self, const Tensor& exponent) {
  pow_impl(self, self, exponent, true);
  return self;
}
const Tensor& pow_(const Tensor& self, const Scalar& exponent) {
  pow_impl(self, self, wrapped_scalar_tensor(exponent), true);
  return self;
}

}  // namespace at::native
