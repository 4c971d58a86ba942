// What the pybind11 casters of torch/python.h call: the Python tensor object
// of libtorch_python, reached from an extension module (which links
// libtorch_python) without the binding's private headers.
#include <torch/python_interop.h>

#include "csrc/python_tensor.h"
#include "csrc/utils/python_arg_parser.h"

namespace torch::python {

bool is_tensor(PyObject* obj) { return obj != nullptr && THPVariable_Check(obj); }

at::Tensor unpack_tensor(PyObject* obj) {
  TORCH_CHECK_TYPE(is_tensor(obj), "expected a torch.Tensor, got ", python_type_name(obj));
  return THPVariable_Unpack(obj);
}

PyObject* wrap_tensor(const at::Tensor& t) {
  if (!t.defined()) Py_RETURN_NONE;  // an undefined tensor reads as None, as in PyTorch
  return THPVariable_Wrap(t);
}

}  // namespace torch::python
