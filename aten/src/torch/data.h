#pragma once
#error "<torch/data.h> is not part of this torch build: the C++ data loaders (torch::data) is out of scope. Its C++ API covers tensors (torch::Tensor, the torch:: functions and factories), autograd on tensors, TORCH_LIBRARY operators and pybind11 bindings (docs/EXTENSIONS.md); write this part in Python."
