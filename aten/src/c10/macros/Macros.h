#pragma once
// C10_HOST_DEVICE marks the scalar math that CPU and CUDA kernels share: one
// functor, compiled by the host compiler for the CPU kernels and by nvcc for
// both sides in libtorch_cuda, so the CPU tests check the device arithmetic.
#if defined(__CUDACC__)
#define C10_HOST_DEVICE __host__ __device__
#else
#define C10_HOST_DEVICE
#endif
