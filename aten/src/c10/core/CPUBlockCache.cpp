#include <c10/core/CPUBlockCache.h>
#include <c10/core/alloc_cpu.h>

#include <mutex>
#ifndef _WIN32
#include <pthread.h>
#endif
#include <unordered_map>
#include <utility>
#include <vector>

// Under AddressSanitizer a cached block is poisoned until it is handed out
// again, so a use after free is still reported (as use-after-poison).
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define TORCH_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define TORCH_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define TORCH_POISON(p, n) ((void)(p), (void)(n))
#define TORCH_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

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
#ifndef _WIN32
    // A fork while another thread holds the lock would leave the child's
    // copy locked forever (DataLoader workers fork; Windows has no fork).
    pthread_atfork([] { cache().mutex.lock(); }, [] { cache().mutex.unlock(); },
                   [] { cache().mutex.unlock(); });
#endif
    return c;
  }();
  return *instance;
}

using Blocks = std::vector<std::pair<void*, size_t>>;

// Takes every cached block out of the cache (the caller holds its lock).
void drain(Cache& c, Blocks& out) {
  for (auto& [size, list] : c.free_blocks)
    for (void* block : list) out.emplace_back(block, size);
  c.free_blocks.clear();
  c.bytes = 0;
  c.blocks = 0;
}

void release(const Blocks& blocks) {
  for (auto [block, size] : blocks) {
    TORCH_UNPOISON(block, size);
    free_aligned(block);
  }
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
  TORCH_UNPOISON(block, size);
  return block;
}

void give(void* block, size_t size) {
  Cache& c = cache();
  Blocks released;
  TORCH_POISON(block, size);
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    // Full of sizes the program stopped asking for (a new sequence length,
    // a new batch size): start over with the sizes it uses now.
    if (c.bytes + size > kCapacity) drain(c, released);
    c.free_blocks[size].push_back(block);
    c.bytes += size;
    c.blocks += 1;
  }
  release(released);
}

Stats stats() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return {c.blocks, static_cast<int64_t>(c.bytes)};
}

void empty() {
  Cache& c = cache();
  Blocks released;
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    drain(c, released);
  }
  release(released);
}

}  // namespace c10::cpu_block_cache
