#pragma once
// Whether tensors share memory in ways that make an elementwise write wrong,
// as PyTorch's MemoryOverlap.h answers it: an expanded tensor (several
// elements at one address) cannot be written element by element, and an
// input that only partly overlaps the output would be read after parts of
// it were written.
#include <ATen/core/TensorBody.h>

namespace at {

enum class MemOverlap { No, Yes, TooHard };
enum class MemOverlapStatus { Full, Partial, No, TooHard };

TORCH_API MemOverlap has_internal_overlap(const Tensor& t);
TORCH_API MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b);
// Raise PyTorch's RuntimeError for the cases that are known to be wrong.
TORCH_API void assert_no_internal_overlap(const Tensor& t);
TORCH_API void assert_no_partial_overlap(const Tensor& a, const Tensor& b);
TORCH_API void assert_no_overlap(const Tensor& a, const Tensor& b);

}  // namespace at
