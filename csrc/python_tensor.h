#pragma once
// The Python tensor object: torch._C.TensorBase holds an at::Tensor; the
// Python class torch.Tensor (torch/_tensor.py) derives from it and is what
// every op returns.
#include "csrc/python_compat.h"

#include <ATen/ATen.h>

namespace torch {

struct THPVariable {
  PyObject_HEAD
  at::Tensor cdata;
};

extern PyTypeObject* THPVariableBaseType;
// torch.Tensor, registered by torch/_tensor.py through _C._set_tensor_class.
extern PyTypeObject* THPVariableClass;

// torch.Tensor itself first: the common case, without walking the MRO.
inline bool THPVariable_Check(PyObject* obj) {
  return Py_TYPE(obj) == THPVariableClass || PyObject_TypeCheck(obj, THPVariableBaseType);
}
inline const at::Tensor& THPVariable_Unpack(PyObject* obj) { return reinterpret_cast<THPVariable*>(obj)->cdata; }
// A new reference to a Python tensor owning `t`.
PyObject* THPVariable_Wrap(at::Tensor t);

void init_tensor_type(PyObject* module);
PyObject* wrap_int_tuple(c10::IntArrayRef values);
// __getitem__ / __setitem__ (python_indexing.cpp).
PyObject* THPVariable_getitem(PyObject* self, PyObject* index);
int THPVariable_setitem(PyObject* self, PyObject* index, PyObject* value);

PyMethodDef* generated_tensor_methods();
extern PyMethodDef tensor_interop_methods[];  // __dlpack__, __dlpack_device__
extern PyMethodDef tensor_autograd_methods[];  // detach, requires_grad_, ...
extern PyMethodDef tensor_indexing_methods[];  // _index_put_
extern PyGetSetDef tensor_autograd_properties[];  // requires_grad, grad, grad_fn, ...
void init_autograd(PyObject* module);
void init_interop(PyObject* module);
PyMethodDef* generated_torch_functions();
PyMethodDef* generated_nn_functions();
PyMethodDef* generated_linalg_functions();

}  // namespace torch
