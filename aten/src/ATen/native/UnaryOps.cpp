// Unary pointwise ops. Each comes as functional, in-place and (mostly) out=;
// the macros below spell out those three for every op.
#include <ATen/ATen.h>
#include <ATen/native/UnaryOps.h>

#include <tuple>

namespace at::native {

DEFINE_DISPATCH_FOR_ANY_OPERANDS(neg_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(abs_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(relu_stub);
DEFINE_DISPATCH(exp_stub);
DEFINE_DISPATCH(log_stub);
DEFINE_DISPATCH(sqrt_stub);
DEFINE_DISPATCH(reciprocal_stub);
DEFINE_DISPATCH(sigmoid_stub);
DEFINE_DISPATCH(tanh_stub);
DEFINE_DISPATCH(log1p_stub);
DEFINE_DISPATCH(expm1_stub);
DEFINE_DISPATCH(rsqrt_stub);
DEFINE_DISPATCH(sin_stub);
DEFINE_DISPATCH(cos_stub);
DEFINE_DISPATCH(gelu_stub);
DEFINE_DISPATCH(gelu_tanh_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(sign_stub);
DEFINE_DISPATCH(floor_stub);
DEFINE_DISPATCH(ceil_stub);
DEFINE_DISPATCH(round_stub);
DEFINE_DISPATCH(trunc_stub);
DEFINE_DISPATCH_FOR_ANY_OPERANDS(bitwise_not_stub);
DEFINE_DISPATCH_WITH_BOOL_OPERANDS(isnan_stub);
DEFINE_DISPATCH_WITH_BOOL_OPERANDS(isfinite_stub);
DEFINE_DISPATCH_WITH_BOOL_OPERANDS(isinf_stub);
DEFINE_DISPATCH_WITH_BOOL_OPERANDS(signbit_stub);
DEFINE_DISPATCH_WITH_BOOL_OPERANDS(logical_not_stub);
DEFINE_DISPATCH(sinc_stub);
DEFINE_DISPATCH(special_entr_stub);
DEFINE_DISPATCH(lgamma_stub);
DEFINE_DISPATCH(digamma_stub);
DEFINE_DISPATCH(erfinv_stub);
DEFINE_DISPATCH(tan_stub);
DEFINE_DISPATCH(asin_stub);
DEFINE_DISPATCH(acos_stub);
DEFINE_DISPATCH(atan_stub);
DEFINE_DISPATCH(sinh_stub);
DEFINE_DISPATCH(cosh_stub);
DEFINE_DISPATCH(asinh_stub);
DEFINE_DISPATCH(acosh_stub);
DEFINE_DISPATCH(atanh_stub);
DEFINE_DISPATCH(erf_stub);
DEFINE_DISPATCH(erfc_stub);
DEFINE_DISPATCH(log2_stub);
DEFINE_DISPATCH(log10_stub);
DEFINE_DISPATCH(exp2_stub);
DEFINE_DISPATCH(deg2rad_stub);
DEFINE_DISPATCH(rad2deg_stub);
DEFINE_DISPATCH(angle_stub);
DEFINE_DISPATCH(frac_stub);
DEFINE_DISPATCH(nan_to_num_stub);
DEFINE_DISPATCH(frexp_stub);
DEFINE_DISPATCH(trigamma_stub);


namespace {

enum class Result { Same, Float, Bool };

Tensor unary_op(const DispatchStub<unary_fn>& stub, const Tensor& out, const Tensor& self, Result result,
                bool inplace) {
  TensorIteratorConfig config;
  config.add_output(out).add_input(self).promote_inputs_to_common_dtype(true).resize_outputs(!inplace);
  if (result == Result::Float) config.promote_integer_inputs_to_float(true);
  if (result == Result::Bool) config.declare_static_output_dtype(ScalarType::Bool);
  auto iter = config.build();
  stub(iter.device().type, iter);
  iter.finish();
  return iter.output();
}

void check_not_bool(const Tensor& self, const char* what) {
  TORCH_CHECK(self.scalar_type() != ScalarType::Bool, what);
}

constexpr const char* kNegBool =
    "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
    "`~` or `logical_not()` operator instead.";

}  // namespace

#define DEFINE_UNARY_FUNCTIONAL_AND_INPLACE(op, result, check)                            \
  Tensor op(const Tensor& self) {                                                         \
    check;                                                                                \
    return unary_op(op##_stub, Tensor(), self, Result::result, false);                    \
  }                                                                                       \
  const Tensor& op##_(const Tensor& self) {                                               \
    check;                                                                                \
    unary_op(op##_stub, self, self, Result::result, true);                                \
    return self;                                                                          \
  }

// The dtype-preserving ops (Result::Same) write only into an out= tensor of
// self's dtype, as PyTorch's unary ops check before their kernel runs.
#define DEFINE_UNARY_OUT(op, result, check)                                               \
  const Tensor& op##_out(const Tensor& out, const Tensor& self) {                         \
    check;                                                                                \
    TORCH_CHECK(Result::result != Result::Same || out.scalar_type() == self.scalar_type(), \
                "Found dtype ", out.scalar_type(), " but expected ", self.scalar_type());  \
    unary_op(op##_stub, out, self, Result::result, false);                                \
    return out;                                                                           \
  }

#define DEFINE_UNARY(op, result, check)               \
  DEFINE_UNARY_FUNCTIONAL_AND_INPLACE(op, result, check) \
  DEFINE_UNARY_OUT(op, result, check)

#define NO_CHECK (void)0

DEFINE_UNARY(neg, Same, check_not_bool(self, kNegBool))
DEFINE_UNARY(abs, Same, NO_CHECK)
DEFINE_UNARY_FUNCTIONAL_AND_INPLACE(relu, Same, check_not_bool(self, "relu: boolean tensors are not supported"))
DEFINE_UNARY(exp, Float, NO_CHECK)
DEFINE_UNARY(log, Float, NO_CHECK)
DEFINE_UNARY(sqrt, Float, NO_CHECK)
DEFINE_UNARY(reciprocal, Float, NO_CHECK)
DEFINE_UNARY(sigmoid, Float, NO_CHECK)
DEFINE_UNARY(tanh, Float, NO_CHECK)
DEFINE_UNARY(log1p, Float, NO_CHECK)
DEFINE_UNARY(expm1, Float, NO_CHECK)
DEFINE_UNARY(rsqrt, Float, NO_CHECK)
DEFINE_UNARY(sin, Float, NO_CHECK)
DEFINE_UNARY(cos, Float, NO_CHECK)
DEFINE_UNARY(sign, Same, NO_CHECK)
DEFINE_UNARY(floor, Same, NO_CHECK)
DEFINE_UNARY(ceil, Same, NO_CHECK)
DEFINE_UNARY(round, Same, NO_CHECK)
DEFINE_UNARY(trunc, Same, NO_CHECK)
DEFINE_UNARY(tan, Float, NO_CHECK)
DEFINE_UNARY(asin, Float, NO_CHECK)
DEFINE_UNARY(acos, Float, NO_CHECK)
DEFINE_UNARY(atan, Float, NO_CHECK)
DEFINE_UNARY(sinh, Float, NO_CHECK)
DEFINE_UNARY(cosh, Float, NO_CHECK)
DEFINE_UNARY(asinh, Float, NO_CHECK)
DEFINE_UNARY(acosh, Float, NO_CHECK)
DEFINE_UNARY(atanh, Float, NO_CHECK)
DEFINE_UNARY(erf, Float, NO_CHECK)
DEFINE_UNARY(erfc, Float, NO_CHECK)
DEFINE_UNARY(log2, Float, NO_CHECK)
DEFINE_UNARY(log10, Float, NO_CHECK)
DEFINE_UNARY(exp2, Float, NO_CHECK)
DEFINE_UNARY(deg2rad, Float, NO_CHECK)
DEFINE_UNARY(rad2deg, Float, NO_CHECK)
Tensor angle(const Tensor& self) { return unary_op(angle_stub, Tensor(), self, Result::Float, false); }
DEFINE_UNARY_OUT(angle, Float, NO_CHECK)
DEFINE_UNARY(frac, Same, NO_CHECK)  // the kernel takes floating types only
DEFINE_UNARY(lgamma, Float, NO_CHECK)
DEFINE_UNARY(digamma, Float, NO_CHECK)
DEFINE_UNARY(erfinv, Float, NO_CHECK)
DEFINE_UNARY(sinc, Float, NO_CHECK)

// torch.special.entr (out= in torch/special): integers promote to float.
Tensor special_entr(const Tensor& self) { return unary_op(special_entr_stub, Tensor(), self, Result::Float, false); }
DEFINE_UNARY(logical_not, Bool, NO_CHECK)
DEFINE_UNARY(bitwise_not, Same, NO_CHECK)  // the kernel takes integers and bool only

Tensor trigamma(const Tensor& self) { return unary_op(trigamma_stub, Tensor(), self, Result::Float, false); }

Tensor isnan(const Tensor& self) { return unary_op(isnan_stub, Tensor(), self, Result::Bool, false); }
Tensor isfinite(const Tensor& self) { return unary_op(isfinite_stub, Tensor(), self, Result::Bool, false); }
Tensor isinf(const Tensor& self) { return unary_op(isinf_stub, Tensor(), self, Result::Bool, false); }
Tensor signbit(const Tensor& self) { return unary_op(signbit_stub, Tensor(), self, Result::Bool, false); }

std::tuple<Tensor, Tensor> frexp(const Tensor& self) {
  TORCH_CHECK(self.is_floating_point(), "torch.frexp() only supports floating-point dtypes");
  if (!self.is_cpu()) {  // computed on the CPU and copied back (std::frexp's exact bits)
    auto [mantissa, exponent] = at::frexp(self.to(Device(DeviceType::CPU), std::nullopt));
    return {mantissa.to(self.device(), std::nullopt), exponent.to(self.device(), std::nullopt)};
  }
  const Tensor x = self.contiguous();
  Tensor mantissa = at::empty(self.sizes(), self.options());
  Tensor exponent = at::empty(self.sizes(), ScalarType::Int, self.device());
  if (x.numel() > 0) frexp_stub(DeviceType::CPU, x, mantissa, exponent);
  return {mantissa, exponent};
}

// nan_to_num's three forms share one iterator: the output is new, self
// itself, or out (resized as other ops resize it).
namespace {
Tensor nan_to_num_into(const Tensor& out, const Tensor& self, std::optional<double> nan,
                       std::optional<double> posinf, std::optional<double> neginf, bool inplace) {
  auto iter = TensorIteratorConfig().add_output(out).add_input(self).resize_outputs(!inplace).build();
  nan_to_num_stub(iter.device().type, iter, nan.value_or(0.0), posinf, neginf);
  iter.finish();
  return iter.output();
}
}  // namespace

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  return nan_to_num_into(Tensor(), self, nan, posinf, neginf, false);
}

const Tensor& nan_to_num_(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) {
  // Integers and bool have nothing to replace: self as it is (an expanded
  // one too, which a write would refuse), as in PyTorch.
  if (!self.is_floating_point()) return self;
  nan_to_num_into(self, self, nan, posinf, neginf, true);
  return self;
}

const Tensor& nan_to_num_out(const Tensor& out, const Tensor& self, std::optional<double> nan,
                             std::optional<double> posinf, std::optional<double> neginf) {
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "nan_to_num: dtype of out: ", out.scalar_type(),
              " should be same as input: ", self.scalar_type());
  nan_to_num_into(out, self, nan, posinf, neginf, false);
  return out;
}

Tensor gelu(const Tensor& self, std::string_view approximate) {
  TORCH_CHECK(approximate == "none" || approximate == "tanh", "approximate argument must be either none or tanh.");
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"GeluKernelImpl\" not implemented for '", self.scalar_type(), "'");
  return unary_op(approximate == "none" ? gelu_stub : gelu_tanh_stub, Tensor(), self, Result::Same, false);
}

}  // namespace at::native
