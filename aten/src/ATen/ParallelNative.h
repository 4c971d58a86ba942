#pragma once
// What the native thread pool (ParallelNative.cpp) tells Parallel.cpp when the
// build has no OpenMP. Internal to libtorch_cpu.
namespace at::internal {

// OMP_NUM_THREADS when it is a positive number (the variable users already
// set for PyTorch), else the CPUs this process may run on.
int default_num_threads();
// Whether this thread is running a chunk of a parallel_for (a pool worker,
// or the caller while it runs its own chunks).
bool in_pool_region();

}  // namespace at::internal
