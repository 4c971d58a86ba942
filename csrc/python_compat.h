#pragma once
// The CPython API as libtorch_python uses it: the stable ABI.
//
// The build defines Py_LIMITED_API=0x03090000 (USE_PYTHON_LIMITED_API, on by
// default), so one libtorch_python serves every CPython from 3.9 on and the
// wheel factory compiles it once per variant instead of once per Python.
// The same sources also build against the full API (USE_PYTHON_LIMITED_API=0,
// for free-threaded or debug interpreters, where abi3 does not exist): the
// helpers below are the only places that differ.
#include <Python.h>

#include <string>

#if defined(Py_LIMITED_API) && Py_LIMITED_API + 0 < 0x030A0000
// Two things that joined the stable ABI in 3.10 but exist, with the same
// binary interface, in every CPython this library loads into (3.7+):
// the METH_FASTCALL calling convention of the generated bindings, and
// PyUnicode_AsUTF8AndSize, which reads a str without a temporary bytes object.
#ifndef METH_FASTCALL
#define METH_FASTCALL 0x0080
#endif
extern "C" PyAPI_FUNC(const char*) PyUnicode_AsUTF8AndSize(PyObject* unicode, Py_ssize_t* size);
#endif

namespace torch {

// Borrowed item i of a tuple / a PySequence_Fast result (index in range).
inline PyObject* tuple_item(PyObject* tuple, Py_ssize_t i) {
#ifdef Py_LIMITED_API
  return PyTuple_GetItem(tuple, i);
#else
  return PyTuple_GET_ITEM(tuple, i);
#endif
}

inline Py_ssize_t tuple_size(PyObject* tuple) {
#ifdef Py_LIMITED_API
  return PyTuple_Size(tuple);
#else
  return PyTuple_GET_SIZE(tuple);
#endif
}

// Stores a new reference into a fresh tuple / list (steals `item`).
inline void tuple_set(PyObject* tuple, Py_ssize_t i, PyObject* item) {
#ifdef Py_LIMITED_API
  PyTuple_SetItem(tuple, i, item);
#else
  PyTuple_SET_ITEM(tuple, i, item);
#endif
}

inline void list_set(PyObject* list, Py_ssize_t i, PyObject* item) {
#ifdef Py_LIMITED_API
  PyList_SetItem(list, i, item);
#else
  PyList_SET_ITEM(list, i, item);
#endif
}

// A list or a tuple (PySequence_Fast's result, or either's subclass).
inline bool is_list(PyObject* obj) { return Py_TYPE(obj) == &PyList_Type || PyList_Check(obj); }

inline Py_ssize_t fast_size(PyObject* fast) { return is_list(fast) ? PyList_Size(fast) : tuple_size(fast); }

inline PyObject* fast_item(PyObject* fast, Py_ssize_t i) {
  return is_list(fast) ? PyList_GetItem(fast, i) : tuple_item(fast, i);
}

// The UTF-8 text of a str (nullptr with a Python error set otherwise); the
// buffer lives as long as the str.
inline const char* utf8(PyObject* str) { return PyUnicode_AsUTF8AndSize(str, nullptr); }

// What CPython's tp_name holds, for error messages: "int", "numpy.ndarray",
// a class's plain name.
std::string type_name(PyTypeObject* type);

// A heap type from a spec (every type libtorch_python defines is one, as the
// stable ABI requires), added to `module` as `attr`; a borrowed reference
// (the module keeps it alive), or nullptr with a Python error set.
PyTypeObject* add_type(PyObject* module, const char* attr, PyType_Spec* spec, PyObject* base = nullptr);

// Allocation and release of instances of the (heap) types above and their
// Python subclasses; the dealloc also drops the instance's reference to its
// type, which heap types own.
PyObject* alloc_instance(PyTypeObject* type);
void free_instance(PyObject* self);

}  // namespace torch
