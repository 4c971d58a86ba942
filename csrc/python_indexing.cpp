// Tensor.__getitem__ / __setitem__. Ints, slices, None, Ellipsis and Python
// bools become view ops (select, slice, unsqueeze), so reading never copies
// and writing goes into the original storage. Tensor indices (integer or
// boolean; Python lists and numpy arrays are turned into tensors) are
// collected per dim and handed to at::index / at::index_put_, which follow
// numpy's advanced-indexing rules (after PyTorch's: ints are applied first).
#include "csrc/Exceptions.h"
#include "csrc/python_tensor.h"
#include "csrc/tensor_new.h"
#include "csrc/utils/python_arg_parser.h"

#include <optional>
#include <vector>

namespace torch {
namespace {

// A list, tuple, range, numpy array or other sequence inside the index: an
// index tensor, as torch.tensor(obj) makes it (PyTorch's sequenceToVariable).
bool is_sequence_index(PyObject* obj) {
  if (PyList_Check(obj) || PyTuple_Check(obj) || PyRange_Check(obj)) return true;
  if (PyObject_HasAttrString(obj, "__array_interface__")) return true;
  return PySequence_Check(obj) && !PyUnicode_Check(obj) && !PyBytes_Check(obj) && !THPVariable_Check(obj);
}

// NumPy's rule, which PyTorch keeps: a non-tuple sequence of fewer than 32
// items holding a sequence, slice, tensor, None or Ellipsis is read as a
// tuple of indices (deprecated in both: a warning says so). A numpy array is
// always one index.
bool sequence_is_tuple_of_indices(PyObject* index) {
  if (!PyList_Check(index) && !PyRange_Check(index)) {
    if (THPVariable_Check(index) || PyUnicode_Check(index) || PyBytes_Check(index)) return false;
    if (PyObject_HasAttrString(index, "__array_interface__") || !PySequence_Check(index)) return false;
  }
  const Py_ssize_t n = PySequence_Size(index);
  if (n < 0) {
    PyErr_Clear();
    return false;
  }
  if (n >= 32) return false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* obj = PySequence_GetItem(index, i);
    if (!obj) {
      PyErr_Clear();
      return false;
    }
    const bool nested = THPVariable_Check(obj) || (PySequence_Check(obj) && !PyUnicode_Check(obj)) ||
                        PySlice_Check(obj) || obj == Py_Ellipsis || obj == Py_None;
    Py_DECREF(obj);
    if (nested) return true;
  }
  return false;
}

// How many dims of the tensor an index item addresses.
int64_t dims_consumed(PyObject* item) {
  if (item == Py_None || item == Py_Ellipsis || PyBool_Check(item)) return 0;
  if (THPVariable_Check(item)) {
    const at::Tensor& t = THPVariable_Unpack(item);
    return t.scalar_type() == at::ScalarType::Bool || t.scalar_type() == at::ScalarType::Byte ? t.dim() : 1;
  }
  return 1;
}

[[noreturn]] void invalid_index(PyObject* obj) {
  throw c10::IndexError(
      "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got " +
      python_type_name(obj) + ")");
}

struct Indexed {
  at::Tensor view;                                // after the basic (view) indices
  std::vector<std::optional<at::Tensor>> tensors; // one item per dim of `view` walked, for at::index
  bool advanced = false;
};

Indexed apply_index(const at::Tensor& self, PyObject* index) {
  std::vector<PyObject*> items;
  PyObject* as_tuple = nullptr;  // owned: a sequence read as a tuple of indices
  struct ReleaseTuple {
    PyObject*& obj;
    ~ReleaseTuple() { Py_XDECREF(obj); }
  } release_tuple{as_tuple};
  if (!PyTuple_Check(index) && sequence_is_tuple_of_indices(index)) {
    if (PyErr_WarnEx(PyExc_UserWarning,
                     "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in "
                     "pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as "
                     "tensor index, x[torch.tensor(seq)], which will result either in an error or a different result",
                     1) < 0) {
      throw python_error();
    }
    as_tuple = PySequence_Tuple(index);
    if (!as_tuple) throw python_error();
    index = as_tuple;
  }
  if (PyTuple_Check(index)) {
    for (Py_ssize_t i = 0; i < tuple_size(index); ++i) items.push_back(tuple_item(index, i));
  } else {
    items.push_back(index);
  }
  int64_t consumed = 0;
  bool ellipsis = false;
  std::vector<PyObject*> converted;  // owned tensors made from lists / arrays
  struct Release {
    std::vector<PyObject*>& objs;
    ~Release() {
      for (PyObject* o : objs) Py_DECREF(o);
    }
  } release{converted};
  for (PyObject*& item : items) {
    if (!THPVariable_Check(item) && !is_int_like(item) && is_sequence_index(item)) {
      PyObject* t = THPVariable_Wrap(tensor_from_data(item, std::nullopt));
      if (!t) throw python_error();
      converted.push_back(t);
      item = t;
    }
    const bool ok = is_int_like(item) || PySlice_Check(item) || item == Py_None || item == Py_Ellipsis ||
                    PyBool_Check(item) || THPVariable_Check(item);
    if (!ok) invalid_index(item);
    if (item == Py_Ellipsis) {
      TORCH_CHECK_INDEX(!ellipsis, "an index can only have a single ellipsis ('...')");
      ellipsis = true;
    }
    consumed += dims_consumed(item);
  }
  TORCH_CHECK_INDEX(consumed <= self.dim(), "too many indices for tensor of dimension ", self.dim());

  Indexed out{self, {}, false};
  at::Tensor& result = out.view;
  int64_t dim = 0;  // the dim of `result` the next item applies to
  for (PyObject* item : items) {
    if (item == Py_Ellipsis) {
      const int64_t skip = self.dim() - consumed;
      for (int64_t k = 0; k < skip; ++k) out.tensors.emplace_back();
      dim += skip;
    } else if (item == Py_None || PyBool_Check(item)) {
      result = result.unsqueeze(dim);
      if (item == Py_False) result = result.slice(dim, 0, 0, 1);
      out.tensors.emplace_back();
      dim++;
    } else if (PySlice_Check(item)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) throw python_error();
      TORCH_CHECK_VALUE(step > 0, "step must be greater than zero");
      const Py_ssize_t length = PySlice_AdjustIndices(result.size(dim), &start, &stop, step);
      if (!(start == 0 && step == 1 && length == result.size(dim))) {
        result = result.slice(dim, start, start + length * step, step);
      }
      out.tensors.emplace_back();
      dim++;
    } else if (THPVariable_Check(item)) {
      const at::Tensor& t = THPVariable_Unpack(item);
      out.tensors.emplace_back(t);
      out.advanced = true;
      dim += dims_consumed(item);
    } else {
      const int64_t i = to_scalar(item).toLong();
      const int64_t size = result.size(dim);
      TORCH_CHECK_INDEX(i >= -size && i < size, "index ", i, " is out of bounds for dimension ", dim,
                        " with size ", size);
      result = result.select(dim, i);
    }
  }
  return out;
}

}  // namespace

PyObject* THPVariable_getitem(PyObject* self, PyObject* index) {
  HANDLE_TH_ERRORS
  const at::Tensor& t = THPVariable_Unpack(self);
  Indexed indexed = apply_index(t, index);
  at::Tensor result;
  if (indexed.advanced) {
    GILRelease no_gil;
    result = indexed.view.index(indexed.tensors);
  } else {
    result = indexed.view;
  }
  if (result.is_same(t)) {  // t[...] and t[:] still give a new tensor object
    result = t.as_strided(t.sizes(), t.strides(), t.storage_offset());
  }
  return THPVariable_Wrap(std::move(result));
  END_HANDLE_TH_ERRORS
}

int THPVariable_setitem(PyObject* self, PyObject* index, PyObject* value) {
  HANDLE_TH_ERRORS
  if (!value) {
    PyErr_SetString(PyExc_TypeError, "Tensor does not support deleting items");
    return -1;
  }
  const at::Tensor& t = THPVariable_Unpack(self);
  Indexed indexed = apply_index(t, index);
  at::Tensor src;
  if (THPVariable_Check(value)) {
    src = THPVariable_Unpack(value);
  } else if (is_number(value) || PyBool_Check(value)) {
    src = at::scalar_tensor(to_scalar(value), t.scalar_type());
  } else if (PySequence_Check(value) && !PyUnicode_Check(value)) {
    src = tensor_from_data(value, t.scalar_type());
  } else {
    throw c10::TypeError("can't assign a " + python_type_name(value) + " to a Tensor");
  }
  GILRelease no_gil;
  if (indexed.advanced) {
    indexed.view.index_put_(indexed.tensors, src, false);
  } else {
    indexed.view.copy_(src);
  }
  return 0;
  END_HANDLE_TH_ERRORS_RET(-1)
}

namespace {

// Tensor._index_put_(indices, values, accumulate): index_put_ with a tuple of
// tensors or None, one per leading dim (torch/_tensor.py's index_put_).
PyObject* tensor_index_put_(PyObject* self, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject *indices = nullptr, *values = nullptr;
  int accumulate = 0;
  if (!PyArg_ParseTuple(args, "OOp", &indices, &values, &accumulate)) return nullptr;
  if (!PyTuple_Check(indices) && !PyList_Check(indices)) {
    throw c10::TypeError("index_put_(): argument 'indices' must be tuple of Tensors, not " + python_type_name(indices));
  }
  if (!THPVariable_Check(values)) {
    throw c10::TypeError("index_put_(): argument 'values' must be Tensor, not " + python_type_name(values));
  }
  PyObject* seq = PySequence_Fast(indices, "indices");
  if (!seq) return nullptr;
  std::vector<std::optional<at::Tensor>> tensors;
  for (Py_ssize_t i = 0, n = fast_size(seq); i < n; ++i) {
    PyObject* item = fast_item(seq, i);
    if (item == Py_None) {
      tensors.emplace_back(std::nullopt);
    } else if (THPVariable_Check(item)) {
      tensors.emplace_back(THPVariable_Unpack(item));
    } else {
      Py_DECREF(seq);
      throw c10::TypeError("index_put_(): expected Tensor or None in 'indices', but element " + std::to_string(i) +
                           " is " + python_type_name(item));
    }
  }
  Py_DECREF(seq);
  const at::Tensor& t = THPVariable_Unpack(self);
  {
    GILRelease no_gil;
    t.index_put_(tensors, THPVariable_Unpack(values), accumulate != 0);
  }
  Py_INCREF(self);
  return self;
  END_HANDLE_TH_ERRORS
}

}  // namespace

PyMethodDef tensor_indexing_methods[] = {
    {"_index_put_", tensor_index_put_, METH_VARARGS, "_index_put_(indices, values, accumulate)"},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace torch
