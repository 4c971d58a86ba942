#pragma once
// The Python tensor object of libtorch_python, for extension modules that
// use CPython's API (the pybind11 casters of torch/python.h): exported by
// libtorch_python, which such a module links.
#include <Python.h>

#include <ATen/ATen.h>

namespace torch {
// Sets the Python exception matching the C++ exception being handled
// (c10::ValueError -> ValueError, ...), as torch's own bindings do.
TORCH_PYTHON_API void translate_exception();
}  // namespace torch

namespace torch::python {
TORCH_PYTHON_API bool is_tensor(PyObject* obj);
// The tensor of a torch.Tensor (a TypeError for anything else).
TORCH_PYTHON_API at::Tensor unpack_tensor(PyObject* obj);
// A new reference: the Python tensor of `t` (None for an undefined tensor).
TORCH_PYTHON_API PyObject* wrap_tensor(const at::Tensor& t);
}  // namespace torch::python
