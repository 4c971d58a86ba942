#pragma once
// Defining operators from C++ (an extension, or any library loaded into a
// process that has torch), in PyTorch's shape:
//
//   at::Tensor bias_relu(const at::Tensor& x, const at::Tensor& bias) { ... }
//
//   TORCH_LIBRARY(my_ops, m) {
//     m.def("bias_relu(Tensor x, Tensor bias) -> Tensor");
//   }
//   TORCH_LIBRARY_IMPL(my_ops, CPU, m) {
//     m.impl("bias_relu", &bias_relu);
//   }
//
// and from Python, once the library is loaded (import of the extension
// module, or torch.ops.load_library(path)): torch.ops.my_ops.bias_relu(x, b).
//
// m.def(schema, fn) defines and implements at once, for every device
// (CompositeImplicitAutograd: fn is made of other ops, which autograd
// records). A kernel under CPU or CUDA is what autograd does not see through;
// a gradient reaching its outputs raises, so differentiate it with a
// torch.autograd.Function in Python. m.def("name", fn) infers the schema from
// fn's C++ signature (arguments named _0, _1, ...).
//
// Argument types: at::Tensor (by value or const&), std::optional<at::Tensor>,
// std::vector<at::Tensor> / at::TensorList, int64_t, double, bool,
// std::string / std::string_view, at::Scalar, std::optional of those scalars,
// std::vector<int64_t> / at::IntArrayRef, std::vector<double>. Returns: any
// single one of Tensor, Tensor list, int64_t, double, bool, a std::tuple of
// Tensors, or void. A C++ exception from a kernel (TORCH_CHECK) reaches
// Python as the matching exception.
#include <ATen/core/dispatcher.h>

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace torch {
namespace detail {

using c10::IValue;
using c10::SchemaType;
using B = SchemaType::Base;

template <typename T>
struct always_false : std::false_type {};

// The schema type of a C++ argument or return type.
template <typename T>
SchemaType schema_type_of() {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (std::is_same_v<U, at::Tensor>) return {B::Tensor, false, false};
  else if constexpr (std::is_same_v<U, std::optional<at::Tensor>>) return {B::Tensor, false, true};
  else if constexpr (std::is_same_v<U, std::vector<at::Tensor>> || std::is_same_v<U, at::TensorList>) return {B::Tensor, true, false};
  else if constexpr (std::is_same_v<U, int64_t>) return {B::Int, false, false};
  else if constexpr (std::is_same_v<U, std::optional<int64_t>>) return {B::Int, false, true};
  else if constexpr (std::is_same_v<U, std::vector<int64_t>> || std::is_same_v<U, at::IntArrayRef>) return {B::Int, true, false};
  else if constexpr (std::is_same_v<U, double>) return {B::Float, false, false};
  else if constexpr (std::is_same_v<U, std::optional<double>>) return {B::Float, false, true};
  else if constexpr (std::is_same_v<U, std::vector<double>> || std::is_same_v<U, c10::ArrayRef<double>>) return {B::Float, true, false};
  else if constexpr (std::is_same_v<U, bool>) return {B::Bool, false, false};
  else if constexpr (std::is_same_v<U, std::optional<bool>>) return {B::Bool, false, true};
  else if constexpr (std::is_same_v<U, std::string> || std::is_same_v<U, std::string_view>) return {B::Str, false, false};
  else if constexpr (std::is_same_v<U, std::optional<std::string>> || std::is_same_v<U, std::optional<std::string_view>>) return {B::Str, false, true};
  else if constexpr (std::is_same_v<U, c10::Scalar>) return {B::Scalar, false, false};
  else if constexpr (std::is_same_v<U, std::optional<c10::Scalar>>) return {B::Scalar, false, true};
  else static_assert(always_false<T>::value, "torch::Library: this C++ type has no schema type (see torch/library.h)");
}

// The C++ argument made from its stack entry (checked against the schema before the call).
template <typename T>
decltype(auto) from_ivalue(IValue& v) {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (std::is_same_v<U, at::Tensor> || std::is_same_v<U, int64_t> || std::is_same_v<U, double> ||
                std::is_same_v<U, bool> || std::is_same_v<U, std::string> || std::is_same_v<U, c10::Scalar> ||
                std::is_same_v<U, std::vector<at::Tensor>> || std::is_same_v<U, std::vector<int64_t>> ||
                std::is_same_v<U, std::vector<double>>) {
    return static_cast<U&>(v.get<U>());
  } else if constexpr (std::is_same_v<U, std::string_view>) {
    return std::string_view(v.get<std::string>());
  } else if constexpr (std::is_same_v<U, at::TensorList>) {
    return at::TensorList(v.get<std::vector<at::Tensor>>());
  } else if constexpr (std::is_same_v<U, at::IntArrayRef>) {
    return at::IntArrayRef(v.get<std::vector<int64_t>>());
  } else if constexpr (std::is_same_v<U, c10::ArrayRef<double>>) {
    return c10::ArrayRef<double>(v.get<std::vector<double>>());
  } else {  // std::optional<X>
    using X = typename U::value_type;
    if (v.isNone()) return U();
    if constexpr (std::is_same_v<X, std::string_view>) return U(std::string_view(v.get<std::string>()));
    else return U(v.get<X>());
  }
}

template <typename R>
void push_returns(c10::Stack& stack, R&& result) {
  using U = std::remove_cv_t<std::remove_reference_t<R>>;
  if constexpr (std::is_same_v<U, at::Tensor> || std::is_same_v<U, int64_t> || std::is_same_v<U, double> ||
                std::is_same_v<U, bool> || std::is_same_v<U, std::vector<at::Tensor>>) {
    stack.emplace_back(U(std::forward<R>(result)));
  } else {  // a std::tuple
    std::apply([&](auto&&... items) { (stack.emplace_back(at::Tensor(items)), ...); }, std::forward<R>(result));
  }
}

template <typename... Ts>
std::vector<SchemaType> types_of(std::tuple<Ts...>*) {
  return {schema_type_of<Ts>()...};
}

template <typename R>
std::vector<SchemaType> return_types() {
  using U = std::remove_cv_t<std::remove_reference_t<R>>;
  if constexpr (std::is_void_v<U>) {
    return {};
  } else if constexpr (std::is_same_v<U, at::Tensor> || std::is_same_v<U, int64_t> || std::is_same_v<U, double> ||
                       std::is_same_v<U, bool> || std::is_same_v<U, std::vector<at::Tensor>>) {
    return {schema_type_of<U>()};
  } else {
    return types_of(static_cast<U*>(nullptr));
  }
}

template <typename R>
constexpr bool returns_tuple() {
  using U = std::remove_cv_t<std::remove_reference_t<R>>;
  return !std::is_void_v<U> && !std::is_same_v<U, at::Tensor> && !std::is_same_v<U, int64_t> &&
         !std::is_same_v<U, double> && !std::is_same_v<U, bool> && !std::is_same_v<U, std::vector<at::Tensor>>;
}

// The signature of a function pointer or a (non-generic) lambda.
template <typename F>
struct signature : signature<decltype(&F::operator())> {};
template <typename R, typename... Args>
struct signature<R (*)(Args...)> {
  using ret = R;
  using args = std::tuple<Args...>;
};
template <typename R, typename... Args>
struct signature<R(Args...)> : signature<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct signature<R (C::*)(Args...) const> : signature<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct signature<R (C::*)(Args...)> : signature<R (*)(Args...)> {};

template <typename F, typename R, typename... Args, size_t... I>
void call_boxed(F& fn, c10::Stack& stack, std::tuple<Args...>*, std::index_sequence<I...>) {
  if constexpr (std::is_void_v<R>) {
    fn(from_ivalue<Args>(stack[I])...);
    stack.clear();
  } else {
    R result = fn(from_ivalue<Args>(stack[I])...);
    stack.clear();
    push_returns(stack, std::move(result));
  }
}

struct Kernel {
  c10::BoxedKernel boxed;
  std::vector<SchemaType> arg_types, return_types;
  bool returns_tuple = false;
};

template <typename F>
Kernel make_kernel(F&& f) {
  using Fn = std::decay_t<F>;
  using Sig = signature<std::conditional_t<std::is_function_v<std::remove_pointer_t<Fn>>, std::remove_pointer_t<Fn>*, Fn>>;
  using R = typename Sig::ret;
  using Args = typename Sig::args;
  Kernel k;
  k.boxed = [fn = Fn(std::forward<F>(f))](c10::Stack& stack) mutable {
    call_boxed<Fn, R>(fn, stack, static_cast<Args*>(nullptr), std::make_index_sequence<std::tuple_size_v<Args>>());
  };
  k.arg_types = types_of(static_cast<Args*>(nullptr));
  k.return_types = return_types<R>();
  k.returns_tuple = returns_tuple<R>();
  return k;
}

// "name" or "ns::name" -> "ns::name".
inline std::string qualify(const std::string& ns, const std::string& name) {
  return name.find("::") == std::string::npos ? ns + "::" + name : name;
}

// A schema made from a kernel's C++ types: "name(T0 _0, T1 _1) -> R".
inline std::string inferred_schema(const std::string& name, const Kernel& k) {
  std::string s = name + "(";
  for (size_t i = 0; i < k.arg_types.size(); ++i) s += (i ? ", " : "") + k.arg_types[i].str() + " _" + std::to_string(i);
  s += ") -> ";
  std::string rets;
  for (size_t i = 0; i < k.return_types.size(); ++i) rets += (i ? ", " : "") + k.return_types[i].str();
  return s + (k.returns_tuple || k.return_types.empty() ? "(" + rets + ")" : rets);
}

}  // namespace detail

// The `m` of a TORCH_LIBRARY / TORCH_LIBRARY_IMPL / TORCH_LIBRARY_FRAGMENT block.
class Library {
 public:
  enum Kind { DEF, IMPL, FRAGMENT };

  Library(Kind kind, std::string ns, std::optional<c10::DispatchKey> key, const char* file, uint32_t line)
      : kind_(kind), ns_(std::move(ns)), key_(key), where_(std::string(file) + ":" + std::to_string(line)) {
    if (kind_ == DEF) c10::Dispatcher::singleton().claim_namespace(ns_, where_);
  }

  // Declares an operator: its schema only; kernels come from impl().
  Library& def(const std::string& schema) {
    check_can_def();
    c10::Dispatcher::singleton().def(c10::parse_schema(schema, ns_), where_);
    return *this;
  }

  // Declares an operator and registers `f` for every device
  // (CompositeImplicitAutograd). `schema_or_name` may be a bare name: the
  // schema is then inferred from f's C++ types.
  template <typename F>
  Library& def(const std::string& schema_or_name, F&& f) {
    check_can_def();
    detail::Kernel k = detail::make_kernel(std::forward<F>(f));
    const bool bare = schema_or_name.find('(') == std::string::npos;
    c10::FunctionSchema schema =
        c10::parse_schema(bare ? detail::inferred_schema(schema_or_name, k) : schema_or_name, ns_);
    const std::string name = schema.qualified_name();
    c10::Dispatcher::singleton().def(std::move(schema), where_);
    register_kernel(name, c10::DispatchKey::CompositeImplicitAutograd, std::move(k));
    return *this;
  }

  // Registers `f` for an operator defined elsewhere, under this block's
  // dispatch key (TORCH_LIBRARY_IMPL(ns, CPU, m)), or for every device in a
  // TORCH_LIBRARY block.
  template <typename F>
  Library& impl(const std::string& name, F&& f) {
    return impl(name, key_.value_or(c10::DispatchKey::CompositeImplicitAutograd), std::forward<F>(f));
  }
  template <typename F>
  Library& impl(const std::string& name, c10::DispatchKey key, F&& f) {
    TORCH_CHECK(name.find('(') == std::string::npos, "m.impl(\"", name, "\") at ", where_,
                ": impl takes the operator's name; its schema belongs in m.def");
    register_kernel(detail::qualify(ns_, name), key, detail::make_kernel(std::forward<F>(f)));
    return *this;
  }

  // The Python module holding this namespace's fake kernels
  // (torch.library.register_fake): torch.library imports it when a fake
  // kernel is needed and not yet registered. `context` is PyTorch's
  // optional explanation, kept for source compatibility.
  Library& set_python_module(const char* module, const char* context = "") {
    (void)context;
    c10::Dispatcher::singleton().set_python_module(ns_, module);
    return *this;
  }
  // Its name before PyTorch 2.6.
  Library& impl_abstract_pystub(const char* module, const char* context = "") {
    return set_python_module(module, context);
  }

 private:
  void check_can_def() const {
    TORCH_CHECK(kind_ != IMPL, "m.def() at ", where_, ": a TORCH_LIBRARY_IMPL block only implements operators; "
                "define them in TORCH_LIBRARY(", ns_, ", m)");
  }
  void register_kernel(const std::string& name, c10::DispatchKey key, detail::Kernel k) {
    c10::Dispatcher::singleton().impl(name, key, std::move(k.boxed), k.arg_types, k.return_types, where_);
  }

  Kind kind_;
  std::string ns_;
  std::optional<c10::DispatchKey> key_;
  std::string where_;
};

namespace detail {

// Runs one registration block while a library loads. An error must not
// escape a static initialiser (that would abort the process): it is kept,
// and torch.ops.load_library (or the importing module) raises it.
class TorchLibraryInit {
 public:
  TorchLibraryInit(Library::Kind kind, void (*init)(Library&), const char* ns, std::optional<c10::DispatchKey> key,
                   const char* file, uint32_t line) {
    try {
      Library lib(kind, ns, key, file, line);
      init(lib);
    } catch (const std::exception& e) {
      c10::Dispatcher::singleton().record_registration_error(e.what());
    }
  }
};

}  // namespace detail
}  // namespace torch

// PyTorch's selective-build wrappers. Every operator is kept in this build, so
// they pass the schema, name or function through: torchvision-style code
// registers m.impl(TORCH_SELECTIVE_NAME("ns::op"), TORCH_FN(kernel)).
#define TORCH_SELECTIVE_SCHEMA(schema) (schema)
#define TORCH_SELECTIVE_NAME(name) (name)
#define TORCH_FN(func) (&(func))

#define TORCH_LIBRARY_CONCAT_(a, b) a##b
#define TORCH_LIBRARY_CONCAT(a, b) TORCH_LIBRARY_CONCAT_(a, b)

// Defines the operators of namespace `ns` (one such block per namespace).
// The extra level expands a macro argument first (TORCH_EXTENSION_NAME).
#define TORCH_LIBRARY(ns, m) TORCH_LIBRARY_EXPANDED_(ns, m)
#define TORCH_LIBRARY_EXPANDED_(ns, m)                                                                        \
  static void TORCH_LIBRARY_init_##ns(torch::Library&);                                                       \
  static const torch::detail::TorchLibraryInit TORCH_LIBRARY_static_init_##ns(                                \
      torch::Library::DEF, &TORCH_LIBRARY_init_##ns, #ns, std::nullopt, __FILE__, __LINE__);                 \
  void TORCH_LIBRARY_init_##ns(torch::Library& m)

// More definitions for a namespace, from another file or library.
#define TORCH_LIBRARY_FRAGMENT(ns, m) TORCH_LIBRARY_FRAGMENT_UID_(ns, m, TORCH_LIBRARY_CONCAT(ns##_, __COUNTER__))
#define TORCH_LIBRARY_FRAGMENT_UID_(ns, m, uid)                                                               \
  static void TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_FRAGMENT_init_, uid)(torch::Library&);                      \
  static const torch::detail::TorchLibraryInit TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_FRAGMENT_static_init_, uid)( \
      torch::Library::FRAGMENT, &TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_FRAGMENT_init_, uid), #ns, std::nullopt,  \
      __FILE__, __LINE__);                                                                                    \
  void TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_FRAGMENT_init_, uid)(torch::Library & m)

// Kernels of namespace `ns` for one dispatch key: CPU, CUDA or CompositeImplicitAutograd.
#define TORCH_LIBRARY_IMPL(ns, k, m) TORCH_LIBRARY_IMPL_UID_(ns, k, m, TORCH_LIBRARY_CONCAT(ns##_##k##_, __COUNTER__))
#define TORCH_LIBRARY_IMPL_UID_(ns, k, m, uid)                                                                \
  static void TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_IMPL_init_, uid)(torch::Library&);                          \
  static const torch::detail::TorchLibraryInit TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_IMPL_static_init_, uid)(   \
      torch::Library::IMPL, &TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_IMPL_init_, uid), #ns, c10::DispatchKey::k,   \
      __FILE__, __LINE__);                                                                                    \
  void TORCH_LIBRARY_CONCAT(TORCH_LIBRARY_IMPL_init_, uid)(torch::Library & m)
