#include <c10/core/Allocator.h>
#include <c10/core/CPUBlockCache.h>
#include <c10/core/alloc_cpu.h>
#include <c10/util/Exception.h>

#include <atomic>

namespace c10 {
namespace {

std::atomic<int64_t> live_cpu_blocks{0};

void free_cpu_block(void* p) {
  live_cpu_blocks.fetch_sub(1, std::memory_order_relaxed);
  free_aligned(p);
}

// A cacheable block's deleter context: where it is and its (page-rounded) size.
struct CachedBlock {
  void* ptr;
  size_t size;
};

void return_cached_block(void* ctx) {
  auto* block = static_cast<CachedBlock*>(ctx);
  live_cpu_blocks.fetch_sub(1, std::memory_order_relaxed);
  cpu_block_cache::give(block->ptr, block->size);
  delete block;
}

void* allocate_block(size_t nbytes) {
  // Large blocks start on a 2 MiB boundary and ask for transparent huge
  // pages: far fewer page faults when a big result is first written (numpy
  // does the same). Not for blocks of gigabytes: there the kernel's
  // compaction to find that many huge pages costs more than it saves.
  constexpr size_t kHugePage = 2u << 20;
  const bool huge = nbytes >= 4 * kHugePage && nbytes <= (size_t{256} << 20);
  const size_t alignment = huge ? kHugePage : kCPUAlignment;
  void* p = alloc_aligned(nbytes, alignment);
  if (p == nullptr) {  // what the cache holds may be what is missing
    cpu_block_cache::empty();
    p = alloc_aligned(nbytes, alignment);
  }
  TORCH_CHECK(p != nullptr, "DefaultCPUAllocator: not enough memory: you tried to allocate ", nbytes, " bytes.");
  if (huge) advise_huge_pages(p, nbytes);
  return p;
}

class CPUAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) const override {
    if (nbytes == 0) return DataPtr(nullptr, nullptr, nullptr, Device(DeviceType::CPU));
    const size_t cached = cpu_block_cache::cached_size(nbytes);
    if (cached == 0) {
      void* p = allocate_block(nbytes);
      live_cpu_blocks.fetch_add(1, std::memory_order_relaxed);
      return DataPtr(p, p, &free_cpu_block, Device(DeviceType::CPU));
    }
    void* p = cpu_block_cache::take(cached);
    if (p == nullptr) p = allocate_block(cached);
    live_cpu_blocks.fetch_add(1, std::memory_order_relaxed);
    return DataPtr(p, new CachedBlock{p, cached}, &return_cached_block, Device(DeviceType::CPU));
  }
};

}  // namespace

int64_t cpu_allocator_live_blocks() { return live_cpu_blocks.load(std::memory_order_relaxed); }

Allocator* GetCPUAllocator() {
  static CPUAllocator allocator;
  return &allocator;
}

namespace {
std::atomic<Allocator*> device_allocators[kNumDeviceTypes] = {};
}  // namespace

void SetAllocator(DeviceType type, Allocator* allocator) {
  device_allocators[static_cast<int>(type)].store(allocator, std::memory_order_release);
}

Allocator* GetAllocator(DeviceType type) {
  if (type == DeviceType::CPU) return GetCPUAllocator();
  return device_allocators[static_cast<int>(type)].load(std::memory_order_acquire);
}

}  // namespace c10
