// The Python face of autograd: Tensor.requires_grad / grad / grad_fn /
// backward / detach / hooks, grad mode, torch.autograd.grad, and the node
// objects that grad_fn returns.
#include "csrc/Exceptions.h"
#include "csrc/python_tensor.h"
#include "csrc/utils/python_arg_parser.h"
#include "csrc/utils/wrap.h"

#include <ATen/autograd/Engine.h>
#include <ATen/autograd/GradMode.h>
#include <ATen/autograd/Variable.h>

#include <memory>

namespace torch {
namespace {

namespace ag = at::autograd;

// ---- grad_fn objects ----

struct THPNode {
  PyObject_HEAD
  std::shared_ptr<ag::Node> node;
};

PyTypeObject* THPNodeType = nullptr;

PyObject* wrap_node(const std::shared_ptr<ag::Node>& node) {
  if (!node) Py_RETURN_NONE;
  auto* obj = PyObject_New(THPNode, THPNodeType);
  if (!obj) return nullptr;
  new (&obj->node) std::shared_ptr<ag::Node>(node);
  return reinterpret_cast<PyObject*>(obj);
}

void node_dealloc(PyObject* self) {
  reinterpret_cast<THPNode*>(self)->node.~shared_ptr();
  free_instance(self);
}

PyObject* node_repr(PyObject* self) {
  return PyUnicode_FromFormat("<%s object at %p>", reinterpret_cast<THPNode*>(self)->node->name().c_str(), self);
}

PyObject* node_name(PyObject* self, PyObject*) {
  return PyUnicode_FromString(reinterpret_cast<THPNode*>(self)->node->name().c_str());
}

PyObject* node_next_functions(PyObject* self, void*) {
  const auto& edges = reinterpret_cast<THPNode*>(self)->node->next_edges();
  PyObject* out = PyTuple_New(static_cast<Py_ssize_t>(edges.size()));
  if (!out) return nullptr;
  for (size_t i = 0; i < edges.size(); ++i) {
    PyObject* fn = wrap_node(edges[i].function);
    tuple_set(out, i, Py_BuildValue("(Ni)", fn, static_cast<int>(edges[i].input_nr)));
  }
  return out;
}

PyObject* node_richcompare(PyObject* a, PyObject* b, int op) {
  if (Py_TYPE(a) != THPNodeType || Py_TYPE(b) != THPNodeType || (op != Py_EQ && op != Py_NE)) {
    Py_RETURN_NOTIMPLEMENTED;
  }
  const bool eq = reinterpret_cast<THPNode*>(a)->node == reinterpret_cast<THPNode*>(b)->node;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

Py_hash_t node_hash(PyObject* self) {
  return static_cast<Py_hash_t>(reinterpret_cast<uintptr_t>(reinterpret_cast<THPNode*>(self)->node.get()) >> 4);
}

PyMethodDef node_methods[] = {
    {"name", node_name, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef node_getset[] = {
    {"next_functions", node_next_functions, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

// ---- Tensor properties ----

const at::Tensor& unpack(PyObject* self) { return THPVariable_Unpack(self); }

PyObject* get_requires_grad(PyObject* self, void*) { return PyBool_FromLong(ag::requires_grad(unpack(self))); }

int set_requires_grad(PyObject* self, PyObject* value, void*) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(value && PyBool_Check(value), "requires_grad must be a bool");
  ag::set_requires_grad(unpack(self), value == Py_True);
  return 0;
  END_HANDLE_TH_ERRORS_RET(-1)
}

PyObject* get_is_leaf(PyObject* self, void*) { return PyBool_FromLong(ag::is_leaf(unpack(self))); }

PyObject* get_grad(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  at::Tensor g = ag::grad(unpack(self));
  if (!g.defined()) Py_RETURN_NONE;
  return THPVariable_Wrap(std::move(g));
  END_HANDLE_TH_ERRORS
}

int set_grad(PyObject* self, PyObject* value, void*) {
  HANDLE_TH_ERRORS
  if (!value || value == Py_None) {
    ag::set_grad(unpack(self), at::Tensor());
    return 0;
  }
  TORCH_CHECK_TYPE(THPVariable_Check(value), "assigned grad expected to be a Tensor or None but got grad of type ",
                   python_type_name(value));
  ag::set_grad(unpack(self), THPVariable_Unpack(value));
  return 0;
  END_HANDLE_TH_ERRORS_RET(-1)
}

PyObject* get_grad_fn(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return wrap_node(ag::grad_fn(unpack(self)));
  END_HANDLE_TH_ERRORS
}

PyObject* get_retains_grad(PyObject* self, void*) { return PyBool_FromLong(ag::retains_grad(unpack(self))); }

PyObject* get_version(PyObject* self, void*) {
  return PyLong_FromUnsignedLong(unpack(self).unsafeGetTensorImpl()->version());
}

// Tensor._base: the tensor a view was made from (None for a non-view), as in PyTorch.
PyObject* get_base(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  const c10::TensorImpl* impl = unpack(self).unsafeGetTensorImpl();
  if (!impl->is_view()) Py_RETURN_NONE;
  return THPVariable_Wrap(at::Tensor(impl->view_base()));
  END_HANDLE_TH_ERRORS
}

// ---- Tensor methods ----

PyObject* tensor_is_view(PyObject* self, PyObject*) {
  return PyBool_FromLong(unpack(self).unsafeGetTensorImpl()->is_view());
}

PyObject* tensor_requires_grad_(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static const char* kwlist[] = {"requires_grad", nullptr};
  int flag = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p", const_cast<char**>(kwlist), &flag)) return nullptr;
  ag::set_requires_grad(unpack(self), flag != 0);
  Py_INCREF(self);
  return self;
  END_HANDLE_TH_ERRORS
}

PyObject* tensor_detach(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  return THPVariable_Wrap(ag::detach(unpack(self)));
  END_HANDLE_TH_ERRORS
}

PyObject* tensor_detach_(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  if (auto* m = ag::get_meta(unpack(self))) {
    TORCH_CHECK(!unpack(self).unsafeGetTensorImpl()->is_view() || !m->grad_fn,
                "Can't detach views in-place. Use detach() instead.");
    m->grad_fn.reset();
    m->requires_grad = false;
    m->retained.reset();
  }
  Py_INCREF(self);
  return self;
  END_HANDLE_TH_ERRORS
}

PyObject* tensor_retain_grad(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  ag::retain_grad(unpack(self));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

// A Python callable as a C++ hook; holds its own reference.
ag::Hook python_hook(PyObject* fn) {
  Py_INCREF(fn);
  std::shared_ptr<PyObject> holder(fn, [](PyObject* o) {
    if (!Py_IsInitialized()) return;
    PyGILState_STATE s = PyGILState_Ensure();
    Py_DECREF(o);
    PyGILState_Release(s);
  });
  return [holder](const at::Tensor& grad) -> at::Tensor {
    PyGILState_STATE s = PyGILState_Ensure();
    PyObject* arg = THPVariable_Wrap(grad);
    PyObject* out = arg ? PyObject_CallFunctionObjArgs(holder.get(), arg, nullptr) : nullptr;
    Py_XDECREF(arg);
    if (!out) {
      PyGILState_Release(s);
      throw python_error();
    }
    at::Tensor replaced;
    if (out != Py_None) {
      if (!THPVariable_Check(out)) {
        Py_DECREF(out);
        PyGILState_Release(s);
        throw c10::TypeError("a tensor hook must return a Tensor or None");
      }
      replaced = THPVariable_Unpack(out);
    }
    Py_DECREF(out);
    PyGILState_Release(s);
    return replaced;
  };
}

PyObject* tensor_register_hook(PyObject* self, PyObject* fn) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(PyCallable_Check(fn), "register_hook expects a callable");
  ag::register_hook(unpack(self), python_hook(fn));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

std::vector<at::Tensor> tensor_sequence(PyObject* seq, const char* what, bool allow_none) {
  std::vector<at::Tensor> out;
  PyObject* fast = PySequence_Fast(seq, what);
  if (!fast) throw python_error();
  for (Py_ssize_t i = 0; i < fast_size(fast); ++i) {
    PyObject* item = fast_item(fast, i);
    if (item == Py_None && allow_none) {
      out.emplace_back();
    } else if (THPVariable_Check(item)) {
      out.push_back(THPVariable_Unpack(item));
    } else {
      Py_DECREF(fast);
      throw c10::TypeError(std::string(what) + ": expected Tensors, got " + python_type_name(item));
    }
  }
  Py_DECREF(fast);
  return out;
}

// ---- module functions ----

PyObject* run_backward(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject *tensors, *grads;
  int keep_graph = 0, create_graph = 0;
  if (!PyArg_ParseTuple(args, "OOp|p", &tensors, &grads, &keep_graph, &create_graph)) return nullptr;
  auto outs = tensor_sequence(tensors, "backward", false);
  auto gs = tensor_sequence(grads, "backward", true);
  {
    // Other Python threads run meanwhile; Python hooks take the GIL back.
    GILRelease no_gil;
    ag::backward(outs, gs, keep_graph != 0, create_graph != 0);
  }
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyObject* run_grad(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject *outputs, *inputs, *grads;
  int keep_graph = 0, allow_unused = 0, create_graph = 0;
  if (!PyArg_ParseTuple(args, "OOOpp|p", &outputs, &inputs, &grads, &keep_graph, &allow_unused, &create_graph)) {
    return nullptr;
  }
  auto outs = tensor_sequence(outputs, "grad", false);
  auto ins = tensor_sequence(inputs, "grad", false);
  auto gs = tensor_sequence(grads, "grad", true);
  std::vector<at::Tensor> result;
  {
    GILRelease no_gil;
    result = ag::grad(outs, ins, gs, keep_graph != 0, allow_unused != 0, create_graph != 0);
  }
  PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(result.size()));
  for (size_t i = 0; i < result.size(); ++i) {
    PyObject* item = result[i].defined() ? THPVariable_Wrap(result[i]) : (Py_INCREF(Py_None), Py_None);
    tuple_set(tuple, i, item);
  }
  return tuple;
  END_HANDLE_TH_ERRORS
}

PyObject* set_grad_enabled(PyObject*, PyObject* flag) {
  TORCH_CHECK_TYPE(PyBool_Check(flag), "_set_grad_enabled expects a bool");
  ag::GradMode::set_enabled(flag == Py_True);
  Py_RETURN_NONE;
}

PyObject* is_grad_enabled(PyObject*, PyObject*) { return PyBool_FromLong(ag::GradMode::is_enabled()); }

// Tensor._make_subclass(cls, data, requires_grad): a new leaf of class `cls`
// sharing data's memory (nn.Parameter is made this way).
PyObject* make_subclass(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject *cls, *data;
  int requires_grad = 0;
  if (!PyArg_ParseTuple(args, "OO|p", &cls, &data, &requires_grad)) return nullptr;
  TORCH_CHECK_TYPE(PyType_Check(cls) &&
                       PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), THPVariableBaseType),
                   "_make_subclass: cls must be a subclass of Tensor");
  TORCH_CHECK_TYPE(THPVariable_Check(data), "_make_subclass: data must be a Tensor");
  at::Tensor t = ag::detach(THPVariable_Unpack(data));
  if (requires_grad) ag::set_requires_grad(t, true);
  PyObject* obj = alloc_instance(reinterpret_cast<PyTypeObject*>(cls));
  if (!obj) return nullptr;
  new (&reinterpret_cast<THPVariable*>(obj)->cdata) at::Tensor(std::move(t));
  return obj;
  END_HANDLE_TH_ERRORS
}

// ---- torch.autograd.Function: a node whose backward is Python ----

// Calls `backward_fn(grads)` with one gradient per output (None where none
// arrived) and takes one gradient (or None) per recorded input back.
struct PyFunctionNode : ag::Node {
  PyFunctionNode(PyObject* backward_fn, std::string name) : backward_fn_(backward_fn), name_(std::move(name)) {
    Py_INCREF(backward_fn_);
  }
  ~PyFunctionNode() override { release_variables(); }
  std::string name() const override { return name_; }

  // Dropping the Python callable drops ctx and what it saved, as PyTorch
  // frees saved tensors after a backward without retain_graph.
  void release_variables() override {
    if (!backward_fn_ || !Py_IsInitialized()) return;
    PyGILState_STATE s = PyGILState_Ensure();
    Py_CLEAR(backward_fn_);
    PyGILState_Release(s);
  }

  ag::variable_list apply(ag::variable_list&& grads) override {
    PyGILState_STATE s = PyGILState_Ensure();
    struct Release {
      PyGILState_STATE s;
      ~Release() { PyGILState_Release(s); }
    } release{s};
    TORCH_CHECK(backward_fn_,
                "Trying to backward through the graph a second time (or directly access saved tensors after they "
                "have already been freed). Specify retain_graph=True if you need to backward through the graph a "
                "second time.");
    PyObject* args = PyTuple_New(static_cast<Py_ssize_t>(grads.size()));
    if (!args) throw python_error();
    for (size_t i = 0; i < grads.size(); ++i) {
      PyObject* g = grads[i].defined() ? THPVariable_Wrap(grads[i]) : (Py_INCREF(Py_None), Py_None);
      if (!g) {
        Py_DECREF(args);
        throw python_error();
      }
      tuple_set(args, i, g);
    }
    // A backward pass that records itself (create_graph) hands the node to
    // the Python side, so that outputs saved for backward come back with
    // their history (Function.apply); otherwise None.
    PyObject* self_node = ag::GradMode::is_enabled() ? wrap_node(shared_from_this()) : (Py_INCREF(Py_None), Py_None);
    if (!self_node) {
      Py_DECREF(args);
      throw python_error();
    }
    PyObject* out = PyObject_CallFunctionObjArgs(backward_fn_, args, self_node, nullptr);
    Py_DECREF(self_node);
    Py_DECREF(args);
    if (!out) throw python_error();
    ag::variable_list result;
    PyObject* fast = PySequence_Fast(out, "backward must return a tuple of gradients");
    Py_DECREF(out);
    if (!fast) throw python_error();
    const Py_ssize_t n = fast_size(fast);
    if (static_cast<size_t>(n) != next_edges_.size()) {
      Py_DECREF(fast);
      throw c10::Error("function " + name_ + " returned an incorrect number of gradients (expected " +
                       std::to_string(next_edges_.size()) + ", got " + std::to_string(n) + ")");
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* g = fast_item(fast, i);
      if (g == Py_None) {
        result.emplace_back();
      } else if (THPVariable_Check(g)) {
        result.push_back(THPVariable_Unpack(g));
      } else {
        const std::string type = python_type_name(g);
        Py_DECREF(fast);
        throw c10::TypeError("function " + name_ + " returned a gradient that is not a Tensor or None: " + type);
      }
    }
    Py_DECREF(fast);
    return result;
  }

 private:
  PyObject* backward_fn_;
  std::string name_;
};

// _FunctionNode(backward_fn, name, inputs): a node with an edge per input
// tensor (to its grad_fn or accumulator; none for tensors that need no grad).
PyObject* make_function_node(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject *backward_fn, *inputs;
  const char* name;
  if (!PyArg_ParseTuple(args, "OsO", &backward_fn, &name, &inputs)) return nullptr;
  TORCH_CHECK_TYPE(PyCallable_Check(backward_fn), "_FunctionNode: backward_fn must be callable");
  auto node = std::make_shared<PyFunctionNode>(backward_fn, name);
  for (const at::Tensor& t : tensor_sequence(inputs, "_FunctionNode", false)) node->add_input(t);
  return wrap_node(node);
  END_HANDLE_TH_ERRORS
}

// _set_function_history(tensor, node, output_nr, num_outputs, dirty): makes
// `tensor` output `output_nr` of `node`; a dirty (in-place modified) input
// is rebased instead, as an in-place op's self is.
PyObject* set_function_history(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject *tensor, *node;
  int output_nr, num_outputs, dirty;
  if (!PyArg_ParseTuple(args, "OOiip", &tensor, &node, &output_nr, &num_outputs, &dirty)) return nullptr;
  TORCH_CHECK_TYPE(THPVariable_Check(tensor) && Py_TYPE(node) == THPNodeType,
                   "_set_function_history expects a Tensor and a node");
  const auto& fn = reinterpret_cast<THPNode*>(node)->node;
  fn->set_num_outputs(static_cast<uint32_t>(num_outputs));
  const at::Tensor& t = THPVariable_Unpack(tensor);
  if (dirty) {
    ag::check_inplace(t, fn->name().c_str());
    t.unsafeGetTensorImpl()->bump_version();
    ag::rebase_history(t, fn);
  } else {
    ag::set_history(t, fn, static_cast<uint32_t>(output_nr));
  }
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

// _variable_data(tensor): `tensor.data` — the same memory without history and
// with a version counter of its own, so that writes through it pass autograd's
// in-place checks unseen (PyTorch's variable_data, the documented way past
// them: torchdiffeq's solvers write their stage buffer so).
PyObject* variable_data(PyObject*, PyObject* arg) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(THPVariable_Check(arg), "_variable_data expects a Tensor");
  const at::Tensor& t = THPVariable_Unpack(arg);
  auto impl = c10::make_intrusive<c10::TensorImpl>(t.storage(), t.scalar_type(), t.device());
  impl->set_sizes_and_strides(t.sizes(), t.strides(), t.storage_offset());
  return THPVariable_Wrap(at::Tensor(std::move(impl)));
  END_HANDLE_TH_ERRORS
}

// _set_data(tensor, new): `tensor.data = new` — tensor takes new's memory and
// shape, keeping its own identity and autograd state (as PyTorch's set_data).
PyObject* set_data(PyObject*, PyObject* args) {
  HANDLE_TH_ERRORS
  PyObject *self, *other;
  if (!PyArg_ParseTuple(args, "OO", &self, &other)) return nullptr;
  TORCH_CHECK_TYPE(THPVariable_Check(self) && THPVariable_Check(other), "data must be set to a Tensor, not ",
                   python_type_name(other));
  const at::Tensor& t = THPVariable_Unpack(self);
  const at::Tensor& o = THPVariable_Unpack(other);
  TORCH_CHECK(t.scalar_type() == o.scalar_type() && t.device() == o.device(),
              "data set to a tensor of dtype ", o.scalar_type(), " on ", o.device(), ", but this tensor is ",
              t.scalar_type(), " on ", t.device(), " (.data can only take a tensor of the same dtype and device)");
  if (t.is_same(o)) Py_RETURN_NONE;
  c10::TensorImpl* impl = t.unsafeGetTensorImpl();
  const c10::TensorImpl* src = o.unsafeGetTensorImpl();
  impl->set_storage(src->storage());
  impl->set_sizes_and_strides(src->sizes(), src->strides(), src->storage_offset());
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyMethodDef autograd_functions[] = {
    {"_set_data", set_data, METH_VARARGS, nullptr},
    {"_variable_data", variable_data, METH_O, nullptr},
    {"_FunctionNode", make_function_node, METH_VARARGS, nullptr},
    {"_set_function_history", set_function_history, METH_VARARGS, nullptr},
    {"_run_backward", run_backward, METH_VARARGS, nullptr},
    {"_run_grad", run_grad, METH_VARARGS, nullptr},
    {"_set_grad_enabled", set_grad_enabled, METH_O, nullptr},
    {"is_grad_enabled", is_grad_enabled, METH_NOARGS, nullptr},
    {"_make_subclass", make_subclass, METH_VARARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyGetSetDef tensor_autograd_properties[] = {
    {"requires_grad", get_requires_grad, set_requires_grad, nullptr, nullptr},
    {"is_leaf", get_is_leaf, nullptr, nullptr, nullptr},
    {"grad", get_grad, set_grad, nullptr, nullptr},
    {"grad_fn", get_grad_fn, nullptr, nullptr, nullptr},
    {"retains_grad", get_retains_grad, nullptr, nullptr, nullptr},
    {"_version", get_version, nullptr, nullptr, nullptr},
    {"_base", get_base, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef tensor_autograd_methods[] = {
    {"requires_grad_", (PyCFunction)(void (*)(void))tensor_requires_grad_, METH_VARARGS | METH_KEYWORDS, nullptr},
    {"detach", tensor_detach, METH_NOARGS, nullptr},
    {"detach_", tensor_detach_, METH_NOARGS, nullptr},
    {"retain_grad", tensor_retain_grad, METH_NOARGS, nullptr},
    {"_is_view", tensor_is_view, METH_NOARGS, nullptr},
    {"_register_hook", tensor_register_hook, METH_O, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

void init_autograd(PyObject* module) {
  static PyType_Slot slots[] = {
      {Py_tp_dealloc, reinterpret_cast<void*>(node_dealloc)},
      {Py_tp_repr, reinterpret_cast<void*>(node_repr)},
      {Py_tp_methods, node_methods},
      {Py_tp_getset, node_getset},
      {Py_tp_richcompare, reinterpret_cast<void*>(node_richcompare)},
      {Py_tp_hash, reinterpret_cast<void*>(node_hash)},
      {0, nullptr},
  };
  static PyType_Spec spec = {"torch._C._Node", static_cast<int>(sizeof(THPNode)), 0, Py_TPFLAGS_DEFAULT, slots};
  THPNodeType = add_type(module, "_Node", &spec);
  if (!THPNodeType) return;
  PyModule_AddFunctions(module, autograd_functions);
}

}  // namespace torch
