#pragma once
// The operator registry behind torch::Library (torch/library.h) and
// torch.ops: operators that code outside this library (an extension) defines
// by schema string, with kernels per backend, called boxed.
//
// A schema reads like PyTorch's: "ns::name(Tensor x, float alpha=1.0) -> Tensor".
// Kernels are registered for CPU, CUDA, or CompositeImplicitAutograd (one
// kernel made of other ops, differentiated through them). A call picks the
// kernel for the device of its tensor arguments. Nothing here knows Python.
#include <ATen/core/ivalue.h>
#include <c10/macros/Export.h>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace c10 {

enum class DispatchKey { CPU, CUDA, CompositeImplicitAutograd };
TORCH_API const char* to_string(DispatchKey key);

// One schema type: a base type, maybe a list of it, maybe optional.
struct TORCH_API SchemaType {
  enum class Base { Tensor, Int, Float, Bool, Str, Scalar };
  Base base = Base::Tensor;
  bool is_list = false;
  bool is_optional = false;
  std::string str() const;  // "Tensor?", "int[]", ...
  bool operator==(const SchemaType& o) const {
    return base == o.base && is_list == o.is_list && is_optional == o.is_optional;
  }
};

struct TORCH_API SchemaArgument {
  std::string name;
  SchemaType type;
  // The alias annotation: "a!" in "Tensor(a!) out" (is_write: the kernel writes it).
  std::string alias;
  bool is_write = false;
  std::optional<IValue> default_value;
  std::string default_text;  // as the schema wrote it
  bool has_default = false;
  bool kwarg_only = false;
};

struct TORCH_API FunctionSchema {
  std::string ns, name, overload;
  std::vector<SchemaArgument> arguments;
  std::vector<SchemaType> returns;
  std::vector<std::string> return_aliases;  // per return: "a" in "-> Tensor(a)", or ""
  bool returns_tuple = false;  // "-> (Tensor, Tensor)" rather than "-> Tensor"
  std::string qualified_name() const { return ns + "::" + name; }
  // "ns::name" or "ns::name.overload": the key of the registry.
  std::string full_name() const { return qualified_name() + (overload.empty() ? "" : "." + overload); }
  std::string str() const;
};

// Parses "name(args) -> returns", with or without "ns::"; `ns` fills in a
// missing one and must match a given one. Throws c10::Error naming the fault.
TORCH_API FunctionSchema parse_schema(const std::string& text, const std::string& ns);
TORCH_API SchemaType parse_schema_type(const std::string& text);

using BoxedKernel = std::function<void(Stack&)>;

class TORCH_API OperatorEntry {
 public:
  const FunctionSchema& schema() const { return schema_; }
  const std::string& defined_at() const { return defined_at_; }
  // Runs the kernel for the device of the arguments: the stack holds one
  // entry per argument, and the results when it returns.
  void call(Stack& stack) const;
  std::vector<DispatchKey> registered_keys() const;

 private:
  friend class Dispatcher;
  std::shared_ptr<const BoxedKernel> kernel(DispatchKey key) const;
  void run_kernel(Stack& stack) const;

  FunctionSchema schema_;
  std::string defined_at_;
  // Read on every call, written when a library loads: each slot is swapped under the lock.
  mutable std::mutex mutex_;
  std::shared_ptr<const BoxedKernel> kernels_[3];
};

class TORCH_API Dispatcher {
 public:
  static Dispatcher& singleton();

  // TORCH_LIBRARY(ns, m): claims a namespace; a second claim is an error.
  void claim_namespace(const std::string& ns, const std::string& where);
  // m.def(schema): declares an operator or a named overload of one (an
  // error if that name and overload exist).
  const OperatorEntry& def(FunctionSchema schema, const std::string& where);
  // m.impl(name, fn) for one key. `kernel_types` are the C++ function's
  // argument and return types, checked against the schema.
  void impl(const std::string& qualified_name, DispatchKey key, BoxedKernel kernel,
            const std::vector<SchemaType>& arg_types, const std::vector<SchemaType>& return_types,
            const std::string& where);

  // "ns::name" (the overload without a name) or "ns::name.overload".
  const OperatorEntry* find(const std::string& qualified_name) const;
  // The operator names of a namespace, each once.
  std::vector<std::string> operator_names(const std::string& ns) const;
  // The overload names of "ns::name" ("" for the unnamed one), in definition order.
  std::vector<std::string> overload_names(const std::string& qualified_name) const;

  // m.set_python_module("pkg.ops") (or its older name impl_abstract_pystub):
  // the Python module that holds a namespace's fake kernels, imported by
  // torch.library when one is needed and not yet registered.
  void set_python_module(const std::string& ns, const std::string& module);
  std::optional<std::string> python_module(const std::string& ns) const;

  // A registration that failed inside a library's static initialisers
  // (where throwing would abort the process) is kept here; the loader
  // (torch.ops.load_library) takes the messages and raises them.
  void record_registration_error(const std::string& message);
  std::vector<std::string> take_registration_errors();

 private:
  struct Impl;
  Dispatcher();
  std::unique_ptr<Impl> impl_;
};

}  // namespace c10
