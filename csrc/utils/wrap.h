#pragma once
// C++ results -> new Python references.
#include "csrc/python_compat.h"

#include <ATen/ATen.h>

#include "csrc/python_tensor.h"

#include <tuple>
#include <utility>

namespace torch {

inline PyObject* wrap(at::Tensor t) { return THPVariable_Wrap(std::move(t)); }

// Whether an op on these tensors is worth releasing the GIL for (see MaybeGILRelease).
inline bool worth_releasing_gil(std::initializer_list<const at::Tensor*> tensors) {
  constexpr int64_t kSmall = 4096;
  for (const at::Tensor* t : tensors)
    if (t->defined() && t->numel() > kSmall) return true;
  return false;
}

inline PyObject* wrap(const at::Scalar& s) {
  if (s.isFloatingPoint()) return PyFloat_FromDouble(s.toDouble());
  if (s.isBoolean()) return PyBool_FromLong(s.toBool());
  return PyLong_FromLongLong(s.toLong());
}

inline PyObject* wrap(bool v) { return PyBool_FromLong(v); }
inline PyObject* wrap(int64_t v) { return PyLong_FromLongLong(v); }
inline PyObject* wrap(double v) { return PyFloat_FromDouble(v); }

inline PyObject* wrap(std::vector<at::Tensor> tensors) {
  PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(tensors.size()));
  if (!tuple) return nullptr;
  for (size_t i = 0; i < tensors.size(); ++i) {
    PyObject* item = wrap(std::move(tensors[i]));
    if (!item) {
      Py_DECREF(tuple);
      return nullptr;
    }
    tuple_set(tuple, i, item);
  }
  return tuple;
}

// A structseq type "torch.return_types.<op>" with the given field names,
// created once per op (the generated bindings keep it in a static).
PyTypeObject* named_tuple_type(const char* name, std::initializer_list<const char*> fields);

template <typename Tuple, size_t... I>
PyObject* wrap_tuple(Tuple& values, std::index_sequence<I...>) {
  constexpr size_t n = sizeof...(I);
  PyObject* items[n] = {wrap(std::move(std::get<I>(values)))...};
  PyObject* tuple = PyTuple_New(n);
  for (size_t i = 0; i < n; ++i) {
    if (!tuple || !items[i]) {
      for (size_t j = 0; j < n; ++j) Py_XDECREF(items[j]);
      Py_XDECREF(tuple);
      return nullptr;
    }
  }
  for (size_t i = 0; i < n; ++i) tuple_set(tuple, i, items[i]);
  return tuple;
}

template <typename... Ts>
PyObject* wrap(std::tuple<Ts...> values) {
  return wrap_tuple(values, std::index_sequence_for<Ts...>{});
}

template <typename... Ts>
PyObject* wrap(std::tuple<Ts...> values, PyTypeObject* named) {
  if (!named) return nullptr;
  PyObject* plain = wrap(std::move(values));
  if (!plain) return nullptr;
  PyObject* result = PyStructSequence_New(named);
  if (!result) {
    Py_DECREF(plain);
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < tuple_size(plain); ++i) {
    PyObject* item = tuple_item(plain, i);
    Py_INCREF(item);
    PyStructSequence_SetItem(result, i, item);
  }
  Py_DECREF(plain);
  return result;
}

}  // namespace torch
