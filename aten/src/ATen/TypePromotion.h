#pragma once
// PyTorch's type promotion between operands: tensors with dimensions outrank
// 0-d tensors, which outrank Python numbers, but a lower-ranked operand of a
// higher category (bool < integer < float) still lifts the result into its
// category. So int32_tensor + 2.5 is float32 and float32_tensor + float64 0-d
// is float32.
#include <ATen/core/TensorBody.h>

namespace at {

struct TORCH_API ResultTypeState {
  ScalarType dim_result = ScalarType::Undefined;
  ScalarType zero_dim_result = ScalarType::Undefined;
  ScalarType wrapped_result = ScalarType::Undefined;

  void update(const Tensor& t);
  ScalarType result() const;
};

TORCH_API ScalarType result_type(TensorList tensors);
TORCH_API ScalarType result_type(const Tensor& a, const Tensor& b);
// Whether a value of dtype `from` may be written into a tensor of dtype `to`
// without leaving its category (float into int, int into bool, ...).
TORCH_API bool canCast(ScalarType from, ScalarType to);

}  // namespace at
