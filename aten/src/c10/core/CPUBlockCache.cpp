#include <c10/core/CPUBlockCache.h>

#include <cstdlib>
#include <mutex>
#include <pthread.h>
#include <unordered_map>
#include <vector>

namespace c10::cpu_block_cache {
namespace {

constexpr size_t kPage = 4096;
constexpr size_t kSmallest = size_t{64} << 10;
constexpr size_t kLargest = size_t{64} << 20;
constexpr size_t kCapacity = size_t{256} << 20;

struct Cache {
  std::mutex mutex;
  std::unordered_map<size_t, std::vector<void*>> free_blocks;  // by size
  size_t bytes = 0;
  int64_t blocks = 0;
};

Cache& cache() {
  // Never destroyed: tensors freed while the interpreter shuts down still
  // find it.
  static Cache* instance = [] {
    auto* c = new Cache;
    // A fork while another thread holds the lock would leave the child's
    // copy locked forever (DataLoader workers fork).
    pthread_atfork([] { cache().mutex.lock(); }, [] { cache().mutex.unlock(); },
                   [] { cache().mutex.unlock(); });
    return c;
  }();
  return *instance;
}

}  // namespace

size_t cached_size(size_t nbytes) {
  if (nbytes < kSmallest || nbytes > kLargest) return 0;
  return (nbytes + kPage - 1) / kPage * kPage;
}

void* take(size_t size) {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.free_blocks.find(size);
  if (it == c.free_blocks.end() || it->second.empty()) return nullptr;
  void* block = it->second.back();
  it->second.pop_back();
  c.bytes -= size;
  c.blocks -= 1;
  return block;
}

void give(void* block, size_t size) {
  Cache& c = cache();
  std::vector<void*> released;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.bytes + size > kCapacity) {
      // Full of sizes the program stopped asking for (a new sequence length,
      // a new batch size): start over with the sizes it uses now.
      for (auto& [s, list] : c.free_blocks) released.insert(released.end(), list.begin(), list.end());
      c.free_blocks.clear();
      c.bytes = 0;
      c.blocks = 0;
    }
    c.free_blocks[size].push_back(block);
    c.bytes += size;
    c.blocks += 1;
  }
  for (void* old : released) std::free(old);
}

Stats stats() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return {c.blocks, static_cast<int64_t>(c.bytes)};
}

void empty() {
  Cache& c = cache();
  std::vector<void*> released;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    for (auto& [size, list] : c.free_blocks) released.insert(released.end(), list.begin(), list.end());
    c.free_blocks.clear();
    c.bytes = 0;
    c.blocks = 0;
  }
  for (void* block : released) std::free(block);
}

}  // namespace c10::cpu_block_cache
