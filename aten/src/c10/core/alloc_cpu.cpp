#include <c10/core/alloc_cpu.h>

#include <cstdlib>
#ifdef _WIN32
#include <malloc.h>
#else
#include <sys/mman.h>
#endif

namespace c10 {

void* alloc_aligned(size_t nbytes, size_t alignment) {
#ifdef _WIN32
  return _aligned_malloc(nbytes, alignment);
#else
  void* p = nullptr;
  return posix_memalign(&p, alignment, nbytes) == 0 ? p : nullptr;
#endif
}

void free_aligned(void* p) {
#ifdef _WIN32
  _aligned_free(p);
#else
  std::free(p);
#endif
}

void advise_huge_pages(void* p, size_t nbytes) {
#ifdef MADV_HUGEPAGE
  madvise(p, nbytes, MADV_HUGEPAGE);
#else
  (void)p;
  (void)nbytes;
#endif
}

}  // namespace c10
