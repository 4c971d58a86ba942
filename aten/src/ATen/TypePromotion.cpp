#include <ATen/TypePromotion.h>

namespace at {
namespace {

ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return c10::promoteTypes(a, b);
}

// `higher` comes from a higher-priority group of operands; `lower` only
// matters when it is of a higher category.
ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (c10::isFloatingType(higher)) return higher;
  if (higher == ScalarType::Bool || c10::isFloatingType(lower)) return promote_skip_undefined(higher, lower);
  return higher != ScalarType::Undefined ? higher : lower;
}

}  // namespace

void ResultTypeState::update(const Tensor& t) {
  if (!t.defined()) return;
  ScalarType current = t.scalar_type();
  if (t.unsafeGetTensorImpl()->is_wrapped_number()) {
    // A Python float counts as the default dtype, not float64.
    if (c10::isFloatingType(current)) current = c10::get_default_dtype();
    wrapped_result = promote_skip_undefined(wrapped_result, current);
  } else if (t.dim() == 0) {
    zero_dim_result = promote_skip_undefined(zero_dim_result, current);
  } else {
    dim_result = promote_skip_undefined(dim_result, current);
  }
}

ScalarType ResultTypeState::result() const {
  return combine_categories(dim_result, combine_categories(zero_dim_result, wrapped_result));
}

ScalarType result_type(TensorList tensors) {
  ResultTypeState state;
  for (const Tensor& t : tensors) state.update(t);
  return state.result();
}

ScalarType result_type(const Tensor& a, const Tensor& b) {
  ResultTypeState state;
  state.update(a);
  state.update(b);
  return state.result();
}

bool canCast(ScalarType from, ScalarType to) {
  if (c10::isFloatingType(from) && c10::isIntegralType(to, true)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

}  // namespace at
