#pragma once
// c10::cuda::CUDAStream and getCurrentCUDAStream(), as PyTorch names them.
#include <ATen/cuda/CUDAContext.h>

namespace c10::cuda {
using at::cuda::CUDAStream;
using at::cuda::getCurrentCUDAStream;
using at::cuda::getDefaultCUDAStream;
}  // namespace c10::cuda
