#pragma once
// C++ results -> new Python references.
#include <Python.h>

#include <ATen/ATen.h>

#include "csrc/python_tensor.h"

#include <tuple>
#include <utility>

namespace torch {

inline PyObject* wrap(at::Tensor t) { return THPVariable_Wrap(std::move(t)); }

inline PyObject* wrap(const at::Scalar& s) {
  if (s.isFloatingPoint()) return PyFloat_FromDouble(s.toDouble());
  if (s.isBoolean()) return PyBool_FromLong(s.toBool());
  return PyLong_FromLongLong(s.toLong());
}

inline PyObject* wrap(bool v) { return PyBool_FromLong(v); }
inline PyObject* wrap(int64_t v) { return PyLong_FromLongLong(v); }
inline PyObject* wrap(double v) { return PyFloat_FromDouble(v); }

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
  for (size_t i = 0; i < n; ++i) PyTuple_SET_ITEM(tuple, i, items[i]);
  return tuple;
}

template <typename... Ts>
PyObject* wrap(std::tuple<Ts...> values) {
  return wrap_tuple(values, std::index_sequence_for<Ts...>{});
}

}  // namespace torch
