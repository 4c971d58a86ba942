#include "csrc/python_device.h"

#include "csrc/Exceptions.h"

#include <string>

namespace torch {
namespace {

PyObject* device_new(PyTypeObject*, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static const char* kwlist[] = {"type", "index", nullptr};
  PyObject* type = nullptr;
  PyObject* index = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O", const_cast<char**>(kwlist), &type, &index)) return nullptr;
  if (THPDevice_Check(type)) {
    Py_INCREF(type);
    return type;
  }
  if (PyLong_Check(type)) {
    PyErr_SetString(PyExc_RuntimeError, "torch.device(int) means a CUDA device index; this build has no CUDA");
    return nullptr;
  }
  if (!PyUnicode_Check(type)) {
    PyErr_Format(PyExc_TypeError, "torch.device(): expected a string, got %s", type_name(Py_TYPE(type)).c_str());
    return nullptr;
  }
  c10::Device d(std::string(utf8(type)));
  if (index != Py_None) {
    if (d.has_index()) {
      PyErr_SetString(PyExc_RuntimeError, "type (string) must not include an index because index was passed explicitly");
      return nullptr;
    }
    long i = PyLong_AsLong(index);
    if (i == -1 && PyErr_Occurred()) return nullptr;
    if (i < 0 || i > 127) {
      PyErr_Format(PyExc_RuntimeError, "Device index must not be negative, got %ld", i);
      return nullptr;
    }
    d.index = static_cast<int8_t>(i);
  }
  return THPDevice_New(d);
  END_HANDLE_TH_ERRORS
}

const c10::Device& unpack(PyObject* self) { return reinterpret_cast<THPDevice*>(self)->device; }

PyObject* device_repr(PyObject* self) {
  const auto& d = unpack(self);
  if (d.has_index())
    return PyUnicode_FromFormat("device(type='%s', index=%d)", c10::toString(d.type), static_cast<int>(d.index));
  return PyUnicode_FromFormat("device(type='%s')", c10::toString(d.type));
}

PyObject* device_str(PyObject* self) { return PyUnicode_FromString(unpack(self).str().c_str()); }

PyObject* device_type(PyObject* self, void*) { return PyUnicode_FromString(c10::toString(unpack(self).type)); }

PyObject* device_index(PyObject* self, void*) {
  if (!unpack(self).has_index()) Py_RETURN_NONE;
  return PyLong_FromLong(unpack(self).index);
}

PyObject* device_richcompare(PyObject* a, PyObject* b, int op) {
  if (!THPDevice_Check(a) || !THPDevice_Check(b) || (op != Py_EQ && op != Py_NE)) Py_RETURN_NOTIMPLEMENTED;
  const bool eq = unpack(a) == unpack(b);
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

Py_hash_t device_hash(PyObject* self) {
  const auto& d = unpack(self);
  return static_cast<Py_hash_t>(static_cast<int>(d.type()) * 256 + d.index + 1);
}

PyObject* device_reduce(PyObject* self, PyObject*) {
  return Py_BuildValue("(O(s))", reinterpret_cast<PyObject*>(THPDeviceType), unpack(self).str().c_str());
}

PyGetSetDef device_getset[] = {
    {"type", device_type, nullptr, nullptr, nullptr},
    {"index", device_index, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef device_methods[] = {
    {"__reduce__", device_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject* THPDeviceType = nullptr;

PyObject* THPDevice_New(c10::Device d) {
  auto* obj = PyObject_New(THPDevice, THPDeviceType);
  if (!obj) return nullptr;
  obj->device = d;
  return reinterpret_cast<PyObject*>(obj);
}

void init_device_type(PyObject* module) {
  static PyType_Slot slots[] = {
      {Py_tp_new, reinterpret_cast<void*>(device_new)},
      {Py_tp_dealloc, reinterpret_cast<void*>(free_instance)},
      {Py_tp_repr, reinterpret_cast<void*>(device_repr)},
      {Py_tp_str, reinterpret_cast<void*>(device_str)},
      {Py_tp_richcompare, reinterpret_cast<void*>(device_richcompare)},
      {Py_tp_hash, reinterpret_cast<void*>(device_hash)},
      {Py_tp_getset, device_getset},
      {Py_tp_methods, device_methods},
      {0, nullptr},
  };
  static PyType_Spec spec = {"torch.device", static_cast<int>(sizeof(THPDevice)), 0, Py_TPFLAGS_DEFAULT, slots};
  THPDeviceType = add_type(module, "device", &spec);
}

}  // namespace torch
