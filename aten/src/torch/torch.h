#pragma once
// PyTorch's umbrella header: here, the tensor API of torch/all.h.
#include <torch/all.h>
