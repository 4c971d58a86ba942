#pragma once
// C10_CUDA_CHECK(expr) and C10_CUDA_KERNEL_LAUNCH_CHECK().
#include <ATen/cuda/CUDAContext.h>
