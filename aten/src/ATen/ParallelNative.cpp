// parallel_for's native backend: a pool of workers that, with the calling
// thread, take the chunks of one call at a time from an atomic counter. Used
// where the compiler has no OpenMP (zig's clang for the macOS and Windows
// wheels); an OpenMP build compiles none of it (ParallelOpenMP.cpp).
//
// Each call is a Job the workers hold by shared_ptr, so a worker that wakes
// late for a finished call finds no chunk left in that call's counter and
// can never run the next call's chunks with the old body. Idle workers spin
// briefly before they sleep, as OpenMP's do, so back-to-back kernels do not
// pay a wake-up each. A second thread calling while a call runs (two Python
// threads, each in an op) runs its own range serially instead of waiting.
#include <ATen/Parallel.h>
#include <ATen/ParallelNative.h>

#ifndef _OPENMP

#include <c10/util/Exception.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif
#if !defined(_WIN32)
#include <pthread.h>
#endif

namespace at::internal {
namespace {

thread_local bool in_region = false;

struct RegionGuard {
  RegionGuard() { in_region = true; }
  ~RegionGuard() { in_region = false; }
};

struct Job {
  ChunkFn fn;
  int64_t begin, end, chunk, chunks;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> remaining;
  std::mutex error_mutex;
  std::exception_ptr error;

  Job(ChunkFn f, int64_t b, int64_t e, int64_t c, int64_t n) : fn(f), begin(b), end(e), chunk(c), chunks(n), remaining(n) {}

  // Runs chunks until none is left; true when this thread finished the last one.
  bool run_chunks() {
    bool finished_last = false;
    for (int64_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < chunks;) {
      const int64_t b = begin + i * chunk, e = std::min(end, b + chunk);
      try {
        fn.call(fn.body, b, e);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
      finished_last = remaining.fetch_sub(1, std::memory_order_acq_rel) == 1;
    }
    return finished_last;
  }
};

// How long an idle worker (or a caller waiting for the last chunk) keeps
// checking before it sleeps: about as long as a short kernel.
constexpr int kSpins = 2000;

class Pool {
 public:
  // Throws c10::Error when the system will not start that many threads
  // (set_num_threads(100000)), after stopping those it did start.
  explicit Pool(int workers) {
    threads_.reserve(workers);
    try {
      for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
    } catch (const std::system_error& e) {
      const size_t started = threads_.size();
      stop();
      TORCH_CHECK(false, "parallel_for: could not start ", workers, " threads (", started,
                  " started): ", e.what(), "; ask for fewer with torch.set_num_threads");
    }
  }

  ~Pool() { stop(); }

  int size() const { return static_cast<int>(threads_.size()); }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

  void run(const std::shared_ptr<Job>& job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = job;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    bool last;
    {
      RegionGuard region;
      last = job->run_chunks();
    }
    if (!last) {
      for (int spin = 0; spin < kSpins && job->remaining.load(std::memory_order_acquire) != 0; ++spin) {
        std::this_thread::yield();
      }
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, [&] { return job->remaining.load(std::memory_order_acquire) == 0; });
    }
    std::lock_guard<std::mutex> lock(mutex_);
    job_.reset();  // the body it points to lives only for this call
  }

 private:
  void work() {
    in_region = true;  // a kernel inside a chunk runs serially
    uint64_t seen = 0;
    for (;;) {
      for (int spin = 0; spin < kSpins && generation_.load(std::memory_order_acquire) == seen; ++spin) {
        std::this_thread::yield();
      }
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_.load(std::memory_order_relaxed) != seen; });
        if (stop_) return;
        seen = generation_.load(std::memory_order_relaxed);
        job = job_;
      }
      if (job && job->run_chunks()) {
        std::lock_guard<std::mutex> lock(mutex_);  // the caller checks under this lock
        done_.notify_all();
      }
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<uint64_t> generation_{0};
  std::shared_ptr<Job> job_;
  bool stop_ = false;
};

std::mutex pool_mutex;  // one call on the pool at a time
Pool* pool = nullptr;   // grown to the thread count a call asks for

#if !defined(_WIN32)
// A forked child has none of the parent's threads: it starts a pool of its
// own when it first needs one (the parent's object is left behind, unjoined).
void forget_pool_in_child() {
  pool = nullptr;
  new (&pool_mutex) std::mutex();
}
[[maybe_unused]] const bool fork_handler_registered = [] {
  pthread_atfork(nullptr, nullptr, forget_pool_in_child);
  return true;
}();
#endif

}  // namespace

int default_num_threads() {
  static const int n = [] {
    if (const char* env = std::getenv("OMP_NUM_THREADS")) {
      const int v = std::atoi(env);
      if (v > 0) return v;
    }
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
    const unsigned hw = std::thread::hardware_concurrency();
    return hw > 0 ? static_cast<int>(hw) : 1;
  }();
  return n;
}

bool in_pool_region() { return in_region; }

void parallel_run(int64_t begin, int64_t end, int threads, ChunkFn fn) {
  const int64_t n = end - begin;
  const int64_t chunk = (n + threads - 1) / threads, chunks = (n + chunk - 1) / chunk;
  std::unique_lock<std::mutex> lock(pool_mutex, std::try_to_lock);
  if (!lock.owns_lock()) {  // another thread's call is running: this one runs alone
    RegionGuard region;
    fn.call(fn.body, begin, end);
    return;
  }
  const int workers = static_cast<int>(chunks) - 1;
  if (pool == nullptr || pool->size() < workers) {
    delete pool;
    pool = nullptr;
    pool = new Pool(workers);
  }
  auto job = std::make_shared<Job>(fn, begin, end, chunk, chunks);
  pool->run(job);
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace at::internal

#endif  // _OPENMP
