// torch._C._ops_*: what torch/_ops.py (torch.ops) needs from the operator
// registry. A call converts Python arguments to the schema's types (a
// TypeError names the argument), runs the boxed kernel and wraps the results.
#include "csrc/python_ops.h"

#include "csrc/Exceptions.h"
#include "csrc/python_tensor.h"
#include "csrc/utils/python_arg_parser.h"
#include "csrc/utils/wrap.h"

#include <ATen/core/dispatcher.h>

namespace torch {
namespace {

using c10::IValue;
using c10::SchemaType;
using B = SchemaType::Base;

[[noreturn]] void type_error(const std::string& msg) { throw c10::TypeError(msg); }

std::string where(const c10::FunctionSchema& schema, const c10::SchemaArgument& arg) {
  return schema.qualified_name() + "(): argument '" + arg.name + "' must be " + arg.type.str() + ", not ";
}

IValue to_ivalue_item(PyObject* obj, B base, const c10::FunctionSchema& schema, const c10::SchemaArgument& arg) {
  switch (base) {
    case B::Tensor:
      if (THPVariable_Check(obj)) return THPVariable_Unpack(obj);
      break;
    case B::Int:
      if (is_int_like(obj)) return to_scalar(obj).toLong();
      break;
    case B::Float:
      if (PyFloat_Check(obj) || is_int_like(obj)) return to_scalar(obj).toDouble();
      break;
    case B::Bool:
      if (PyBool_Check(obj)) return obj == Py_True;
      break;
    case B::Str:
      if (PyUnicode_Check(obj)) {
        Py_ssize_t size = 0;
        const char* data = PyUnicode_AsUTF8AndSize(obj, &size);
        if (!data) throw python_error();
        return std::string(data, static_cast<size_t>(size));
      }
      break;
    case B::Scalar:
      if (PyBool_Check(obj) || PyFloat_Check(obj) || is_int_like(obj)) return to_scalar(obj);
      break;
  }
  type_error(where(schema, arg) + python_type_name(obj));
}

IValue to_ivalue(PyObject* obj, const c10::FunctionSchema& schema, const c10::SchemaArgument& arg) {
  const SchemaType& type = arg.type;
  if (obj == Py_None) {
    if (type.is_optional) return IValue();
    type_error(where(schema, arg) + "None");
  }
  if (!type.is_list) return to_ivalue_item(obj, type.base, schema, arg);
  const bool sequence = PyList_Check(obj) || PyTuple_Check(obj) || PySequence_Check(obj);
  if (!sequence || PyUnicode_Check(obj) || THPVariable_Check(obj)) type_error(where(schema, arg) + python_type_name(obj));
  PyObject* seq = PySequence_Fast(obj, "expected a sequence");
  if (!seq) throw python_error();
  std::vector<IValue> items;
  try {
    for (Py_ssize_t i = 0, n = fast_size(seq); i < n; ++i)
      items.push_back(to_ivalue_item(fast_item(seq, i), type.base, schema, arg));
  } catch (...) {
    Py_DECREF(seq);
    throw;
  }
  Py_DECREF(seq);
  auto collect = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> out;
    for (auto& v : items) out.push_back(v.get<T>());
    return IValue(std::move(out));
  };
  if (type.base == B::Tensor) return collect(at::Tensor());
  if (type.base == B::Int) return collect(int64_t());
  return collect(double());
}

PyObject* to_python(IValue& v) {
  if (v.isNone()) Py_RETURN_NONE;
  if (v.is<at::Tensor>()) {
    if (!v.get<at::Tensor>().defined()) Py_RETURN_NONE;
    return wrap(v.get<at::Tensor>());
  }
  if (v.is<int64_t>()) return wrap(v.get<int64_t>());
  if (v.is<double>()) return wrap(v.get<double>());
  if (v.is<bool>()) return wrap(v.get<bool>());
  if (v.is<std::vector<at::Tensor>>()) return wrap(v.get<std::vector<at::Tensor>>());
  if (v.is<c10::Scalar>()) return wrap(v.get<c10::Scalar>());
  if (v.is<std::string>()) {
    const std::string& str = v.get<std::string>();
    return PyUnicode_FromStringAndSize(str.data(), static_cast<Py_ssize_t>(str.size()));
  }
  auto list = [](const auto& items) -> PyObject* {
    PyObject* out = PyList_New(static_cast<Py_ssize_t>(items.size()));
    if (!out) throw python_error();
    for (size_t i = 0; i < items.size(); ++i) PyList_SetItem(out, static_cast<Py_ssize_t>(i), wrap(items[i]));
    return out;
  };
  if (v.is<std::vector<int64_t>>()) return list(v.get<std::vector<int64_t>>());
  if (v.is<std::vector<double>>()) return list(v.get<std::vector<double>>());
  throw c10::Error("torch.ops: a value of a type a schema cannot hold");
}

const c10::OperatorEntry& lookup(PyObject* name);

// A kernel written in Python (torch.library's impl, custom_op): called with
// the schema's arguments, in order, as Python objects; what it returns is
// checked against the schema's returns like any argument.
c10::BoxedKernel python_kernel(PyObject* fn, std::string op_name) {
  Py_INCREF(fn);  // kept for the life of the process, as every registered kernel is
  return [fn, op_name](c10::Stack& stack) {
    PyGILState_STATE gil = PyGILState_Ensure();
    struct Release {
      PyGILState_STATE state;
      ~Release() { PyGILState_Release(state); }
    } release{gil};
    const c10::OperatorEntry* op = c10::Dispatcher::singleton().find(op_name);
    TORCH_INTERNAL_ASSERT(op);
    const c10::FunctionSchema& schema = op->schema();
    PyObject* args = PyTuple_New(static_cast<Py_ssize_t>(stack.size()));
    if (!args) throw python_error();
    for (size_t i = 0; i < stack.size(); ++i) {
      PyObject* item = to_python(stack[i]);
      if (!item) {
        Py_DECREF(args);
        throw python_error();
      }
      PyTuple_SetItem(args, static_cast<Py_ssize_t>(i), item);
    }
    PyObject* result = PyObject_CallObject(fn, args);
    Py_DECREF(args);
    if (!result) throw python_error();
    stack.clear();
    c10::SchemaArgument ret;
    ret.name = "result";
    try {
      if (schema.returns.empty()) {
        if (result != Py_None)
          type_error(schema.full_name() + ": its Python kernel returned " + python_type_name(result) +
                     ", but the schema returns nothing");
      } else if (!schema.returns_tuple) {
        ret.type = schema.returns[0];
        stack.push_back(to_ivalue(result, schema, ret));
      } else {
        const Py_ssize_t n = PyTuple_Check(result) ? PyTuple_Size(result) : -1;
        if (n != static_cast<Py_ssize_t>(schema.returns.size()))
          type_error(schema.full_name() + ": its Python kernel must return a tuple of " +
                     std::to_string(schema.returns.size()) + " values, not " + python_type_name(result));
        for (Py_ssize_t i = 0; i < n; ++i) {
          ret.type = schema.returns[static_cast<size_t>(i)];
          stack.push_back(to_ivalue(PyTuple_GetItem(result, i), schema, ret));
        }
      }
    } catch (...) {
      Py_DECREF(result);
      throw;
    }
    Py_DECREF(result);
  };
}

const char* utf8(PyObject* obj) {
  const char* text = PyUnicode_Check(obj) ? PyUnicode_AsUTF8AndSize(obj, nullptr) : nullptr;
  if (!text) type_error("expected a str");
  return text;
}

c10::DispatchKey dispatch_key(const std::string& key) {
  if (key == "CPU") return c10::DispatchKey::CPU;
  if (key == "CUDA") return c10::DispatchKey::CUDA;
  if (key == "CompositeImplicitAutograd") return c10::DispatchKey::CompositeImplicitAutograd;
  throw c10::ValueError("unknown dispatch key '" + key + "' (CPU, CUDA or CompositeImplicitAutograd)");
}

// _ops_define(ns, schema, where) -> the full name ("ns::name" or "ns::name.overload")
PyObject* ops_define(PyObject*, PyObject* call) {
  HANDLE_TH_ERRORS
  PyObject *ns = nullptr, *schema = nullptr, *at = nullptr;
  if (!PyArg_ParseTuple(call, "UUU", &ns, &schema, &at)) return nullptr;
  const c10::OperatorEntry& op = c10::Dispatcher::singleton().def(c10::parse_schema(utf8(schema), utf8(ns)), utf8(at));
  const std::string name = op.schema().full_name();
  return PyUnicode_FromStringAndSize(name.data(), static_cast<Py_ssize_t>(name.size()));
  END_HANDLE_TH_ERRORS
}

// _ops_claim_namespace(ns, where): a Library(ns, "DEF"), as TORCH_LIBRARY claims one.
PyObject* ops_claim_namespace(PyObject*, PyObject* call) {
  HANDLE_TH_ERRORS
  PyObject *ns = nullptr, *at = nullptr;
  if (!PyArg_ParseTuple(call, "UU", &ns, &at)) return nullptr;
  c10::Dispatcher::singleton().claim_namespace(utf8(ns), utf8(at));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

// _ops_impl_python(full_name, dispatch_key, fn, where)
PyObject* ops_impl_python(PyObject*, PyObject* call) {
  HANDLE_TH_ERRORS
  PyObject *name = nullptr, *key = nullptr, *fn = nullptr, *at = nullptr;
  if (!PyArg_ParseTuple(call, "UUOU", &name, &key, &fn, &at)) return nullptr;
  if (!PyCallable_Check(fn)) type_error("torch.library: the kernel must be callable");
  const std::string full = utf8(name);
  const c10::OperatorEntry* op = c10::Dispatcher::singleton().find(full);
  if (!op) throw c10::Error("torch.library.impl: no operator " + full + "; define it first");
  std::vector<SchemaType> arg_types;
  for (const auto& a : op->schema().arguments) arg_types.push_back(a.type);
  c10::Dispatcher::singleton().impl(full, dispatch_key(utf8(key)), python_kernel(fn, full), arg_types,
                                    op->schema().returns, utf8(at));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

// _ops_overloads("ns::name") -> ["", "out", ...]
PyObject* ops_overloads(PyObject*, PyObject* name);

// _ops_keys(full_name) -> the dispatch keys with a kernel
PyObject* ops_keys(PyObject*, PyObject* name);

// _ops_arguments(full_name) -> [(name, type, has_default, default, kwarg_only, alias, is_write)]
PyObject* ops_arguments(PyObject*, PyObject* name) {
  HANDLE_TH_ERRORS
  const c10::OperatorEntry& op = lookup(name);
  const auto& args = op.schema().arguments;
  PyObject* out = PyList_New(static_cast<Py_ssize_t>(args.size()));
  if (!out) return nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    IValue def = a.default_value.value_or(IValue());
    PyObject* def_obj = a.has_default ? to_python(def) : (Py_INCREF(Py_None), Py_None);
    PyObject* item = Py_BuildValue("(ssNNNsN)", a.name.c_str(), a.type.str().c_str(), PyBool_FromLong(a.has_default),
                                   def_obj, PyBool_FromLong(a.kwarg_only), a.alias.c_str(),
                                   PyBool_FromLong(a.is_write));
    if (!item) {
      Py_DECREF(out);
      return nullptr;
    }
    PyList_SetItem(out, static_cast<Py_ssize_t>(i), item);
  }
  return out;
  END_HANDLE_TH_ERRORS
}

const c10::OperatorEntry& lookup(PyObject* name) {
  const char* qualified = PyUnicode_AsUTF8AndSize(name, nullptr);
  if (!qualified) throw python_error();
  const c10::OperatorEntry* op = c10::Dispatcher::singleton().find(qualified);
  if (!op) throw c10::Error(std::string("No such operator ") + qualified);
  return *op;
}

// _ops_call(qualified_name, args: tuple, kwargs: dict | None)
PyObject* ops_call(PyObject*, PyObject* call) {
  HANDLE_TH_ERRORS
  PyObject *name = nullptr, *args = nullptr, *kwargs = nullptr;
  if (!PyArg_ParseTuple(call, "UO!O", &name, &PyTuple_Type, &args, &kwargs)) return nullptr;
  const c10::OperatorEntry& op = lookup(name);
  const c10::FunctionSchema& schema = op.schema();
  const auto& params = schema.arguments;
  size_t positional = 0;
  while (positional < params.size() && !params[positional].kwarg_only) ++positional;
  const Py_ssize_t nargs = PyTuple_Size(args);
  if (static_cast<size_t>(nargs) > positional) {
    type_error(schema.qualified_name() + "() takes " + std::to_string(positional) + " positional argument" +
               (positional == 1 ? "" : "s") + " but " + std::to_string(nargs) + " were given");
  }
  const bool has_kwargs = kwargs != Py_None && PyDict_Size(kwargs) > 0;
  c10::Stack stack;
  stack.reserve(params.size());
  Py_ssize_t used_kwargs = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& arg = params[i];
    PyObject* value = static_cast<Py_ssize_t>(i) < nargs ? PyTuple_GetItem(args, static_cast<Py_ssize_t>(i)) : nullptr;
    if (has_kwargs) {
      PyObject* kw = PyDict_GetItemString(kwargs, arg.name.c_str());  // borrowed
      if (kw && value) type_error(schema.qualified_name() + "() got multiple values for argument '" + arg.name + "'");
      if (kw) {
        value = kw;
        ++used_kwargs;
      }
    }
    if (value) {
      stack.push_back(to_ivalue(value, schema, arg));
    } else if (arg.has_default) {
      stack.push_back(arg.default_value.value_or(IValue()));
    } else {
      type_error(schema.qualified_name() + "() missing required argument '" + arg.name + "' (" + schema.str() + ")");
    }
  }
  if (has_kwargs && used_kwargs != PyDict_Size(kwargs)) {
    PyObject *key = nullptr, *val = nullptr;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs, &pos, &key, &val)) {
      const char* k = PyUnicode_Check(key) ? PyUnicode_AsUTF8AndSize(key, nullptr) : nullptr;
      bool known = false;
      for (const auto& arg : params) known |= k && arg.name == k;
      if (!known) type_error(schema.qualified_name() + "() got an unexpected keyword argument '" + (k ? k : "?") + "'");
    }
  }
  op.call(stack);
  if (schema.returns.empty()) Py_RETURN_NONE;
  if (!schema.returns_tuple) return to_python(stack.at(0));
  PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(stack.size()));
  if (!tuple) return nullptr;
  for (size_t i = 0; i < stack.size(); ++i) {
    PyObject* item = to_python(stack[i]);
    if (!item) {
      Py_DECREF(tuple);
      return nullptr;
    }
    PyTuple_SetItem(tuple, static_cast<Py_ssize_t>(i), item);
  }
  return tuple;
  END_HANDLE_TH_ERRORS
}

PyObject* ops_schema(PyObject*, PyObject* name) {
  HANDLE_TH_ERRORS
  const char* qualified = PyUnicode_AsUTF8AndSize(name, nullptr);
  if (!qualified) return nullptr;
  const c10::OperatorEntry* op = c10::Dispatcher::singleton().find(qualified);
  if (!op) Py_RETURN_NONE;
  const std::string s = op->schema().str();
  return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
  END_HANDLE_TH_ERRORS
}

PyObject* string_list(const std::vector<std::string>& items) {
  PyObject* list = PyList_New(0);
  if (!list) return nullptr;
  for (const auto& s : items) {
    PyObject* item = PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
    if (!item || PyList_Append(list, item) < 0) {
      Py_XDECREF(item);
      Py_DECREF(list);
      return nullptr;
    }
    Py_DECREF(item);
  }
  return list;
}

PyObject* ops_names(PyObject*, PyObject* ns) {
  HANDLE_TH_ERRORS
  const char* text = PyUnicode_AsUTF8AndSize(ns, nullptr);
  if (!text) return nullptr;
  return string_list(c10::Dispatcher::singleton().operator_names(text));
  END_HANDLE_TH_ERRORS
}

PyObject* ops_overloads(PyObject*, PyObject* name) {
  HANDLE_TH_ERRORS
  return string_list(c10::Dispatcher::singleton().overload_names(utf8(name)));
  END_HANDLE_TH_ERRORS
}

PyObject* ops_python_module(PyObject*, PyObject* ns) {
  HANDLE_TH_ERRORS
  std::optional<std::string> module = c10::Dispatcher::singleton().python_module(utf8(ns));
  if (!module) Py_RETURN_NONE;
  return PyUnicode_FromStringAndSize(module->data(), static_cast<Py_ssize_t>(module->size()));
  END_HANDLE_TH_ERRORS
}

PyObject* ops_keys(PyObject*, PyObject* name) {
  HANDLE_TH_ERRORS
  std::vector<std::string> keys;
  for (c10::DispatchKey k : lookup(name).registered_keys()) keys.push_back(c10::to_string(k));
  return string_list(keys);
  END_HANDLE_TH_ERRORS
}

PyObject* ops_take_registration_errors(PyObject*, PyObject*) {
  HANDLE_TH_ERRORS
  return string_list(c10::Dispatcher::singleton().take_registration_errors());
  END_HANDLE_TH_ERRORS
}

PyMethodDef ops_methods[] = {
    {"_ops_call", ops_call, METH_VARARGS, "_ops_call(qualified_name, args, kwargs): calls a registered operator."},
    {"_ops_schema", ops_schema, METH_O, "The schema of a registered operator, or None."},
    {"_ops_names", ops_names, METH_O, "The operators registered in a namespace."},
    {"_ops_overloads", ops_overloads, METH_O, "The overload names of ns::name ('' for the unnamed one)."},
    {"_ops_keys", ops_keys, METH_O, "The dispatch keys an operator has kernels for."},
    {"_ops_python_module", ops_python_module, METH_O,
     "The module a namespace named with m.set_python_module (impl_abstract_pystub), or None."},
    {"_ops_arguments", ops_arguments, METH_O,
     "An operator's arguments: (name, type, has_default, default, kwarg_only, alias, is_write) each."},
    {"_ops_define", ops_define, METH_VARARGS, "_ops_define(ns, schema, where): defines an operator."},
    {"_ops_claim_namespace", ops_claim_namespace, METH_VARARGS, "_ops_claim_namespace(ns, where)."},
    {"_ops_impl_python", ops_impl_python, METH_VARARGS,
     "_ops_impl_python(full_name, key, fn, where): registers a Python kernel."},
    {"_ops_take_registration_errors", ops_take_registration_errors, METH_NOARGS,
     "Errors of TORCH_LIBRARY blocks that failed while their library loaded (cleared once taken)."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void init_ops(PyObject* module) { PyModule_AddFunctions(module, ops_methods); }

}  // namespace torch
