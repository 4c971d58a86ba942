#pragma once
// torch._C's side of torch.ops: calling operators that C++ libraries
// registered with TORCH_LIBRARY (ATen/core/dispatcher.h).
#include "csrc/python_compat.h"

namespace torch {
void init_ops(PyObject* module);
}
