#pragma once
// What a C++ extension includes, as in PyTorch: the tensor API (torch/all.h:
// torch::Tensor, the torch:: and at:: functions), operator registration
// (TORCH_LIBRARY, torch/library.h) and, when the extension is a Python
// module of its own (compiled with Python's headers, not py_limited_api),
// pybind11 with the torch casters (torch/python.h). The first two need no
// Python: a library built on them serves every Python version of its torch.
#include <torch/all.h>
#include <torch/library.h>

#if !defined(Py_LIMITED_API) && defined(__has_include)
#if __has_include(<Python.h>) && __has_include(<pybind11/pybind11.h>)
#include <torch/python.h>
#endif
#endif
