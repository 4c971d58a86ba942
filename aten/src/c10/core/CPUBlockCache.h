#pragma once
// A bounded cache of freed large CPU blocks, so that a training loop which
// frees and reallocates the same activation sizes every step reuses warm
// memory instead of having glibc trim its heap and the kernel fault the
// pages back in (on a small LSTM that churn was a tenth of the step).
// Blocks from 64 KiB to 64 MiB are kept by their size rounded up to a page,
// at most 256 MiB in all; anything else goes straight back to free().
#include <c10/macros/Export.h>

#include <cstddef>
#include <cstdint>

namespace c10::cpu_block_cache {

// The page-rounded size a request of nbytes is served with, or 0 when
// blocks of that size are not cached.
size_t cached_size(size_t nbytes);
// A cached block of exactly `size` bytes (a cached_size()), or nullptr.
void* take(size_t size);
// Keeps the block for reuse, or frees it when the cache is full.
void give(void* block, size_t size);

struct Stats {
  int64_t blocks;
  int64_t bytes;
};
C10_API Stats stats();
// Frees every cached block (torch._C._cpu_empty_cache).
C10_API void empty();

}  // namespace c10::cpu_block_cache
