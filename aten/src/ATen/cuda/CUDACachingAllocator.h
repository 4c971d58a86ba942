#pragma once
// The CUDA caching allocator: freed device blocks are kept for reuse instead
// of going back to cudaFree, which synchronises the device. When cudaMalloc
// runs out of memory, the cache is released and the allocation retried.
#include <c10/core/Allocator.h>

#include <cstdint>

namespace at::cuda {

TORCH_API c10::Allocator* caching_allocator();
// Bytes held by live tensors on `device` (blocks are rounded up to 512 bytes).
TORCH_API int64_t memory_allocated(int device);
// Returns the cached free blocks of every device to the driver.
TORCH_API void empty_cache();

}  // namespace at::cuda
