#pragma once
// PyTorch's C++ API, its tensor part: torch::Tensor, the torch:: operator
// and factory functions, autograd on tensors, torch::cuda. The C++ modules,
// optimizers, data loaders and serialization of PyTorch's frontend
// (torch/nn.h, torch/optim.h, torch/data.h, torch/serialize.h) are not part
// of this build: including one of them stops with an #error that says so.
#include <torch/cuda.h>
#include <torch/types.h>
