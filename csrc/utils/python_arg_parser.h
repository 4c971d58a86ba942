#pragma once
// Parses Python arguments against schema-like signature strings, such as
//   "add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)"
// The generated bindings hand every overload's signature to one parser; it
// returns the index of the first signature the arguments fit, and typed
// accessors convert each argument (or its default) to C++.
//
// Numbers are accepted where a Tensor is expected only for the parameters a
// signature names after "|numbers=" (torch.add(2, t), t.eq(2)), and only
// after no signature matched without that, so `t ** 2` picks pow(Tensor, Scalar).
#include "csrc/python_compat.h"

#include <ATen/ATen.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torch {

enum class ParamType { Tensor, TensorList, Scalar, ScalarType, Device, Int, IntList, Float, Bool, String };

struct FunctionParameter {
  explicit FunctionParameter(const std::string& text, bool keyword_only);

  // Whether `obj` can be converted to this parameter's type.
  bool check(PyObject* obj, bool allow_numbers_as_tensors) const;
  // Whether keyword `key` names this parameter (by its name or its numpy spelling).
  bool named(PyObject* key) const;
  std::string type_name() const;

  ParamType type;
  bool optional = false;   // T? (None is accepted)
  bool allow_none = false; // optional, or defaults to None
  bool keyword_only;
  int list_size = 0;       // N of int[N]: a single int is accepted too
  std::string name;
  PyObject* python_name = nullptr;  // interned, for keyword lookup
  PyObject* numpy_name = nullptr;   // numpy's spelling PyTorch also accepts: axis for dim, keepdims for keepdim
  bool accepts_numbers = false;  // a Tensor parameter that also takes a Python number
  bool has_default = false;
  std::string default_text;
  at::Scalar default_scalar;
  int64_t default_int = 0;
  double default_double = 0;
  bool default_bool = false;
  std::vector<int64_t> default_intlist;
  std::string default_string;
};

struct FunctionSignature {
  explicit FunctionSignature(const std::string& text);

  // Fills dst[i] with a borrowed reference per parameter (nullptr: absent).
  // On mismatch returns false, or raises TypeError when `raise` is set.
  bool parse(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject** dst,
             PyObject** varargs_holder, bool allow_numbers_as_tensors, bool raise) const;
  std::string to_string() const;

  std::string name;
  std::vector<FunctionParameter> params;
  size_t max_positional = 0;
};

template <int N>
struct ParsedArgs {
  PyObject* args[N];
  PyObject* varargs_holder = nullptr;  // owns the tuple made for view(2, 3)-style calls
  ParsedArgs() = default;
  ParsedArgs(const ParsedArgs&) = delete;
  ~ParsedArgs() { Py_XDECREF(varargs_holder); }
};

class PythonArgs {
 public:
  PythonArgs(int idx, const FunctionSignature& sig, PyObject** args) : idx(idx), signature_(sig), args_(args) {}

  const int idx;
  PyObject* obj(int i) const { return args_[i]; }
  bool isNone(int i) const { return args_[i] == nullptr || args_[i] == Py_None; }

  at::Tensor tensor(int i) const;
  std::optional<at::Tensor> optionalTensor(int i) const;
  std::vector<at::Tensor> tensorlist(int i) const;
  at::Scalar scalar(int i) const;
  std::optional<at::Scalar> scalarOptional(int i) const;
  at::ScalarType scalartype(int i) const;
  std::optional<at::ScalarType> scalartypeOptional(int i) const;
  at::Device device(int i) const;
  std::optional<at::Device> deviceOptional(int i) const;
  int64_t toInt64(int i) const;
  std::optional<int64_t> toInt64Optional(int i) const;
  double toDouble(int i) const;
  std::optional<double> toDoubleOptional(int i) const;
  bool toBool(int i) const;
  std::optional<bool> toBoolOptional(int i) const;
  std::vector<int64_t> intlist(int i) const;
  std::optional<std::vector<int64_t>> intlistOptional(int i) const;
  std::string_view stringView(int i) const;
  std::optional<std::string_view> stringViewOptional(int i) const;

 private:
  const FunctionParameter& param(int i) const { return signature_.params[i]; }
  const FunctionSignature& signature_;
  PyObject** args_;
};

class PythonArgParser {
 public:
  PythonArgParser(std::vector<std::string> signatures, bool is_method);

  template <int N>
  PythonArgs parse(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, ParsedArgs<N>& dst) {
    return raw_parse(args, nargs, kwnames, dst.args, &dst.varargs_holder);
  }

 private:
  PythonArgs raw_parse(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject** dst,
                       PyObject** varargs_holder);
  [[noreturn]] void raise_no_match(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);

  std::vector<FunctionSignature> signatures_;
  std::string name_;
  bool is_method_;
};

// Python object -> C++ conversions shared with hand-written bindings.
bool is_int_like(PyObject* obj);
bool is_number(PyObject* obj);
at::Scalar to_scalar(PyObject* obj);
at::ScalarType to_scalar_type(PyObject* obj);
at::Device to_device(PyObject* obj);
std::vector<int64_t> to_int_list(PyObject* obj);
// A 0-d tensor made from a Python number, marked as a wrapped number for type promotion.
at::Tensor scalar_to_tensor(const at::Scalar& s);
std::string python_type_name(PyObject* obj);

inline at::OptionalIntArrayRef as_optional_ref(const std::optional<std::vector<int64_t>>& v) {
  if (!v) return std::nullopt;
  return at::IntArrayRef(*v);
}

}  // namespace torch
