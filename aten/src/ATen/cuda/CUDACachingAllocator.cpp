#include <ATen/cuda/CUDACachingAllocator.h>
#include <ATen/cuda/CUDAContext.h>

#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace at::cuda {
namespace {

constexpr size_t kRound = 512;

struct Block {
  size_t size;
  int device;
};

class CachingAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t nbytes) const override {
    const int device = current_device();
    if (nbytes == 0) return c10::DataPtr(nullptr, nullptr, nullptr, c10::Device(c10::DeviceType::CUDA, device));
    size_t size = (nbytes + kRound - 1) / kRound * kRound;
    void* ptr = nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    auto& pool = pool_for(device);
    // The smallest cached block that fits, unless it would waste more than half.
    auto it = pool.lower_bound(size);
    if (it != pool.end() && it->first <= 2 * size) {
      size = it->first;
      ptr = it->second;
      pool.erase(it);
    } else {
      cudaError_t err = cudaMalloc(&ptr, size);
      if (err == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        release(device);
        err = cudaMalloc(&ptr, size);
      }
      if (err == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        size_t free_bytes = 0, total = 0;
        cudaMemGetInfo(&free_bytes, &total);
        TORCH_CHECK(false, "CUDA out of memory. Tried to allocate ", nbytes >> 20, " MiB on cuda:", device,
                    " (", free_bytes >> 20, " MiB free of ", total >> 20, " MiB; ", allocated_[device] >> 20,
                    " MiB held by tensors)");
      }
      C10_CUDA_CHECK(err);
    }
    live_[ptr] = Block{size, device};
    allocated_[device] += static_cast<int64_t>(size);
    return c10::DataPtr(ptr, ptr, &CachingAllocator::free_block, c10::Device(c10::DeviceType::CUDA, device));
  }

  int64_t allocated(int device) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return device < static_cast<int>(allocated_.size()) ? allocated_[device] : 0;
  }

  void empty_cache() const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int d = 0; d < static_cast<int>(pools_.size()); ++d) release(d);
  }

  static CachingAllocator& get() {
    static auto* instance = new CachingAllocator();  // never destroyed: tensors may outlive static teardown
    return *instance;
  }

 private:
  static void free_block(void* ptr) { get().give_back(ptr); }

  void give_back(void* ptr) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(ptr);
    if (it == live_.end()) return;
    const Block b = it->second;
    live_.erase(it);
    allocated_[b.device] -= static_cast<int64_t>(b.size);
    pool_for(b.device).emplace(b.size, ptr);
  }

  std::multimap<size_t, void*>& pool_for(int device) const {
    if (pools_.size() <= static_cast<size_t>(device)) {
      pools_.resize(device + 1);
      allocated_.resize(device + 1, 0);
    }
    return pools_[device];
  }

  void release(int device) const {
    if (device >= static_cast<int>(pools_.size())) return;
    CUDAGuard guard(device);
    for (auto& entry : pools_[device]) cudaFree(entry.second);
    pools_[device].clear();
  }

  mutable std::mutex mutex_;
  mutable std::vector<std::multimap<size_t, void*>> pools_;  // per device: size -> free block
  mutable std::unordered_map<void*, Block> live_;
  mutable std::vector<int64_t> allocated_;
};

}  // namespace

c10::Allocator* caching_allocator() { return &CachingAllocator::get(); }
int64_t memory_allocated(int device) { return CachingAllocator::get().allocated(device); }
void empty_cache() { CachingAllocator::get().empty_cache(); }

}  // namespace at::cuda
