#pragma once
// Aligned host memory, the one place that knows each platform's calls:
// posix_memalign/free on POSIX, _aligned_malloc/_aligned_free on Windows
// (whose free() cannot release an aligned block).
#include <cstddef>

namespace c10 {

// nullptr when the memory is not there; alignment is a power of two.
void* alloc_aligned(size_t nbytes, size_t alignment);
void free_aligned(void* p);
// Asks the kernel to back [p, p + nbytes) with transparent huge pages where
// it can (Linux); elsewhere nothing.
void advise_huge_pages(void* p, size_t nbytes);

}  // namespace c10
