#pragma once
// Memory ownership. A DataPtr owns one allocation through a (context, deleter)
// pair, which lets a tensor also own memory it did not allocate (a numpy array,
// a DLPack capsule) without another layer of indirection.
#include <c10/core/Device.h>
#include <c10/macros/Export.h>

#include <cstddef>
#include <utility>

namespace c10 {

using DeleterFn = void (*)(void*);

class C10_API DataPtr {
 public:
  DataPtr() = default;
  DataPtr(void* data, void* ctx, DeleterFn deleter, Device device)
      : data_(data), ctx_(ctx), deleter_(deleter), device_(device) {}
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  DataPtr(DataPtr&& o) noexcept { *this = std::move(o); }
  DataPtr& operator=(DataPtr&& o) noexcept {
    if (this != &o) {
      free();
      data_ = std::exchange(o.data_, nullptr);
      ctx_ = std::exchange(o.ctx_, nullptr);
      deleter_ = std::exchange(o.deleter_, nullptr);
      device_ = o.device_;
    }
    return *this;
  }
  ~DataPtr() { free(); }

  void* get() const { return data_; }
  Device device() const { return device_; }

 private:
  void free() {
    if (deleter_) deleter_(ctx_);
    deleter_ = nullptr;
  }
  void* data_ = nullptr;
  void* ctx_ = nullptr;
  DeleterFn deleter_ = nullptr;
  Device device_;
};

class C10_API Allocator {
 public:
  virtual ~Allocator() = default;
  virtual DataPtr allocate(size_t nbytes) const = 0;
};

// 64-byte aligned host memory: a full cache line and an AVX-512 vector.
constexpr size_t kCPUAlignment = 64;
C10_API Allocator* GetCPUAllocator();
// Blocks the CPU allocator has handed out and not yet had back (the leak tests read it).
C10_API int64_t cpu_allocator_live_blocks();

// The allocator of each device type. CPU's is built in; libtorch_cuda sets
// CUDA's when it loads (its allocate() uses the current CUDA device). nullptr
// while none is registered.
C10_API void SetAllocator(DeviceType type, Allocator* allocator);
C10_API Allocator* GetAllocator(DeviceType type);

}  // namespace c10
