#pragma once
// A tensor over memory someone else owns (a numpy array, a DLPack capsule):
// `deleter(ctx)` runs when the last tensor using the memory goes away.
#include <ATen/core/TensorBody.h>
#include <c10/core/Allocator.h>

namespace at {

// Strides are in elements and must be non-negative; `data` is element [0, ...].
TORCH_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, ScalarType dtype, void* ctx,
                           c10::DeleterFn deleter, Device device = Device(DeviceType::CPU));

}  // namespace at
