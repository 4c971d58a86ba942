#pragma once
// What a C++ extension includes: the tensor API (ATen) and operator
// registration (TORCH_LIBRARY). Nothing here needs Python: an extension
// library built on it serves every Python version of its torch.
#include <ATen/ATen.h>
#include <torch/library.h>
