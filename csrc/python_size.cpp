#include "csrc/python_size.h"

#include <string>

namespace torch {
namespace {

PyObject* size_repr(PyObject* self) {
  std::string s = "torch.Size([";
  const Py_ssize_t n = PyTuple_GET_SIZE(self);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    PyObject* r = PyObject_Repr(PyTuple_GET_ITEM(self, i));
    if (!r) return nullptr;
    s += PyUnicode_AsUTF8(r);
    Py_DECREF(r);
  }
  s += "])";
  return PyUnicode_FromString(s.c_str());
}

PyObject* size_numel(PyObject* self, PyObject*) {
  long long n = 1;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self); ++i) n *= PyLong_AsLongLong(PyTuple_GET_ITEM(self, i));
  return PyLong_FromLongLong(n);
}

PyObject* size_reduce(PyObject* self, PyObject*) {
  PyObject* t = PyTuple_GetSlice(self, 0, PyTuple_GET_SIZE(self));
  if (!t) return nullptr;
  return Py_BuildValue("(O(N))", reinterpret_cast<PyObject*>(&THPSizeType), t);
}

PyMethodDef size_methods[] = {
    {"numel", size_numel, METH_NOARGS, "The number of elements a tensor of this size holds."},
    {"__reduce__", size_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject THPSizeType = {PyVarObject_HEAD_INIT(nullptr, 0) "torch.Size"};

PyObject* THPSize_New(c10::IntArrayRef sizes) {
  PyObject* self = THPSizeType.tp_alloc(&THPSizeType, static_cast<Py_ssize_t>(sizes.size()));
  if (!self) return nullptr;
  for (size_t i = 0; i < sizes.size(); ++i) {
    PyObject* v = PyLong_FromLongLong(sizes[i]);
    if (!v) {
      Py_DECREF(self);
      return nullptr;
    }
    PyTuple_SET_ITEM(self, i, v);
  }
  return self;
}

void init_size_type(PyObject* module) {
  THPSizeType.tp_base = &PyTuple_Type;
  THPSizeType.tp_flags = Py_TPFLAGS_DEFAULT;
  THPSizeType.tp_repr = size_repr;
  THPSizeType.tp_methods = size_methods;
  if (PyType_Ready(&THPSizeType) < 0) return;
  Py_INCREF(&THPSizeType);
  PyModule_AddObject(module, "Size", reinterpret_cast<PyObject*>(&THPSizeType));
}

}  // namespace torch
