#pragma once
// torch.Size: a tuple subclass, built directly in C so `t.shape` is cheap.
#include "csrc/python_compat.h"

#include <c10/util/ArrayRef.h>

namespace torch {

extern PyTypeObject* THPSizeType;
PyObject* THPSize_New(c10::IntArrayRef sizes);
void init_size_type(PyObject* module);

}  // namespace torch
