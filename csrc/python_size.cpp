#include "csrc/python_size.h"

#include <string>

namespace torch {
namespace {

PyObject* size_repr(PyObject* self) {
  std::string s = "torch.Size([";
  const Py_ssize_t n = tuple_size(self);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    PyObject* r = PyObject_Repr(tuple_item(self, i));
    if (!r) return nullptr;
    s += utf8(r);
    Py_DECREF(r);
  }
  s += "])";
  return PyUnicode_FromString(s.c_str());
}

PyObject* size_numel(PyObject* self, PyObject*) {
  long long n = 1;
  for (Py_ssize_t i = 0; i < tuple_size(self); ++i) n *= PyLong_AsLongLong(tuple_item(self, i));
  return PyLong_FromLongLong(n);
}

PyObject* size_reduce(PyObject* self, PyObject*) {
  PyObject* t = PyTuple_GetSlice(self, 0, tuple_size(self));
  if (!t) return nullptr;
  return Py_BuildValue("(O(N))", reinterpret_cast<PyObject*>(THPSizeType), t);
}

PyMethodDef size_methods[] = {
    {"numel", size_numel, METH_NOARGS, "The number of elements a tensor of this size holds."},
    {"__reduce__", size_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject* THPSizeType = nullptr;

PyObject* THPSize_New(c10::IntArrayRef sizes) {
  PyObject* self = PyType_GenericAlloc(THPSizeType, static_cast<Py_ssize_t>(sizes.size()));
  if (!self) return nullptr;
  for (size_t i = 0; i < sizes.size(); ++i) {
    PyObject* v = PyLong_FromLongLong(sizes[i]);
    if (!v) {
      Py_DECREF(self);
      return nullptr;
    }
    tuple_set(self, i, v);
  }
  return self;
}

void init_size_type(PyObject* module) {
  static PyType_Slot slots[] = {
      {Py_tp_repr, reinterpret_cast<void*>(size_repr)},
      {Py_tp_methods, size_methods},
      {0, nullptr},
  };
  // Size and item size 0: those of tuple, which it extends.
  static PyType_Spec spec = {"torch.Size", 0, 0, Py_TPFLAGS_DEFAULT, slots};
  THPSizeType = add_type(module, "Size", &spec, reinterpret_cast<PyObject*>(&PyTuple_Type));
}

}  // namespace torch
