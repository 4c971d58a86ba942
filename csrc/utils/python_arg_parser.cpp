#include "csrc/utils/python_arg_parser.h"

#include "csrc/Exceptions.h"
#include "csrc/python_device.h"
#include "csrc/python_dtype.h"
#include "csrc/python_tensor.h"

#include <ATen/ScalarOps.h>
#include <ATen/autograd/Variable.h>

#include <algorithm>
#include <sstream>

namespace torch {
namespace {

[[noreturn]] void type_error(const std::string& msg) { throw c10::TypeError(msg); }

std::string strip(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  const auto e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split_params(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[') depth++;
    if (c == ']') depth--;
    if (c == ',' && depth == 0) {
      out.push_back(strip(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!strip(cur).empty()) out.push_back(strip(cur));
  return out;
}

std::vector<int64_t> parse_int_list_literal(const std::string& text) {
  std::vector<int64_t> out;
  std::string body = text.substr(1, text.size() - 2);
  for (const auto& part : split_params(body)) out.push_back(std::stoll(part));
  return out;
}

}  // namespace

// ---- conversions -----------------------------------------------------------

std::string python_type_name(PyObject* obj) {
  if (THPVariable_Check(obj)) return "Tensor";
  return type_name(Py_TYPE(obj));
}

bool is_int_like(PyObject* obj) {
  // Exact types first: on the stable ABI the Py*_Check macros are calls.
  if (Py_TYPE(obj) == &PyLong_Type) return true;
  if (PyBool_Check(obj)) return false;
  if (PyLong_Check(obj)) return true;
  // numpy integers, 0-d integer arrays and other objects whose __index__
  // works (an array of several elements or of floats has one that raises)
  if (PyFloat_Check(obj) || THPVariable_Check(obj) || !PyIndex_Check(obj)) return false;
  PyObject* index = PyNumber_Index(obj);
  if (!index) {
    PyErr_Clear();
    return false;
  }
  Py_DECREF(index);
  return true;
}

bool is_number(PyObject* obj) {
  return Py_TYPE(obj) == &PyFloat_Type || PyLong_Check(obj) || PyFloat_Check(obj) || is_int_like(obj) ||
         (!THPVariable_Check(obj) && PyNumber_Check(obj) &&
          !PyUnicode_Check(obj) && !PySequence_Check(obj));
}

at::Scalar to_scalar(PyObject* obj) {
  if (PyBool_Check(obj)) return at::Scalar(obj == Py_True);
  if (is_int_like(obj)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow) throw c10::Error("Overflow when unpacking long");
    if (v == -1 && PyErr_Occurred()) throw python_error();
    return at::Scalar(static_cast<int64_t>(v));
  }
  const double v = PyFloat_AsDouble(obj);
  if (v == -1.0 && PyErr_Occurred()) throw python_error();
  return at::Scalar(v);
}

at::ScalarType to_scalar_type(PyObject* obj) {
  if (THPDtype_Check(obj)) return reinterpret_cast<THPDtype*>(obj)->scalar_type;
  if (obj == reinterpret_cast<PyObject*>(&PyFloat_Type)) return at::ScalarType::Double;
  if (obj == reinterpret_cast<PyObject*>(&PyLong_Type)) return at::ScalarType::Long;
  if (obj == reinterpret_cast<PyObject*>(&PyBool_Type)) return at::ScalarType::Bool;
  type_error("expected a torch.dtype, got " + python_type_name(obj));
}

at::Device to_device(PyObject* obj) {
  if (THPDevice_Check(obj)) return reinterpret_cast<THPDevice*>(obj)->device;
  if (PyUnicode_Check(obj)) return at::Device(std::string(utf8(obj)));
  if (is_int_like(obj)) {
    const long long i = PyLong_AsLongLong(obj);
    TORCH_CHECK(i >= 0 && i < 128, "Device index must not be negative, got ", i);
    return at::Device(at::DeviceType::CUDA, static_cast<int8_t>(i));
  }
  type_error("expected a torch.device, got " + python_type_name(obj));
}

std::vector<int64_t> to_int_list(PyObject* obj) {
  const bool sequence = Py_TYPE(obj) == &PyTuple_Type || Py_TYPE(obj) == &PyList_Type;
  if (!sequence && is_int_like(obj)) return {to_scalar(obj).toLong()};
  PyObject* seq = PySequence_Fast(obj, "expected a sequence of integers");
  if (!seq) throw python_error();
  const Py_ssize_t n = fast_size(seq);
  std::vector<int64_t> out(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = fast_item(seq, i);
    if (!is_int_like(item)) {
      Py_DECREF(seq);
      type_error("expected a sequence of integers, but element " + std::to_string(i) + " is " +
                 python_type_name(item));
    }
    out[i] = to_scalar(item).toLong();
  }
  Py_DECREF(seq);
  return out;
}

at::Tensor scalar_to_tensor(const at::Scalar& s) { return at::wrapped_scalar_tensor(s); }

// ---- FunctionParameter -----------------------------------------------------

FunctionParameter::FunctionParameter(const std::string& text, bool kw_only) : keyword_only(kw_only) {
  const auto eq = text.find('=');
  const std::string decl = strip(text.substr(0, eq));
  if (eq != std::string::npos) {
    has_default = true;
    default_text = strip(text.substr(eq + 1));
  }
  const auto space = decl.rfind(' ');
  std::string type_text = decl.substr(0, space);
  name = decl.substr(space + 1);
  if (!type_text.empty() && type_text.back() == '?') {
    optional = true;
    type_text.pop_back();
  }
  const auto bracket = type_text.find('[');
  const bool is_list = bracket != std::string::npos;
  std::string base = type_text.substr(0, bracket);
  if (is_list) {
    const std::string size = type_text.substr(bracket + 1, type_text.size() - bracket - 2);
    list_size = size.empty() ? 0 : std::stoi(size);
  }
  if (base == "Tensor") type = is_list ? ParamType::TensorList : ParamType::Tensor;
  else if (base == "int") type = is_list ? ParamType::IntList : ParamType::Int;
  else if (base == "Scalar") type = ParamType::Scalar;
  else if (base == "ScalarType") type = ParamType::ScalarType;
  else if (base == "Device") type = ParamType::Device;
  else if (base == "float") type = ParamType::Float;
  else if (base == "bool") type = ParamType::Bool;
  else if (base == "str") type = ParamType::String;
  else throw c10::Error("unknown parameter type in signature: " + text);

  // None also stands for a list's empty default (amax(x, None) as amax(x, [])), as PyTorch parses it.
  allow_none = optional || (has_default && (default_text == "None" || (is_list && default_text == "[]")));
  if (has_default && default_text != "None") {
    switch (type) {
      case ParamType::Scalar:
        default_scalar = default_text.find_first_of(".e") != std::string::npos
                             ? at::Scalar(std::stod(default_text))
                             : at::Scalar(static_cast<int64_t>(std::stoll(default_text)));
        break;
      case ParamType::Int: default_int = std::stoll(default_text); break;
      case ParamType::Float: default_double = std::stod(default_text); break;
      case ParamType::Bool: default_bool = default_text == "True"; break;
      case ParamType::IntList:
        // int[2] stride=1 means [1, 1], as in torchgen; int[] dims=[0, 1] is a literal list.
        default_intlist = default_text.front() == '['
                              ? parse_int_list_literal(default_text)
                              : std::vector<int64_t>(static_cast<size_t>(std::max(list_size, 1)),
                                                     static_cast<int64_t>(std::stoll(default_text)));
        break;
      case ParamType::String: default_string = default_text.substr(1, default_text.size() - 2); break;
      default: break;
    }
  }
  python_name = PyUnicode_InternFromString(name.c_str());
  if (name == "dim") numpy_name = PyUnicode_InternFromString("axis");
  if (name == "keepdim") numpy_name = PyUnicode_InternFromString("keepdims");
}

bool FunctionParameter::named(PyObject* key) const {
  return key == python_name || PyUnicode_Compare(key, python_name) == 0 ||
         (numpy_name && PyUnicode_Compare(key, numpy_name) == 0);
}

bool FunctionParameter::check(PyObject* obj, bool allow_numbers_as_tensors) const {
  switch (type) {
    case ParamType::Tensor:
      return THPVariable_Check(obj) || (allow_numbers_as_tensors && is_number(obj));
    case ParamType::TensorList: {
      if (!PyTuple_Check(obj) && !PyList_Check(obj)) return false;
      const Py_ssize_t n = fast_size(obj);
      for (Py_ssize_t i = 0; i < n; ++i)
        if (!THPVariable_Check(fast_item(obj, i))) return false;
      return true;
    }
    case ParamType::Scalar: {
      // A tensor stands for a number only if it is 0-d and needs no gradient, as in PyTorch.
      if (is_number(obj) || PyBool_Check(obj)) return true;
      if (!THPVariable_Check(obj)) return false;
      const at::Tensor& t = THPVariable_Unpack(obj);
      return t.dim() == 0 && !at::autograd::requires_grad(t);
    }
    case ParamType::ScalarType:
      return THPDtype_Check(obj) || obj == reinterpret_cast<PyObject*>(&PyFloat_Type) ||
             obj == reinterpret_cast<PyObject*>(&PyLong_Type) || obj == reinterpret_cast<PyObject*>(&PyBool_Type);
    case ParamType::Device:
      return THPDevice_Check(obj) || PyUnicode_Check(obj) || is_int_like(obj);
    case ParamType::Int:
      return is_int_like(obj);
    case ParamType::IntList: {
      if (list_size > 0 && is_int_like(obj)) return true;
      if (!PyTuple_Check(obj) && !PyList_Check(obj)) return false;
      const Py_ssize_t n = fast_size(obj);
      for (Py_ssize_t i = 0; i < n; ++i)
        if (!is_int_like(fast_item(obj, i))) return false;
      return true;
    }
    case ParamType::Float:
      return PyFloat_Check(obj) || PyBool_Check(obj) || is_int_like(obj);  // PyTorch takes True as 1.0
    case ParamType::Bool:
      return PyBool_Check(obj);
    case ParamType::String:
      return PyUnicode_Check(obj);
  }
  return false;
}

std::string FunctionParameter::type_name() const {
  switch (type) {
    case ParamType::Tensor: return "Tensor";
    case ParamType::TensorList: return "tuple of Tensors";
    case ParamType::Scalar: return "Number";
    case ParamType::ScalarType: return "torch.dtype";
    case ParamType::Device: return "torch.device";
    case ParamType::Int: return "int";
    case ParamType::IntList: return "tuple of ints";
    case ParamType::Float: return "float";
    case ParamType::Bool: return "bool";
    case ParamType::String: return "str";
  }
  return "?";
}

// ---- FunctionSignature -------------------------------------------------------

FunctionSignature::FunctionSignature(const std::string& text) {
  // "add(Tensor input, Tensor other, ...)|numbers=input,other": after the bar,
  // the tensor parameters that also take a Python number (the YAML's
  // numbers_as_tensors), decided once here rather than on every call.
  const auto bar = text.find(")|numbers=");
  const std::string sig = bar == std::string::npos ? text : text.substr(0, bar + 1);
  std::vector<std::string> numbers;
  if (bar != std::string::npos) {
    std::stringstream list(text.substr(bar + 10));
    for (std::string item; std::getline(list, item, ',');) numbers.push_back(item);
  }
  const auto open = sig.find('(');
  name = sig.substr(0, open);
  const std::string body = sig.substr(open + 1, sig.rfind(')') - open - 1);
  bool kw_only = false;
  for (const auto& p : split_params(body)) {
    if (p == "*") {
      kw_only = true;
      continue;
    }
    params.emplace_back(p, kw_only);
    auto& param = params.back();
    param.accepts_numbers = param.type == ParamType::Tensor &&
                            std::find(numbers.begin(), numbers.end(), param.name) != numbers.end();
    if (!kw_only) max_positional++;
  }
}

std::string FunctionSignature::to_string() const {
  std::ostringstream ss;
  ss << "(";
  bool star = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& p = params[i];
    if (i) ss << ", ";
    if (p.keyword_only && !star) {
      ss << "*, ";
      star = true;
    }
    ss << p.type_name() << (p.optional ? "?" : "") << " " << p.name;
    if (p.has_default) ss << " = " << p.default_text;
  }
  ss << ")";
  return ss.str();
}

bool FunctionSignature::parse(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject** dst,
                              PyObject** varargs_holder, bool allow_numbers, bool raise) const {
  const Py_ssize_t nkw = kwnames ? tuple_size(kwnames) : 0;
  size_t first_param = 0;
  // view(2, 3) as well as view((2, 3)): an int list that is the only
  // positional parameter swallows all positional arguments when they are ints
  // (as PyTorch's parser: roll(1, 0) is shifts=1, dims=0).
  if (!params.empty() && params[0].type == ParamType::IntList && !params[0].keyword_only && max_positional == 1 &&
      nargs >= 1 &&
      is_int_like(args[0]) && (nargs > 1 || params[0].list_size == 0)) {
    bool all_ints = true;
    for (Py_ssize_t i = 0; i < nargs; ++i) all_ints = all_ints && is_int_like(args[i]);
    if (all_ints) {
      PyObject* tuple = PyTuple_New(nargs);
      if (!tuple) throw python_error();
      for (Py_ssize_t i = 0; i < nargs; ++i) {
        Py_INCREF(args[i]);
        tuple_set(tuple, i, args[i]);
      }
      Py_XDECREF(*varargs_holder);
      *varargs_holder = tuple;
      dst[0] = tuple;
      first_param = 1;
      args += nargs;
      nargs = 0;
    }
  }
  if (first_param == 0 && static_cast<size_t>(nargs) > max_positional) {
    if (raise) {
      type_error(name + "() takes " + std::to_string(max_positional) + " positional argument" +
                 (max_positional == 1 ? "" : "s") + " but " + std::to_string(nargs) +
                 (nargs == 1 ? " was" : " were") + " given");
    }
    return false;
  }
  Py_ssize_t kw_used = 0;
  for (size_t i = first_param; i < params.size(); ++i) {
    const auto& p = params[i];
    const Py_ssize_t pos = static_cast<Py_ssize_t>(i - first_param);
    PyObject* obj = nullptr;
    if (!p.keyword_only && pos < nargs) obj = args[pos];
    for (Py_ssize_t k = 0; k < nkw; ++k) {
      PyObject* key = tuple_item(kwnames, k);
      if (p.named(key)) {
        if (obj) {
          if (raise) type_error(name + "() got multiple values for argument '" + p.name + "'");
          return false;
        }
        obj = args[nargs + k];
        kw_used++;
      }
    }
    if (!obj) {
      // As in PyTorch, `int? to` without a default must be given (None allowed):
      // random_(3) is random_.to, not random_.from with to=None.
      if (!p.has_default) {
        if (raise) type_error(name + "() missing required argument '" + p.name + "' (pos " + std::to_string(i + 1) + ")");
        return false;
      }
      dst[i] = nullptr;
      continue;
    }
    if (!(obj == Py_None && p.allow_none) && !p.check(obj, allow_numbers && p.accepts_numbers)) {
      if (raise) {
        std::string where = pos < nargs && !p.keyword_only ? " (position " + std::to_string(i + 1) + ")" : "";
        type_error(name + "(): argument '" + p.name + "'" + where + " must be " + p.type_name() + ", not " +
                   python_type_name(obj));
      }
      return false;
    }
    dst[i] = obj;
  }
  if (kw_used != nkw) {
    if (raise) {
      for (Py_ssize_t k = 0; k < nkw; ++k) {
        PyObject* key = tuple_item(kwnames, k);
        bool known = false;
        for (const auto& p : params) known = known || p.named(key);
        if (!known) type_error(name + "() got an unexpected keyword argument '" + utf8(key) + "'");
      }
    }
    return false;
  }
  return true;
}

// ---- PythonArgParser ---------------------------------------------------------

PythonArgParser::PythonArgParser(std::vector<std::string> signatures, bool is_method) : is_method_(is_method) {
  for (const auto& s : signatures) signatures_.emplace_back(s);
  name_ = signatures_.at(0).name;
}

PythonArgs PythonArgParser::raw_parse(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject** dst,
                                      PyObject** varargs_holder) {
  for (bool allow_numbers : {false, true}) {
    for (size_t i = 0; i < signatures_.size(); ++i) {
      if (signatures_[i].parse(args, nargs, kwnames, dst, varargs_holder, allow_numbers, false)) {
        return PythonArgs(static_cast<int>(i), signatures_[i], dst);
      }
    }
  }
  raise_no_match(args, nargs, kwnames);
}

void PythonArgParser::raise_no_match(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (signatures_.size() == 1) {
    PyObject* dummy[64];
    PyObject* holder = nullptr;
    signatures_[0].parse(args, nargs, kwnames, dummy, &holder, true, true);
    Py_XDECREF(holder);
  }
  std::string got = "(";
  for (Py_ssize_t i = 0; i < nargs; ++i) got += (i ? ", " : "") + python_type_name(args[i]);
  const Py_ssize_t nkw = kwnames ? tuple_size(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    got += (nargs + k ? ", " : "") + std::string(utf8(tuple_item(kwnames, k))) + "=" +
           python_type_name(args[nargs + k]);
  }
  got += ")";
  std::string msg = name_ + "() received an invalid combination of arguments - got " + got + ", but expected one of:";
  for (const auto& s : signatures_) msg += "\n * " + s.to_string();
  type_error(msg);
}

// ---- PythonArgs accessors -----------------------------------------------------

at::Tensor PythonArgs::tensor(int i) const {
  PyObject* obj = args_[i];
  if (!obj || obj == Py_None) return at::Tensor();
  if (THPVariable_Check(obj)) return THPVariable_Unpack(obj);
  return scalar_to_tensor(to_scalar(obj));
}

std::optional<at::Tensor> PythonArgs::optionalTensor(int i) const {
  if (isNone(i)) return std::nullopt;
  return tensor(i);
}

std::vector<at::Tensor> PythonArgs::tensorlist(int i) const {
  PyObject* obj = args_[i];
  std::vector<at::Tensor> out;
  if (!obj) return out;
  const Py_ssize_t n = fast_size(obj);
  for (Py_ssize_t k = 0; k < n; ++k) out.push_back(THPVariable_Unpack(fast_item(obj, k)));
  return out;
}

at::Scalar PythonArgs::scalar(int i) const {
  PyObject* obj = args_[i];
  if (!obj) return param(i).default_scalar;
  if (THPVariable_Check(obj)) return at::item(THPVariable_Unpack(obj));
  return to_scalar(obj);
}

std::optional<at::Scalar> PythonArgs::scalarOptional(int i) const {
  if (isNone(i)) return std::nullopt;
  return scalar(i);
}

at::ScalarType PythonArgs::scalartype(int i) const {
  if (!args_[i]) return c10::get_default_dtype();
  return to_scalar_type(args_[i]);
}

std::optional<at::ScalarType> PythonArgs::scalartypeOptional(int i) const {
  if (isNone(i)) return std::nullopt;
  return to_scalar_type(args_[i]);
}

at::Device PythonArgs::device(int i) const {
  if (!args_[i]) return at::Device(at::DeviceType::CPU);
  return to_device(args_[i]);
}

std::optional<at::Device> PythonArgs::deviceOptional(int i) const {
  if (isNone(i)) return std::nullopt;
  return to_device(args_[i]);
}

int64_t PythonArgs::toInt64(int i) const {
  if (!args_[i]) return param(i).default_int;
  return to_scalar(args_[i]).toLong();
}

std::optional<int64_t> PythonArgs::toInt64Optional(int i) const {
  if (isNone(i)) return std::nullopt;
  return toInt64(i);
}

double PythonArgs::toDouble(int i) const {
  if (!args_[i]) return param(i).default_double;
  return to_scalar(args_[i]).toDouble();
}

std::optional<double> PythonArgs::toDoubleOptional(int i) const {
  if (isNone(i)) return std::nullopt;
  return toDouble(i);
}

bool PythonArgs::toBool(int i) const {
  if (!args_[i]) return param(i).default_bool;
  return args_[i] == Py_True;
}

std::optional<bool> PythonArgs::toBoolOptional(int i) const {
  if (isNone(i)) return std::nullopt;
  return toBool(i);
}

std::vector<int64_t> PythonArgs::intlist(int i) const {
  PyObject* obj = args_[i];
  if (!obj || obj == Py_None) return param(i).default_intlist;
  std::vector<int64_t> v = to_int_list(obj);
  const int n = param(i).list_size;
  if (n > 0 && is_int_like(obj)) {  // int[2]: 3 means [3, 3]
    // A copy: assign(n, v[0]) would pass a reference into the storage it
    // frees (libc++ reads it after the reallocation: garbage sizes on macOS
    // and Windows).
    const int64_t value = v[0];
    v.assign(n, value);
  }
  return v;
}

std::optional<std::vector<int64_t>> PythonArgs::intlistOptional(int i) const {
  if (isNone(i)) return std::nullopt;
  return intlist(i);
}

std::string_view PythonArgs::stringView(int i) const {
  if (!args_[i]) return param(i).default_string;
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(args_[i], &size);
  if (!data) throw python_error();
  return std::string_view(data, size);
}

std::optional<std::string_view> PythonArgs::stringViewOptional(int i) const {
  if (isNone(i)) return std::nullopt;
  return stringView(i);
}

}  // namespace torch
