#pragma once
// Broadcasting: the shape two or more shapes expand to, or an error naming both.
#include <c10/util/ArrayRef.h>

#include <vector>

namespace at {

TORCH_API std::vector<int64_t> infer_size(c10::IntArrayRef a, c10::IntArrayRef b);

}  // namespace at
