#include "csrc/python_compat.h"

#include <utility>
#include <vector>

namespace torch {
namespace {

// Our own types' full names ("torch.Size"): the stable ABI has no tp_name,
// and a heap type's __name__ drops the module.
std::vector<std::pair<PyTypeObject*, const char*>>& own_types() {
  static std::vector<std::pair<PyTypeObject*, const char*>> types;
  return types;
}

std::string str_attr(PyObject* obj, const char* name) {
  PyObject* value = PyObject_GetAttrString(obj, name);
  const char* text = value && PyUnicode_Check(value) ? utf8(value) : nullptr;
  std::string out = text ? text : "";
  Py_XDECREF(value);
  PyErr_Clear();
  return out;
}

}  // namespace

std::string type_name(PyTypeObject* type) {
  for (const auto& [t, name] : own_types())
    if (t == type) return name;
  // Called while building an error message: keep any pending error intact.
  PyObject *err_type, *err_value, *err_tb;
  PyErr_Fetch(&err_type, &err_value, &err_tb);
  auto* obj = reinterpret_cast<PyObject*>(type);
  std::string name = str_attr(obj, "__name__");
  // CPython's tp_name: a class defined in Python has its plain name; a type
  // defined in C is "module.name" unless it is a builtin.
  if (!(PyType_GetFlags(type) & Py_TPFLAGS_HEAPTYPE)) {
    const std::string module = str_attr(obj, "__module__");
    if (!module.empty() && module != "builtins") name = module + "." + name;
  }
  PyErr_Restore(err_type, err_value, err_tb);
  return name;
}

PyTypeObject* add_type(PyObject* module, const char* attr, PyType_Spec* spec, PyObject* base) {
  PyObject* type = nullptr;
  if (base) {
    PyObject* bases = PyTuple_Pack(1, base);  // 3.9 takes only a tuple
    if (!bases) return nullptr;
    type = PyType_FromSpecWithBases(spec, bases);
    Py_DECREF(bases);
  } else {
    type = PyType_FromSpec(spec);
  }
  if (!type) return nullptr;
  if (PyModule_AddObject(module, attr, type) < 0) {  // steals the reference on success
    Py_DECREF(type);
    return nullptr;
  }
  own_types().emplace_back(reinterpret_cast<PyTypeObject*>(type), spec->name);
  return reinterpret_cast<PyTypeObject*>(type);
}

PyObject* alloc_instance(PyTypeObject* type) { return PyType_GenericAlloc(type, 0); }

void free_instance(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  auto free_fn = reinterpret_cast<freefunc>(PyType_GetSlot(type, Py_tp_free));
  free_fn(self);
  Py_DECREF(type);
}

}  // namespace torch
