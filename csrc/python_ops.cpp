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
  throw c10::Error("torch.ops: a kernel returned a value of a type a schema cannot return");
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

PyObject* ops_take_registration_errors(PyObject*, PyObject*) {
  HANDLE_TH_ERRORS
  return string_list(c10::Dispatcher::singleton().take_registration_errors());
  END_HANDLE_TH_ERRORS
}

PyMethodDef ops_methods[] = {
    {"_ops_call", ops_call, METH_VARARGS, "_ops_call(qualified_name, args, kwargs): calls a registered operator."},
    {"_ops_schema", ops_schema, METH_O, "The schema of a registered operator, or None."},
    {"_ops_names", ops_names, METH_O, "The operators registered in a namespace."},
    {"_ops_take_registration_errors", ops_take_registration_errors, METH_NOARGS,
     "Errors of TORCH_LIBRARY blocks that failed while their library loaded (cleared once taken)."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void init_ops(PyObject* module) { PyModule_AddFunctions(module, ops_methods); }

}  // namespace torch
