#include <c10/core/Allocator.h>
#include <c10/util/Exception.h>

#include <atomic>
#include <cstdlib>
#include <sys/mman.h>

namespace c10 {
namespace {

std::atomic<int64_t> live_cpu_blocks{0};

void free_cpu_block(void* p) {
  live_cpu_blocks.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
}

class CPUAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) const override {
    if (nbytes == 0) return DataPtr(nullptr, nullptr, nullptr, Device(DeviceType::CPU));
    // Large blocks start on a 2 MiB boundary and ask for transparent huge
    // pages: far fewer page faults when a big result is first written (numpy
    // does the same). Not for blocks of gigabytes: there the kernel's
    // compaction to find that many huge pages costs more than it saves.
    constexpr size_t kHugePage = 2u << 20;
    const bool huge = nbytes >= 4 * kHugePage && nbytes <= (size_t{256} << 20);
    void* p = nullptr;
    const int rc = posix_memalign(&p, huge ? kHugePage : kCPUAlignment, nbytes);
    TORCH_CHECK(rc == 0 && p != nullptr, "DefaultCPUAllocator: not enough memory: you tried to allocate ",
                nbytes, " bytes.");
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p, nbytes, MADV_HUGEPAGE);
#endif
    live_cpu_blocks.fetch_add(1, std::memory_order_relaxed);
    return DataPtr(p, p, &free_cpu_block, Device(DeviceType::CPU));
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
