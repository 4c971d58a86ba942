// torch._C.TensorBase: the C type behind torch.Tensor. It carries the
// generated op methods (python_tensor_methods.cpp) plus the few methods and
// properties that are about the Python object rather than an operator.
#include "csrc/python_tensor.h"

#include "csrc/Exceptions.h"
#include "csrc/python_device.h"
#include "csrc/python_dtype.h"
#include "csrc/python_size.h"
#include "csrc/tensor_new.h"
#include "csrc/utils/python_arg_parser.h"
#include "csrc/utils/wrap.h"

#include <ATen/Dispatch.h>

#include <vector>

namespace torch {

PyTypeObject* THPVariableBaseType = nullptr;
PyTypeObject* THPVariableClass = nullptr;

PyObject* THPVariable_Wrap(at::Tensor t) {
  PyObject* obj = alloc_instance(THPVariableClass ? THPVariableClass : THPVariableBaseType);
  if (!obj) return nullptr;
  new (&reinterpret_cast<THPVariable*>(obj)->cdata) at::Tensor(std::move(t));
  return obj;
}

namespace {

void tensor_dealloc(PyObject* self) {
  reinterpret_cast<THPVariable*>(self)->cdata.~Tensor();
  free_instance(self);
}

// torch.Tensor(*sizes) or torch.Tensor(data): the legacy constructor, which
// always gives the default float dtype.
PyObject* tensor_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  if (kwargs && PyDict_Size(kwargs) > 0) {
    PyErr_SetString(PyExc_TypeError, "torch.Tensor() takes no keyword arguments; use torch.tensor(data, dtype=...)");
    return nullptr;
  }
  at::Tensor t;
  const Py_ssize_t n = tuple_size(args);
  bool all_ints = true;
  for (Py_ssize_t i = 0; i < n; ++i) all_ints = all_ints && is_int_like(tuple_item(args, i));
  if (n == 0) {
    t = at::empty({0});
  } else if (all_ints) {
    t = at::empty(to_int_list(args));
  } else if (n == 1 && THPVariable_Check(tuple_item(args, 0))) {
    t = THPVariable_Unpack(tuple_item(args, 0));
  } else if (n == 1 && PySequence_Check(tuple_item(args, 0))) {
    t = tensor_from_data(tuple_item(args, 0), c10::get_default_dtype());
  } else {
    PyErr_SetString(PyExc_TypeError, "torch.Tensor() expects sizes (ints) or a sequence of numbers");
    return nullptr;
  }
  PyObject* obj = alloc_instance(type);
  if (!obj) return nullptr;
  new (&reinterpret_cast<THPVariable*>(obj)->cdata) at::Tensor(std::move(t));
  return obj;
  END_HANDLE_TH_ERRORS
}

const at::Tensor& unpack(PyObject* self) { return THPVariable_Unpack(self); }

// ---- properties ----

PyObject* get_shape(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return THPSize_New(unpack(self).sizes());
  END_HANDLE_TH_ERRORS
}

PyObject* get_dtype(PyObject* self, void*) {
  PyObject* d = THPDtype_Get(unpack(self).scalar_type());
  Py_INCREF(d);
  return d;
}

PyObject* get_device(PyObject* self, void*) { return THPDevice_New(unpack(self).device()); }

PyObject* get_ndim(PyObject* self, void*) { return PyLong_FromLongLong(unpack(self).dim()); }

PyObject* get_is_cuda(PyObject* self, void*) { return PyBool_FromLong(unpack(self).is_cuda()); }

PyObject* get_is_cpu(PyObject* self, void*) { return PyBool_FromLong(unpack(self).is_cpu()); }

PyObject* get_itemsize(PyObject* self, void*) { return PyLong_FromLongLong(unpack(self).element_size()); }

PyObject* get_nbytes(PyObject* self, void*) { return PyLong_FromLongLong(unpack(self).nbytes()); }

PyGetSetDef tensor_getset[] = {
    {"shape", get_shape, nullptr, "The size of each dimension, as a torch.Size.", nullptr},
    {"dtype", get_dtype, nullptr, "The element type.", nullptr},
    {"device", get_device, nullptr, "Where the data lives.", nullptr},
    {"ndim", get_ndim, nullptr, "The number of dimensions.", nullptr},
    {"is_cuda", get_is_cuda, nullptr, nullptr, nullptr},
    {"is_cpu", get_is_cpu, nullptr, nullptr, nullptr},
    {"itemsize", get_itemsize, nullptr, nullptr, nullptr},
    {"nbytes", get_nbytes, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

// ---- methods about the object rather than an operator ----

PyObject* size_or_stride(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, bool stride) {
  HANDLE_TH_ERRORS
  static PythonArgParser size_parser({"size(int? dim=None)"}, true);
  static PythonArgParser stride_parser({"stride(int? dim=None)"}, true);
  ParsedArgs<1> parsed;
  auto r = (stride ? stride_parser : size_parser).parse(args, nargs, kwnames, parsed);
  const at::Tensor& t = unpack(self);
  if (r.isNone(0)) return stride ? wrap_int_tuple(t.strides()) : THPSize_New(t.sizes());
  const int64_t d = r.toInt64(0);
  return PyLong_FromLongLong(stride ? t.stride(d) : t.size(d));
  END_HANDLE_TH_ERRORS
}

PyObject* tensor_size(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return size_or_stride(self, args, nargs, kwnames, false);
}

PyObject* tensor_stride(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return size_or_stride(self, args, nargs, kwnames, true);
}

PyObject* tensor_dim(PyObject* self, PyObject*) { return PyLong_FromLongLong(unpack(self).dim()); }

PyObject* tensor_numel(PyObject* self, PyObject*) { return PyLong_FromLongLong(unpack(self).numel()); }

PyObject* tensor_element_size(PyObject* self, PyObject*) { return PyLong_FromLongLong(unpack(self).element_size()); }

PyObject* tensor_is_contiguous(PyObject* self, PyObject*) { return PyBool_FromLong(unpack(self).is_contiguous()); }

PyObject* tensor_is_floating_point(PyObject* self, PyObject*) {
  return PyBool_FromLong(unpack(self).is_floating_point());
}

PyObject* tensor_data_ptr(PyObject* self, PyObject*) { return PyLong_FromVoidPtr(unpack(self).data_ptr()); }

PyObject* tensor_storage_offset(PyObject* self, PyObject*) {
  return PyLong_FromLongLong(unpack(self).storage_offset());
}

Py_ssize_t tensor_len(PyObject* self) {
  HANDLE_TH_ERRORS
  const at::Tensor& t = unpack(self);
  TORCH_CHECK_TYPE(t.dim() > 0, "len() of a 0-d tensor");
  return static_cast<Py_ssize_t>(t.size(0));
  END_HANDLE_TH_ERRORS_RET(-1)
}

template <typename T>
PyObject* to_python(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return PyBool_FromLong(v);
  } else if constexpr (c10::is_floating_v<T>) {
    return PyFloat_FromDouble(static_cast<double>(v));
  } else {
    return PyLong_FromLongLong(static_cast<long long>(v));
  }
}

// A complex element as its two parts, for tolist.
template <typename T>
struct ComplexParts {
  T re, im;
};

template <typename T>
PyObject* to_python(ComplexParts<T> v) {
  return PyComplex_FromDoubles(static_cast<double>(v.re), static_cast<double>(v.im));
}

template <typename T>
PyObject* tolist_rec(const char* data, const at::Tensor& t, int64_t dim) {
  if (dim == t.dim()) return to_python(*reinterpret_cast<const T*>(data));
  const int64_t n = t.size(dim);
  PyObject* list = PyList_New(n);
  if (!list) return nullptr;
  const int64_t step = t.stride(dim) * static_cast<int64_t>(sizeof(T));
  for (int64_t i = 0; i < n; ++i) {
    PyObject* item = tolist_rec<T>(data + i * step, t, dim + 1);
    if (!item) {
      Py_DECREF(list);
      return nullptr;
    }
    list_set(list, i, item);
  }
  return list;
}

PyObject* tensor_tolist(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  const at::Tensor& self_ = unpack(self);
  // A device tensor is copied to the host first, as PyTorch does.
  const at::Tensor t =
      self_.is_cpu() ? self_ : self_.to(at::Device(at::DeviceType::CPU), std::nullopt, false, false);
  const char* data = static_cast<const char*>(t.data_ptr());
  switch (t.scalar_type()) {
    case at::ScalarType::ComplexHalf: return tolist_rec<ComplexParts<c10::Half>>(data, t, 0);
    case at::ScalarType::ComplexFloat: return tolist_rec<ComplexParts<float>>(data, t, 0);
    case at::ScalarType::ComplexDouble: return tolist_rec<ComplexParts<double>>(data, t, 0);
    default: break;
  }
  return AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(t.scalar_type(), "tolist", [&] {
    return tolist_rec<scalar_t>(static_cast<const char*>(t.data_ptr()), t, 0);
  });
  END_HANDLE_TH_ERRORS
}

PyObject* tensor_type_name(PyObject* self, PyObject*) {
  // "torch.FloatTensor", as Tensor.type() without arguments gives.
  return PyUnicode_FromFormat("torch.%sTensor", c10::toString(unpack(self).scalar_type()));
}

PyMethodDef handwritten_methods[] = {
    {"size", (PyCFunction)(void (*)(void))tensor_size, METH_FASTCALL | METH_KEYWORDS, nullptr},
    {"stride", (PyCFunction)(void (*)(void))tensor_stride, METH_FASTCALL | METH_KEYWORDS, nullptr},
    {"dim", tensor_dim, METH_NOARGS, nullptr},
    {"ndimension", tensor_dim, METH_NOARGS, nullptr},
    {"numel", tensor_numel, METH_NOARGS, nullptr},
    {"nelement", tensor_numel, METH_NOARGS, nullptr},
    {"element_size", tensor_element_size, METH_NOARGS, nullptr},
    {"is_contiguous", tensor_is_contiguous, METH_NOARGS, nullptr},
    {"is_floating_point", tensor_is_floating_point, METH_NOARGS, nullptr},
    {"data_ptr", tensor_data_ptr, METH_NOARGS, nullptr},
    {"storage_offset", tensor_storage_offset, METH_NOARGS, nullptr},
    {"tolist", tensor_tolist, METH_NOARGS, nullptr},
    {"type", tensor_type_name, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

std::vector<PyMethodDef> all_methods() {
  std::vector<PyMethodDef> methods;
  for (PyMethodDef* m = handwritten_methods; m->ml_name; ++m) methods.push_back(*m);
  for (PyMethodDef* m = generated_tensor_methods(); m->ml_name; ++m) methods.push_back(*m);
  for (PyMethodDef* m = tensor_interop_methods; m->ml_name; ++m) methods.push_back(*m);
  for (PyMethodDef* m = tensor_autograd_methods; m->ml_name; ++m) methods.push_back(*m);
  for (PyMethodDef* m = tensor_indexing_methods; m->ml_name; ++m) methods.push_back(*m);
  methods.push_back({nullptr, nullptr, 0, nullptr});
  return methods;
}

}  // namespace

PyObject* wrap_int_tuple(c10::IntArrayRef values) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(values.size()));
  if (!t) return nullptr;
  for (size_t i = 0; i < values.size(); ++i) tuple_set(t, i, PyLong_FromLongLong(values[i]));
  return t;
}

std::vector<PyGetSetDef> all_properties() {
  std::vector<PyGetSetDef> props;
  for (PyGetSetDef* p = tensor_getset; p->name; ++p) props.push_back(*p);
  for (PyGetSetDef* p = tensor_autograd_properties; p->name; ++p) props.push_back(*p);
  props.push_back({nullptr, nullptr, nullptr, nullptr, nullptr});
  return props;
}

void init_tensor_type(PyObject* module) {
  static std::vector<PyMethodDef> methods = all_methods();
  static std::vector<PyGetSetDef> properties = all_properties();
  static PyType_Slot slots[] = {
      {Py_tp_new, reinterpret_cast<void*>(tensor_new)},
      {Py_tp_dealloc, reinterpret_cast<void*>(tensor_dealloc)},
      {Py_tp_getset, properties.data()},
      {Py_tp_methods, methods.data()},
      {Py_mp_length, reinterpret_cast<void*>(tensor_len)},
      {Py_mp_subscript, reinterpret_cast<void*>(THPVariable_getitem)},
      {Py_mp_ass_subscript, reinterpret_cast<void*>(THPVariable_setitem)},
      {0, nullptr},
  };
  static PyType_Spec spec = {"torch._C.TensorBase", static_cast<int>(sizeof(THPVariable)), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  THPVariableBaseType = add_type(module, "TensorBase", &spec);
}

}  // namespace torch
