#include "csrc/tensor_new.h"

#include "csrc/Exceptions.h"
#include "csrc/python_tensor.h"
#include "csrc/utils/python_arg_parser.h"

#include <ATen/Dispatch.h>
#include <ATen/autograd/Variable.h>

#include <vector>

namespace torch {
namespace {

bool is_leaf(PyObject* obj) {
  return is_number(obj) || PyBool_Check(obj) || PyComplex_Check(obj) || THPVariable_Check(obj);
}

// As PyTorch's: deeper nesting is refused before anything recurses over it,
// so a hostile 100,000-deep list is a ValueError, not a stack overflow.
constexpr size_t kMaxDims = 128;

std::vector<int64_t> infer_sizes(PyObject* data) {
  std::vector<int64_t> sizes;
  PyObject* cur = data;
  Py_INCREF(cur);
  while (!is_leaf(cur)) {
    if (!PySequence_Check(cur) || PyUnicode_Check(cur) || PyBytes_Check(cur)) {
      std::string name = type_name(Py_TYPE(cur));
      Py_DECREF(cur);
      throw c10::TypeError("Could not infer dtype of " + name);
    }
    const Py_ssize_t n = PySequence_Length(cur);
    if (n < 0) {
      Py_DECREF(cur);
      throw python_error();
    }
    sizes.push_back(n);
    if (sizes.size() > kMaxDims) {
      std::string name = type_name(Py_TYPE(cur));
      Py_DECREF(cur);
      throw c10::ValueError("too many dimensions '" + name + "'");
    }
    if (n == 0) break;
    PyObject* first = PySequence_GetItem(cur, 0);
    Py_DECREF(cur);
    if (!first) throw python_error();
    cur = first;
  }
  if (THPVariable_Check(cur)) {
    const at::Tensor& t = THPVariable_Unpack(cur);
    TORCH_CHECK_VALUE(t.numel() == 1, "only one element tensors can be converted to Python scalars");
  }
  Py_DECREF(cur);
  return sizes;
}

// The dtype the leaves call for; walks everything, as any float wins, down to
// the depth infer_sizes found (a deeper list is ragged: fill() reports it).
struct LeafKinds {
  bool any_complex = false, any_float = false, any_int = false;
};

void infer_dtype(PyObject* obj, size_t depth, size_t max_depth, LeafKinds& kinds) {
  bool& any_float = kinds.any_float;
  bool& any_int = kinds.any_int;
  if (PyBool_Check(obj)) return;
  if (PyComplex_Check(obj)) {
    kinds.any_complex = true;
    return;
  }
  if (THPVariable_Check(obj)) {
    const auto t = THPVariable_Unpack(obj).scalar_type();
    kinds.any_complex = kinds.any_complex || c10::isComplexType(t);
    any_float = any_float || c10::isFloatingType(t);
    any_int = any_int || c10::isIntegralType(t, false);
    return;
  }
  if (is_int_like(obj)) {
    any_int = true;
    return;
  }
  if (is_number(obj)) {
    any_float = true;
    return;
  }
  if (depth >= max_depth) return;
  PyObject* seq = PySequence_Fast(obj, "expected a sequence");
  if (!seq) throw python_error();
  try {
    for (Py_ssize_t i = 0; i < fast_size(seq) && !kinds.any_complex; ++i)
      infer_dtype(fast_item(seq, i), depth + 1, max_depth, kinds);
  } catch (...) {
    Py_DECREF(seq);
    throw;
  }
  Py_DECREF(seq);
}

// A number into a T. As PyTorch's torch.tensor: integers must fit, floats round to inf.
template <typename T>
void write_number(PyObject* obj, T*& out) {
  if (PyComplex_Check(obj)) throw c10::TypeError("must be real number, not complex");
  at::Scalar s = THPVariable_Check(obj) ? at::item(THPVariable_Unpack(obj)) : to_scalar(obj);
  if (!is_leaf(obj)) throw c10::TypeError(std::string("expected a number, got ") + type_name(Py_TYPE(obj)));
  if constexpr (c10::is_floating_v<T>) {
    *out++ = s.to_unchecked<T>();
  } else {
    *out++ = s.to<T>();
  }
}

// A number into the two parts (real, imaginary) of a complex element.
template <typename T>
void write_complex(PyObject* obj, T*& out) {
  double re = 0, im = 0;
  if (PyComplex_Check(obj)) {
    re = PyComplex_RealAsDouble(obj);
    im = PyComplex_ImagAsDouble(obj);
  } else if (THPVariable_Check(obj) && c10::isComplexType(THPVariable_Unpack(obj).scalar_type())) {
    const at::Tensor parts = at::view_as_real(THPVariable_Unpack(obj).to(at::ScalarType::ComplexDouble).contiguous()).reshape({2});
    re = parts.data_ptr<double>()[0];
    im = parts.data_ptr<double>()[1];
  } else {
    double* d = &re;
    write_number<double>(obj, d);
  }
  *out++ = static_cast<T>(re);
  *out++ = static_cast<T>(im);
}

// Walks the nested sequences in order, each leaf written by `write`.
template <typename T, typename Write>
void fill(PyObject* obj, const std::vector<int64_t>& sizes, size_t dim, T*& out, Write write) {
  if (dim == sizes.size()) {
    write(obj, out);
    return;
  }
  if (is_leaf(obj)) {
    throw c10::ValueError("expected sequence of length " + std::to_string(sizes[dim]) + " at dim " +
                          std::to_string(dim) + " (got a number)");
  }
  PyObject* seq = PySequence_Fast(obj, "expected a sequence");
  if (!seq) throw python_error();
  const Py_ssize_t n = fast_size(seq);
  if (n != sizes[dim]) {
    Py_DECREF(seq);
    throw c10::ValueError("expected sequence of length " + std::to_string(sizes[dim]) + " at dim " +
                          std::to_string(dim) + " (got " + std::to_string(n) + ")");
  }
  try {
    for (Py_ssize_t i = 0; i < n; ++i) fill(fast_item(seq, i), sizes, dim + 1, out, write);
  } catch (...) {
    Py_DECREF(seq);
    throw;
  }
  Py_DECREF(seq);
}

}  // namespace

at::Tensor tensor_from_data(PyObject* data, std::optional<at::ScalarType> dtype) {
  if (THPVariable_Check(data)) {
    const at::Tensor& t = THPVariable_Unpack(data);
    return t.to(dtype.value_or(t.scalar_type()), false, true);
  }
  if (PyObject_HasAttrString(data, "__array_interface__")) {
    // numpy arrays and numpy scalars keep their dtype; the data is copied.
    static PyObject* from_array_interface = [] {
      PyObject* torch_c = PyImport_ImportModule("torch._C");
      PyObject* fn = torch_c ? PyObject_GetAttrString(torch_c, "_from_array_interface") : nullptr;
      Py_XDECREF(torch_c);
      return fn;
    }();
    if (!from_array_interface) throw python_error();
    PyObject* view = PyObject_CallFunctionObjArgs(from_array_interface, data, nullptr);
    if (!view) throw python_error();
    at::Tensor t = THPVariable_Unpack(view);
    Py_DECREF(view);
    return t.to(dtype.value_or(t.scalar_type()), false, true);
  }
  const std::vector<int64_t> sizes = infer_sizes(data);
  at::ScalarType type;
  if (dtype) {
    type = *dtype;
  } else {
    LeafKinds kinds;
    infer_dtype(data, 0, sizes.size(), kinds);
    const bool any_float = kinds.any_float, any_int = kinds.any_int;
    type = any_float ? c10::get_default_dtype() : (any_int ? at::ScalarType::Long : at::ScalarType::Bool);
    if (!any_float && !any_int && !sizes.empty() && sizes.back() == 0) type = c10::get_default_dtype();
    // A complex number anywhere: the default dtype's complex type (complex64), as in PyTorch.
    if (kinds.any_complex) type = c10::toComplexType(c10::get_default_dtype());
  }
  if (c10::isComplexType(type)) {
    // Filled through its parts: (real, imaginary) pairs.
    at::Tensor result = at::empty(sizes, type);
    const at::Tensor parts = at::view_as_real(result);
    AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(parts.scalar_type(), "tensor", [&] {
      scalar_t* out = parts.data_ptr<scalar_t>();
      fill(data, sizes, 0, out, [](PyObject* leaf, scalar_t*& o) { write_complex<scalar_t>(leaf, o); });
    });
    return result;
  }
  at::Tensor result = at::empty(sizes, type);
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(type, "tensor", [&] {
    scalar_t* out = result.data_ptr<scalar_t>();
    fill(data, sizes, 0, out, [](PyObject* leaf, scalar_t*& o) { write_number<scalar_t>(leaf, o); });
  });
  return result;
}

PyObject* THPTorch_tensor(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  HANDLE_TH_ERRORS
  // tensor(data, *, dtype=None, device=None, requires_grad=False): `data` is
  // any object, so this one binding unpacks its arguments by hand.
  TORCH_CHECK_TYPE(nargs <= 1, "tensor() takes 1 positional argument but ", nargs, " were given");
  PyObject* data = nargs == 1 ? args[0] : nullptr;
  std::optional<at::ScalarType> dtype;
  std::optional<at::Device> device;
  bool requires_grad = false;
  const Py_ssize_t nkw = kwnames ? tuple_size(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    const std::string key = utf8(tuple_item(kwnames, k));
    PyObject* v = args[nargs + k];
    if (key == "data" && !data) {
      data = v;
    } else if (key == "dtype") {
      if (v != Py_None) dtype = to_scalar_type(v);
    } else if (key == "device") {
      if (v != Py_None) device = to_device(v);
    } else if (key == "requires_grad") {
      TORCH_CHECK_TYPE(PyBool_Check(v), "tensor(): requires_grad must be a bool");
      requires_grad = v == Py_True;
    } else {
      throw c10::TypeError("tensor() got an unexpected keyword argument '" + key + "'");
    }
  }
  TORCH_CHECK_TYPE(data != nullptr, "tensor() missing 1 required positional argument: 'data'");
  at::Tensor t = tensor_from_data(data, dtype);
  // The data is read on the CPU, then moved: a build without CUDA raises here.
  if (device && !device->is_cpu()) t = t.to(*device, std::nullopt, /*non_blocking=*/false, /*copy=*/false);
  if (requires_grad) at::autograd::set_requires_grad(t, true);
  return THPVariable_Wrap(std::move(t));
  END_HANDLE_TH_ERRORS
}

}  // namespace torch
