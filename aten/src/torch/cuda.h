#pragma once
// torch::cuda: whether CUDA can be used, and how many devices there are.
#include <cstddef>
#include <cstdint>

#include <c10/macros/Export.h>

namespace torch::cuda {

// The number of CUDA devices this process can use (0 without a CUDA build or a driver).
TORCH_API size_t device_count();
TORCH_API bool is_available();
// Waits for all work queued on `device` (the current one when -1).
TORCH_API void synchronize(int64_t device_index = -1);

}  // namespace torch::cuda
