// Tensor.__getitem__ / __setitem__ for ints, slices, None and Ellipsis:
// each index item becomes a view op (select, slice, unsqueeze), so reading
// never copies and writing goes straight into the original storage.
#include "csrc/Exceptions.h"
#include "csrc/python_tensor.h"
#include "csrc/utils/python_arg_parser.h"

#include <vector>

namespace torch {
namespace {

bool is_index_item(PyObject* obj) {
  return is_int_like(obj) || PySlice_Check(obj) || obj == Py_None || obj == Py_Ellipsis;
}

[[noreturn]] void invalid_index(PyObject* obj) {
  if (THPVariable_Check(obj)) {
    throw c10::IndexError("indexing with a tensor (integer or boolean mask) is not supported yet");
  }
  throw c10::IndexError(
      "only integers, slices (`:`), ellipsis (`...`) and None are valid indices (got " + python_type_name(obj) + ")");
}

// Applies every item of `index` to `self` and returns the resulting view.
at::Tensor apply_index(const at::Tensor& self, PyObject* index) {
  std::vector<PyObject*> items;
  if (PyTuple_Check(index)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(index); ++i) items.push_back(PyTuple_GET_ITEM(index, i));
  } else {
    items.push_back(index);
  }
  int64_t consumed = 0;  // dims of self that the items address
  bool ellipsis = false;
  for (PyObject* item : items) {
    if (!is_index_item(item) || PyBool_Check(item)) invalid_index(item);
    if (item == Py_Ellipsis) {
      TORCH_CHECK_INDEX(!ellipsis, "an index can only have a single ellipsis ('...')");
      ellipsis = true;
    } else if (item != Py_None) {
      consumed++;
    }
  }
  TORCH_CHECK_INDEX(consumed <= self.dim(), "too many indices for tensor of dimension ", self.dim());

  at::Tensor result = self;
  int64_t dim = 0;  // the dim of `result` the next item applies to
  for (PyObject* item : items) {
    if (item == Py_Ellipsis) {
      dim += self.dim() - consumed;
    } else if (item == Py_None) {
      result = result.unsqueeze(dim);
      dim++;
    } else if (PySlice_Check(item)) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) throw python_error();
      TORCH_CHECK_VALUE(step > 0, "step must be greater than zero");
      const Py_ssize_t length = PySlice_AdjustIndices(result.size(dim), &start, &stop, step);
      if (!(start == 0 && step == 1 && length == result.size(dim))) {
        result = result.slice(dim, start, start + length * step, step);
      }
      dim++;
    } else {
      const int64_t i = to_scalar(item).toLong();
      const int64_t size = result.size(dim);
      TORCH_CHECK_INDEX(i >= -size && i < size, "index ", i, " is out of bounds for dimension ", dim,
                        " with size ", size);
      result = result.select(dim, i);
    }
  }
  return result;
}

}  // namespace

PyObject* THPVariable_getitem(PyObject* self, PyObject* index) {
  HANDLE_TH_ERRORS
  const at::Tensor& t = THPVariable_Unpack(self);
  at::Tensor result;
  {
    result = apply_index(t, index);
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
  at::Tensor view = apply_index(t, index);
  if (THPVariable_Check(value)) {
    const at::Tensor& src = THPVariable_Unpack(value);
    GILRelease no_gil;
    view.copy_(src);
  } else if (is_number(value) || PyBool_Check(value)) {
    const at::Scalar s = to_scalar(value);
    GILRelease no_gil;
    view.fill_(s);
  } else {
    throw c10::TypeError("can't assign a " + python_type_name(value) + " to a Tensor");
  }
  return 0;
  END_HANDLE_TH_ERRORS_RET(-1)
}

}  // namespace torch
