#pragma once
// torch.tensor(data): building a tensor from nested Python sequences.
#include "csrc/python_compat.h"

#include <ATen/ATen.h>

#include <optional>

namespace torch {

// Infers the shape from the nesting and, without `dtype`, the dtype from the
// leaves: bool if all are bools, int64 if all are integers, else the default
// float dtype.
at::Tensor tensor_from_data(PyObject* data, std::optional<at::ScalarType> dtype);

PyObject* THPTorch_tensor(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);

}  // namespace torch
