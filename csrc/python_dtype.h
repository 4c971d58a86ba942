#pragma once
// torch.dtype objects: one immortal instance per ScalarType (torch.float32, ...).
#include "csrc/python_compat.h"

#include <c10/core/ScalarType.h>

namespace torch {

struct THPDtype {
  PyObject_HEAD
  c10::ScalarType scalar_type;
};

extern PyTypeObject* THPDtypeType;
inline bool THPDtype_Check(PyObject* obj) { return Py_TYPE(obj) == THPDtypeType; }
// A borrowed reference to the dtype object of `t`.
PyObject* THPDtype_Get(c10::ScalarType t);
void init_dtypes(PyObject* module);

}  // namespace torch
