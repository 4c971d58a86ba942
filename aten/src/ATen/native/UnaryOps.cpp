// Unary pointwise ops. Each comes as functional, in-place and (mostly) out=;
// the macros below spell out those three for every op.
#include <ATen/ATen.h>
#include <ATen/native/UnaryOps.h>

namespace at::native {

DEFINE_DISPATCH(neg_stub);
DEFINE_DISPATCH(abs_stub);
DEFINE_DISPATCH(relu_stub);
DEFINE_DISPATCH(exp_stub);
DEFINE_DISPATCH(log_stub);
DEFINE_DISPATCH(sqrt_stub);
DEFINE_DISPATCH(reciprocal_stub);
DEFINE_DISPATCH(sigmoid_stub);
DEFINE_DISPATCH(tanh_stub);

namespace {

Tensor unary_op(const DispatchStub<unary_fn>& stub, const Tensor& out, const Tensor& self, bool to_float,
                bool inplace) {
  auto iter = TensorIteratorConfig()
                  .add_output(out)
                  .add_input(self)
                  .promote_inputs_to_common_dtype(true)
                  .promote_integer_inputs_to_float(to_float)
                  .resize_outputs(!inplace)
                  .build();
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

#define DEFINE_UNARY_FUNCTIONAL_AND_INPLACE(op, to_float, check)                          \
  Tensor op(const Tensor& self) {                                                         \
    check;                                                                                \
    return unary_op(op##_stub, Tensor(), self, to_float, false);                          \
  }                                                                                       \
  const Tensor& op##_(const Tensor& self) {                                               \
    check;                                                                                \
    unary_op(op##_stub, self, self, to_float, true);                                      \
    return self;                                                                          \
  }

#define DEFINE_UNARY_OUT(op, to_float, check)                                             \
  const Tensor& op##_out(const Tensor& out, const Tensor& self) {                         \
    check;                                                                                \
    unary_op(op##_stub, out, self, to_float, false);                                      \
    return out;                                                                           \
  }

#define DEFINE_UNARY(op, to_float, check)               \
  DEFINE_UNARY_FUNCTIONAL_AND_INPLACE(op, to_float, check) \
  DEFINE_UNARY_OUT(op, to_float, check)

DEFINE_UNARY(neg, false, check_not_bool(self, kNegBool))
DEFINE_UNARY(abs, false, (void)0)
DEFINE_UNARY_FUNCTIONAL_AND_INPLACE(relu, false, check_not_bool(self, "relu: boolean tensors are not supported"))
DEFINE_UNARY(exp, true, (void)0)
DEFINE_UNARY(log, true, (void)0)
DEFINE_UNARY(sqrt, true, (void)0)
DEFINE_UNARY(reciprocal, true, (void)0)
DEFINE_UNARY(sigmoid, true, (void)0)
DEFINE_UNARY(tanh, true, (void)0)

}  // namespace at::native
