// Binary pointwise ops: argument checks and type promotion here, the loops
// in cpu/BinaryOpsKernel.cpp. Each op comes as functional, in-place and out=.
#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/ScalarOps.h>
#include <ATen/TypePromotion.h>
#include <ATen/native/BinaryOps.h>

#include <string_view>

namespace at::native {

DEFINE_DISPATCH(add_stub);
DEFINE_DISPATCH(mul_stub);
DEFINE_DISPATCH(div_true_stub);
DEFINE_DISPATCH(div_trunc_stub);
DEFINE_DISPATCH(div_floor_stub);
DEFINE_DISPATCH(pow_stub);
DEFINE_DISPATCH(remainder_stub);
DEFINE_DISPATCH(atan2_stub);
DEFINE_DISPATCH(special_zeta_stub);
DEFINE_DISPATCH(fmod_stub);
DEFINE_DISPATCH(hypot_stub);
DEFINE_DISPATCH(copysign_stub);
DEFINE_DISPATCH(fmax_stub);
DEFINE_DISPATCH(fmin_stub);
DEFINE_DISPATCH(logaddexp_stub);
DEFINE_DISPATCH(logaddexp2_stub);
DEFINE_DISPATCH(xlogy_stub);
DEFINE_DISPATCH(nextafter_stub);
DEFINE_DISPATCH(heaviside_stub);
DEFINE_DISPATCH(minimum_stub);
DEFINE_DISPATCH(maximum_stub);
DEFINE_DISPATCH(clamp_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(bitwise_and_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(bitwise_or_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(bitwise_xor_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(bitwise_left_shift_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(bitwise_right_shift_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(gcd_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(lcm_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(logical_and_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(logical_or_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(logical_xor_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(eq_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(ne_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(lt_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(le_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(gt_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(ge_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(where_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(masked_fill_stub);
DEFINE_DISPATCH(gelu_backward_stub);

namespace {

enum class Promote { Common, IntegerToFloat, BoolResult };

// `out` undefined: allocate; `inplace`: out is `a` and may not change shape.
TensorIterator binary_iter(const Tensor& out, const Tensor& a, const Tensor& b, Promote promote, bool inplace) {
  TensorIteratorConfig config;
  config.add_output(out).add_input(a).add_input(b).promote_inputs_to_common_dtype(true).resize_outputs(!inplace);
  if (promote == Promote::IntegerToFloat) config.promote_integer_inputs_to_float(true);
  if (promote == Promote::BoolResult) config.declare_static_output_dtype(ScalarType::Bool);
  return config.build();
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

// sub's result is never bool (bool operands are refused), so a bool alpha is
// always refused; checked before alpha is negated (which makes it an int).
void check_sub(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  TORCH_CHECK(a.scalar_type() != ScalarType::Bool || b.scalar_type() != ScalarType::Bool,
              "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
              "`logical_xor()` operator instead.");
  TORCH_CHECK(a.scalar_type() != ScalarType::Bool && b.scalar_type() != ScalarType::Bool,
              "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a "
              "mask, use the `~` or `logical_not()` operator instead.");
  TORCH_CHECK(!alpha.isBoolean(), "Boolean alpha only supported for Boolean results.");
}

// sub is add with -alpha, negated as an int64 wraps (-(-2**63) stays -2**63),
// as PyTorch's sub is (its backward does not wrap: a documented deviation of PyTorch's).
Tensor add_impl(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha, bool inplace,
                bool subtract = false) {
  auto iter = binary_iter(out, a, b, Promote::Common, inplace);
  check_alpha(iter.common_dtype(), alpha);
  add_stub(iter.device().type, iter, subtract ? -alpha : alpha);
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
  check_sub(self, other, alpha);
  return add_impl(Tensor(), self, other, alpha, false, true);
}
const Tensor& sub_(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other, alpha);
  add_impl(self, self, other, alpha, true, true);
  return self;
}
const Tensor& sub_out(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  check_sub(self, other, alpha);
  add_impl(out, self, other, alpha, false, true);
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

// `exp_number`: the exponent as the Python number it was (pow(t, 2)).
Tensor pow_impl(const Tensor& out, const Tensor& base, const Tensor& exp, bool inplace,
                const Scalar* exp_number = nullptr) {
  auto iter = binary_iter(out, base, exp, Promote::Common, inplace);
  const ScalarType dtype = iter.common_dtype();
  if (c10::isIntegralType(dtype, true) && exp.dim() == 0) {
    // PyTorch rejects a negative integer exponent of an integer base outright.
    TORCH_CHECK(at::item(exp).toDouble() >= 0 || exp.is_floating_point(),
                "Integers to negative integer powers are not allowed.");
  }
  // PyTorch's kernel converts a number exponent to the result's type, checked,
  // except for float and double (taken as a double): int8 ** 300 and
  // float16 ** 70000 are errors.
  if (exp_number && dtype != ScalarType::Float && dtype != ScalarType::Double) check_scalar_fits(*exp_number, dtype);
  // x ** 0 is 1 and x ** 1 is x without the kernel, as in PyTorch (so a bool
  // tensor ** True is itself, where the kernel has no bool).
  // Written straight into the result the caller sees (an out= tensor of
  // another dtype too, converting as it copies); no finish(), which would
  // copy the iterator's unwritten buffer of the common dtype over it.
  if (exp_number && (exp_number->toDouble() == 0 || exp_number->toDouble() == 1)) {
    const Tensor& result = iter.output();
    if (exp_number->toDouble() == 0) {
      result.fill_(1);
    } else {
      result.copy_(base);
    }
    return result;
  }
  pow_stub(iter.device().type, iter);
  iter.finish();
  return iter.output();
}

}  // namespace

Tensor pow(const Tensor& self, const Tensor& exponent) { return pow_impl(Tensor(), self, exponent, false); }
Tensor pow(const Tensor& self, const Scalar& exponent) {
  return pow_impl(Tensor(), self, wrapped_scalar_tensor(exponent), false, &exponent);
}
Tensor pow(const Scalar& self, const Tensor& exponent) {
  return pow_impl(Tensor(), wrapped_scalar_tensor(self), exponent, false);
}
Tensor square(const Tensor& self) { return at::pow(self, Scalar(2)); }
const Tensor& square_(const Tensor& self) { return self.pow_(Scalar(2)); }

const Tensor& pow_out(const Tensor& out, const Tensor& self, const Tensor& exponent) {
  pow_impl(out, self, exponent, false);
  return out;
}
const Tensor& pow_out(const Tensor& out, const Tensor& self, const Scalar& exponent) {
  pow_impl(out, self, wrapped_scalar_tensor(exponent), false, &exponent);
  return out;
}
const Tensor& pow_out(const Tensor& out, const Scalar& self, const Tensor& exponent) {
  if (!self.isBoolean() && self.toDouble() == 1.0) {  // 1 ** x: PyTorch fills out with 1 (not for True)
    if (!out.sizes().equals(exponent.sizes())) out.resize_(exponent.sizes());
    out.fill_(1);
    return out;
  }
  pow_impl(out, wrapped_scalar_tensor(self), exponent, false);
  return out;
}

const Tensor& pow_(const Tensor& self, const Tensor& exponent) {
  pow_impl(self, self, exponent, true);
  return self;
}
const Tensor& pow_(const Tensor& self, const Scalar& exponent) {
  pow_impl(self, self, wrapped_scalar_tensor(exponent), true, &exponent);
  return self;
}

// The functional, in-place and out= forms of a binary op over one stub.
#define DEFINE_BINARY(op, promote, check)                                                  \
  Tensor op(const Tensor& self, const Tensor& other) {                                     \
    check;                                                                                 \
    return run_binary(op##_stub, Tensor(), self, other, Promote::promote, false);          \
  }                                                                                        \
  const Tensor& op##_(const Tensor& self, const Tensor& other) {                           \
    check;                                                                                 \
    run_binary(op##_stub, self, self, other, Promote::promote, true);                      \
    return self;                                                                           \
  }                                                                                        \
  const Tensor& op##_out(const Tensor& out, const Tensor& self, const Tensor& other) {     \
    check;                                                                                 \
    run_binary(op##_stub, out, self, other, Promote::promote, false);                      \
    return out;                                                                            \
  }

DEFINE_BINARY(remainder, Common, (void)0)
DEFINE_BINARY(atan2, IntegerToFloat, (void)0)
Tensor special_zeta(const Tensor& self, const Tensor& other) {
  return run_binary(special_zeta_stub, Tensor(), self, other, Promote::IntegerToFloat, false);
}
DEFINE_BINARY(fmod, Common, (void)0)
DEFINE_BINARY(hypot, Common, (void)0)
DEFINE_BINARY(copysign, IntegerToFloat, (void)0)
DEFINE_BINARY(fmax, Common, (void)0)
DEFINE_BINARY(fmin, Common, (void)0)
DEFINE_BINARY(logaddexp, Common, (void)0)
DEFINE_BINARY(logaddexp2, Common, (void)0)
DEFINE_BINARY(xlogy, IntegerToFloat, (void)0)
Tensor xlogy(const Scalar& self, const Tensor& other) { return at::xlogy(wrapped_scalar_tensor(self), other); }
Tensor xlogy(const Tensor& self, const Scalar& other) { return at::xlogy(self, wrapped_scalar_tensor(other)); }
const Tensor& xlogy_(const Tensor& self, const Scalar& other) { return self.xlogy_(wrapped_scalar_tensor(other)); }
const Tensor& xlogy_out(const Tensor& out, const Scalar& self, const Tensor& other) {
  return at::xlogy_out(out, wrapped_scalar_tensor(self), other);
}
const Tensor& xlogy_out(const Tensor& out, const Tensor& self, const Scalar& other) {
  return at::xlogy_out(out, self, wrapped_scalar_tensor(other));
}
DEFINE_BINARY(nextafter, Common, (void)0)
namespace {
void check_heaviside_dtypes(const Tensor& self, const Tensor& other, const Tensor& out = Tensor()) {
  TORCH_CHECK(self.scalar_type() == other.scalar_type() && (!out.defined() || out.scalar_type() == self.scalar_type()),
              "heaviside is not yet implemented for tensors with different dtypes.");
}
}  // namespace
Tensor heaviside(const Tensor& self, const Tensor& other) {
  check_heaviside_dtypes(self, other);
  return run_binary(heaviside_stub, Tensor(), self, other, Promote::Common, false);
}
const Tensor& heaviside_(const Tensor& self, const Tensor& other) {
  check_heaviside_dtypes(self, other);
  run_binary(heaviside_stub, self, self, other, Promote::Common, true);
  return self;
}
const Tensor& heaviside_out(const Tensor& out, const Tensor& self, const Tensor& other) {
  check_heaviside_dtypes(self, other, out);
  run_binary(heaviside_stub, out, self, other, Promote::Common, false);
  return out;
}
DEFINE_BINARY(minimum, Common, (void)0)
DEFINE_BINARY(maximum, Common, (void)0)
DEFINE_BINARY(bitwise_and, Common, (void)0)  // the kernel takes integers and bool only
DEFINE_BINARY(bitwise_or, Common, (void)0)  // the kernel takes integers and bool only
DEFINE_BINARY(bitwise_xor, Common, (void)0)  // the kernel takes integers and bool only
DEFINE_BINARY(bitwise_left_shift, Common, (void)0)  // the kernels take integers only
DEFINE_BINARY(bitwise_right_shift, Common, (void)0)
DEFINE_BINARY(gcd, Common, (void)0)
DEFINE_BINARY(lcm, Common, (void)0)

namespace {
// A predicate written in place: when self's dtype is already the operands'
// common one (x.eq_(y) for two float tensors), the CPU kernel writes 0 or 1
// in that dtype directly, without a bool temporary copied back.
template <typename Stub>
void predicate_inplace(const Stub& stub, const Tensor& self, const Tensor& other) {
  if (self.is_cpu() && other.is_cpu() && self.scalar_type() != ScalarType::Bool &&
      at::result_type(self, other) == self.scalar_type()) {
    run_binary(stub, self, self, other, Promote::Common, true);
  } else {
    run_binary(stub, self, self, other, Promote::BoolResult, true);
  }
}
}  // namespace

// As DEFINE_BINARY, with the in-place form through predicate_inplace.
#define DEFINE_PREDICATE(op)                                                               \
  Tensor op(const Tensor& self, const Tensor& other) {                                     \
    return run_binary(op##_stub, Tensor(), self, other, Promote::BoolResult, false);       \
  }                                                                                        \
  const Tensor& op##_(const Tensor& self, const Tensor& other) {                           \
    predicate_inplace(op##_stub, self, other);                                             \
    return self;                                                                           \
  }                                                                                        \
  const Tensor& op##_out(const Tensor& out, const Tensor& self, const Tensor& other) {     \
    run_binary(op##_stub, out, self, other, Promote::BoolResult, false);                   \
    return out;                                                                            \
  }

DEFINE_PREDICATE(logical_and)
DEFINE_PREDICATE(logical_or)
DEFINE_PREDICATE(logical_xor)
DEFINE_PREDICATE(eq)
DEFINE_PREDICATE(ne)
DEFINE_PREDICATE(lt)
DEFINE_PREDICATE(le)
DEFINE_PREDICATE(gt)
DEFINE_PREDICATE(ge)
#undef DEFINE_PREDICATE

Tensor gelu_backward(const Tensor& grad_output, const Tensor& self, std::string_view approximate) {
  TORCH_CHECK(approximate == "none" || approximate == "tanh", "approximate argument must be either none or tanh.");
  TORCH_CHECK(self.is_floating_point() && grad_output.is_floating_point(),
              "gelu_backward: expected floating point tensors, got ", grad_output.scalar_type(), " and ",
              self.scalar_type());
  return run_binary(gelu_backward_stub, Tensor(), grad_output, self, Promote::Common, false, approximate == "tanh");
}

Tensor max(const Tensor& self, const Tensor& other) { return at::maximum(self, other); }
Tensor min(const Tensor& self, const Tensor& other) { return at::minimum(self, other); }

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  TORCH_CHECK(condition.scalar_type() == ScalarType::Bool,
              "where expected condition to be a boolean tensor, but got a tensor with dtype ", condition.scalar_type());
  const ScalarType common = result_type(self, other);
  // A Python number is converted to that dtype checked, as PyTorch's Scalar
  // overloads do (uint8 300 is an error), except into float16 and bfloat16.
  for (const Tensor* t : {&self, &other}) {
    if (t->unsafeGetTensorImpl()->is_wrapped_number()) {
      check_scalar_fits_unless_reduced(at::_local_scalar_dense(*t), common);
    }
  }
  // The values are cast to their common dtype first; the condition stays bool.
  auto iter = TensorIteratorConfig()
                  .add_output(Tensor())
                  .add_input(self.to(common))
                  .add_input(other.to(common))
                  .add_input(condition)
                  .check_all_same_dtype(false)
                  .build();
  where_stub(iter.device().type, iter);
  return iter.output();
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  TORCH_CHECK(mask.scalar_type() == ScalarType::Bool, "masked_fill_ only supports boolean masks, but got mask with dtype ",
              c10::cppTypeName(mask.scalar_type()));
  // Out of place, the result has the shape self and mask broadcast to.
  const auto shape = infer_size(self.sizes(), mask.sizes());
  return self.expand(shape).clone().masked_fill_(mask, value);
}

const Tensor& masked_fill_(const Tensor& self, const Tensor& mask, const Scalar& value) {
  TORCH_CHECK(mask.scalar_type() == ScalarType::Bool, "masked_fill_ only supports boolean masks, but got mask with dtype ",
              c10::cppTypeName(mask.scalar_type()));
  // Writing one value into an expanded tensor is well defined (PyTorch warns).
  assert_no_partial_overlap(self, mask);
  auto iter = TensorIteratorConfig()
                  .add_output(self)
                  .add_input(self)
                  .add_input(mask)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .check_mem_overlap(false)
                  .build();
  masked_fill_stub(iter.device().type, iter, value);
  return self;
}

// PyTorch's order: the value's rank, then (through the Scalar form) the mask's dtype.
static void check_masked_fill_value(const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  check_masked_fill_value(value);
  TORCH_CHECK(mask.scalar_type() == ScalarType::Bool, "masked_fill_ only supports boolean masks, but got mask with dtype ",
              c10::cppTypeName(mask.scalar_type()));
  const auto shape = infer_size(self.sizes(), mask.sizes());
  return self.expand(shape).clone().masked_fill_(mask, value);
}

const Tensor& masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  check_masked_fill_value(value);
  // Qualified: at::masked_fill_ (the dispatcher's, found by ADL) would record autograd a second time.
  return at::native::masked_fill_(self, mask, at::item(value));
}

namespace {

// A 0-d tensor holding the lowest (or highest) value of `dtype`: the bound
// clamp leaves open.
Tensor open_bound(ScalarType dtype, bool lowest) {
  Tensor t = at::empty({}, dtype);
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(dtype, "clamp", [&] {
    using limits = std::numeric_limits<scalar_t>;
    scalar_t v;
    if constexpr (c10::is_floating_v<scalar_t>) {
      const float inf = std::numeric_limits<float>::infinity();
      v = static_cast<scalar_t>(lowest ? -inf : inf);
    } else {
      v = lowest ? limits::lowest() : limits::max();
    }
    *static_cast<scalar_t*>(t.data_ptr()) = v;
  });
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

// clamp in PyTorch's terms: the result dtype promotes self with the bounds
// (a float64 bound lifts an int16 tensor), a Python number bound must fit
// that dtype, and the kernel computes min(max(x, lo), hi).
Tensor clamp_impl(const Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                  const std::optional<Tensor>& max, bool inplace,
                  std::initializer_list<const std::optional<Scalar>*> scalars = {}) {
  const bool has_min = min && min->defined(), has_max = max && max->defined();
  TORCH_CHECK(has_min || has_max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  ResultTypeState state;
  state.update(self);
  if (has_min) state.update(*min);
  if (has_max) state.update(*max);
  // In place too, clamp computes in the promoted dtype and casts into self
  // (int32 clamp_ with an int64 bound of 2**63 - 1 writes -1, as in PyTorch).
  const ScalarType dtype = state.result();
  // clamp(self, number, number, out=): the out tensor must have the result's dtype.
  TORCH_CHECK(inplace || !out.defined() || scalars.size() == 0 || out.scalar_type() == dtype, "Found dtype ",
              out.scalar_type(), " but expected ", dtype);
  for (const auto* s : scalars) {
    if (*s) check_scalar_fits(**s, dtype);
  }
  const Tensor lo = has_min ? *min : open_bound(dtype, true);
  const Tensor hi = has_max ? *max : open_bound(dtype, false);
  TensorIteratorConfig config;
  config.add_output(out).add_input(self).add_input(lo).add_input(hi).promote_inputs_to_common_dtype(true)
      .resize_outputs(!inplace);
  auto iter = config.build();  // an in-place result that cannot take the promoted dtype fails here
  // A bool clamp: PyTorch has kernels for one tensor bound (clamp_min/max, as
  // maximum/minimum), none for two or for numbers.
  if (iter.common_dtype() == ScalarType::Bool) {
    const char* kernel = scalars.size() ? (has_min && has_max ? "clamp_scalar_cpu"
                                                              : (has_min ? "clamp_min_scalar_cpu" : "clamp_max_scalar_cpu"))
                                        : "clamp_cpu";
    TORCH_CHECK_NOT_IMPLEMENTED(!scalars.size() && !(has_min && has_max), "\"", kernel, "\" not implemented for 'Bool'");
  }
  clamp_stub(iter.device().type, iter);
  iter.finish();
  return iter.output();
}

std::optional<Tensor> wrap(const std::optional<Scalar>& s) {
  if (!s) return std::nullopt;
  return wrapped_scalar_tensor(*s);
}

}  // namespace

Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp_impl(Tensor(), self, wrap(min), wrap(max), false, {&min, &max});
}
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  return clamp_impl(Tensor(), self, min, max, false);
}
const Tensor& clamp_(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  clamp_impl(self, self, wrap(min), wrap(max), true, {&min, &max});
  return self;
}
const Tensor& clamp_out(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                        const std::optional<Scalar>& max) {
  clamp_impl(out, self, wrap(min), wrap(max), false, {&min, &max});
  return out;
}
const Tensor& clamp_(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  clamp_impl(self, self, min, max, true);
  return self;
}
const Tensor& clamp_out(const Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                        const std::optional<Tensor>& max) {
  clamp_impl(out, self, min, max, false);
  return out;
}

}  // namespace at::native
