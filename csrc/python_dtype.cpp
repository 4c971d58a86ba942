#include "csrc/python_dtype.h"

#include "csrc/Exceptions.h"

#include <string>

namespace torch {
namespace {

PyObject* dtype_objects[c10::kNumScalarTypes] = {};

PyObject* dtype_repr(PyObject* self) {
  return PyUnicode_FromFormat("torch.%s", c10::pythonName(reinterpret_cast<THPDtype*>(self)->scalar_type));
}

PyObject* dtype_is_floating_point(PyObject* self, void*) {
  return PyBool_FromLong(c10::isFloatingType(reinterpret_cast<THPDtype*>(self)->scalar_type));
}

PyObject* dtype_is_complex(PyObject* self, void*) {
  return PyBool_FromLong(c10::isComplexType(reinterpret_cast<THPDtype*>(self)->scalar_type));
}

// dtype.to_real(): complex64 -> float32; dtype.to_complex(): float32 -> complex64.
PyObject* dtype_to_real(PyObject* self, PyObject*) {
  PyObject* d = THPDtype_Get(c10::toRealValueType(reinterpret_cast<THPDtype*>(self)->scalar_type));
  Py_INCREF(d);
  return d;
}

PyObject* dtype_to_complex(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  PyObject* d = THPDtype_Get(c10::toComplexType(reinterpret_cast<THPDtype*>(self)->scalar_type));
  Py_INCREF(d);
  return d;
  END_HANDLE_TH_ERRORS
}

PyObject* dtype_is_signed(PyObject* self, void*) {
  return PyBool_FromLong(c10::isSignedType(reinterpret_cast<THPDtype*>(self)->scalar_type));
}

PyObject* dtype_itemsize(PyObject* self, void*) {
  return PyLong_FromSize_t(c10::elementSize(reinterpret_cast<THPDtype*>(self)->scalar_type));
}

PyObject* dtype_reduce(PyObject* self, PyObject*) {
  // Pickles as the attribute of the torch module that names it.
  return PyUnicode_FromString(c10::pythonName(reinterpret_cast<THPDtype*>(self)->scalar_type));
}

PyGetSetDef dtype_getset[] = {
    {"is_floating_point", dtype_is_floating_point, nullptr, nullptr, nullptr},
    {"is_complex", dtype_is_complex, nullptr, nullptr, nullptr},
    {"is_signed", dtype_is_signed, nullptr, nullptr, nullptr},
    {"itemsize", dtype_itemsize, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef dtype_methods[] = {
    {"__reduce__", dtype_reduce, METH_NOARGS, nullptr},
    {"to_real", dtype_to_real, METH_NOARGS, nullptr},
    {"to_complex", dtype_to_complex, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject* THPDtypeType = nullptr;

PyObject* THPDtype_Get(c10::ScalarType t) { return dtype_objects[static_cast<int>(t)]; }

void init_dtypes(PyObject* module) {
  static PyType_Slot slots[] = {
      {Py_tp_repr, reinterpret_cast<void*>(dtype_repr)},
      {Py_tp_getset, dtype_getset},
      {Py_tp_methods, dtype_methods},
      {0, nullptr},
  };
  static PyType_Spec spec = {"torch.dtype", static_cast<int>(sizeof(THPDtype)), 0, Py_TPFLAGS_DEFAULT, slots};
  THPDtypeType = add_type(module, "dtype", &spec);
  if (!THPDtypeType) return;
  for (int i = 0; i < c10::kNumScalarTypes; ++i) {
    auto* obj = PyObject_New(THPDtype, THPDtypeType);
    obj->scalar_type = static_cast<c10::ScalarType>(i);
    dtype_objects[i] = reinterpret_cast<PyObject*>(obj);  // kept for the life of the process
    Py_INCREF(obj);
    PyModule_AddObject(module, c10::pythonName(obj->scalar_type), reinterpret_cast<PyObject*>(obj));
  }
}

}  // namespace torch
