#pragma once
// The pybind11 form of an extension, as PyTorch's tutorial writes it:
//
//   torch::Tensor forward(torch::Tensor x, std::vector<torch::Tensor> state);
//   PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &forward); }
//
// Casters convert torch.Tensor <-> torch::Tensor (None <-> an undefined
// one), and Python numbers <-> torch::Scalar; pybind11/stl.h adds lists,
// tuples and optionals of them. Such a module uses CPython's API, so it is
// built for one Python version (not py_limited_api) and links libtorch_python
// (torch.utils.cpp_extension does both). pybind11's headers ship in
// torch/include, as PyTorch ships them. An error a function raises reaches
// Python as torch's own bindings raise it: TORCH_CHECK a RuntimeError,
// TORCH_CHECK_VALUE a ValueError, TORCH_CHECK_INDEX an IndexError, ...
#include <Python.h>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <torch/python_interop.h>
#include <torch/types.h>

#include <vector>

namespace py = pybind11;

namespace pybind11::detail {

template <>
struct type_caster<at::Tensor> {
 public:
  PYBIND11_TYPE_CASTER(at::Tensor, const_name("torch.Tensor"));

  bool load(handle src, bool) {
    if (!torch::python::is_tensor(src.ptr())) return false;
    value = torch::python::unpack_tensor(src.ptr());
    return true;
  }
  static handle cast(const at::Tensor& src, return_value_policy, handle) {
    return handle(torch::python::wrap_tensor(src));
  }
};

template <>
struct type_caster<at::Scalar> {
 public:
  PYBIND11_TYPE_CASTER(at::Scalar, const_name("Union[bool, int, float]"));

  bool load(handle src, bool) {
    PyObject* obj = src.ptr();
    if (PyBool_Check(obj)) {
      value = at::Scalar(obj == Py_True);
    } else if (PyLong_Check(obj)) {
      const long long v = PyLong_AsLongLong(obj);
      if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
      }
      value = at::Scalar(static_cast<int64_t>(v));
    } else if (PyFloat_Check(obj)) {
      value = at::Scalar(PyFloat_AsDouble(obj));
    } else {
      return false;
    }
    return true;
  }
  static handle cast(const at::Scalar& src, return_value_policy, handle) {
    if (src.isBoolean()) return handle(PyBool_FromLong(src.toBool()));
    if (src.isIntegral(false)) return handle(PyLong_FromLongLong(src.toLong()));
    return handle(PyFloat_FromDouble(src.toDouble()));
  }
};

// An IntArrayRef argument reads a Python sequence of ints (torch.Size included).
template <>
struct type_caster<at::IntArrayRef> {
 public:
  PYBIND11_TYPE_CASTER(at::IntArrayRef, const_name("List[int]"));

  bool load(handle src, bool convert) {
    list_caster<std::vector<int64_t>, int64_t> items;
    if (!items.load(src, convert)) return false;
    storage_ = std::move(static_cast<std::vector<int64_t>&>(items));
    value = at::IntArrayRef(storage_);
    return true;
  }
  static handle cast(at::IntArrayRef src, return_value_policy policy, handle parent) {
    return list_caster<std::vector<int64_t>, int64_t>::cast(src.vec(), policy, parent);
  }

 private:
  std::vector<int64_t> storage_;
};

}  // namespace pybind11::detail

namespace torch::python::detail {
// c10's errors as their Python exceptions; anything else goes on to
// pybind11's own translators (a std::exception is a RuntimeError there).
inline void translate_c10_error(std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const c10::Error&) {
    torch::translate_exception();
  }
}
// Registered when the module is loaded (import holds the GIL), once per module.
inline const bool c10_errors_registered = [] {
  pybind11::register_exception_translator(&translate_c10_error);
  return true;
}();
}  // namespace torch::python::detail
