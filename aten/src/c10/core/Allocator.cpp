#include <c10/core/Allocator.h>
#include <c10/util/Exception.h>

#include <cstdlib>

namespace c10 {
namespace {

class CPUAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) const override {
    if (nbytes == 0) return DataPtr(nullptr, nullptr, nullptr, Device(DeviceType::CPU));
    void* p = nullptr;
    const int rc = posix_memalign(&p, kCPUAlignment, nbytes);
    TORCH_CHECK(rc == 0 && p != nullptr, "DefaultCPUAllocator: not enough memory: you tried to allocate ",
                nbytes, " bytes.");
    return DataPtr(p, p, &std::free, Device(DeviceType::CPU));
  }
};

}  // namespace

Allocator* GetCPUAllocator() {
  static CPUAllocator allocator;
  return &allocator;
}

}  // namespace c10
