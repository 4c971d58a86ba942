#pragma once
#error "<torch/optim.h> is not part of this torch build: the C++ optimizers (torch::optim) is out of scope. Its C++ API covers tensors (torch::Tensor, the torch:: functions and factories), autograd on tensors, TORCH_LIBRARY operators and pybind11 bindings (docs/EXTENSIONS.md); write this part in Python."
