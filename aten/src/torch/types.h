#pragma once
// torch::Tensor and the torch:: functions, as PyTorch's C++ API spells them:
// every at:: name is a torch:: name (torch::sigmoid, torch::cat,
// torch::Scalar, torch::kCUDA), and the factories take TensorOptions and
// honour requires_grad (torch/variable_factories.h, generated from
// native_functions.yaml).
#include <ATen/ATen.h>
#include <torch/variable_factories.h>

namespace torch {

using namespace at;  // NOLINT: PyTorch's torch:: is ATen's API

// PyTorch's dtype names (torch.float32 is torch::kFloat32).
constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;
constexpr auto kBFloat16 = at::kBFloat16;

using Dtype = at::ScalarType;

}  // namespace torch
