#pragma once
// Errors raised by the native libraries. Each class maps onto one Python
// exception in the binding layer (c10::IndexError -> IndexError, ...), so the
// check that fails decides what the Python user sees.
#include <c10/macros/Export.h>

#include <exception>
#include <sstream>
#include <string>

namespace c10 {

// Each class has its destructor out of line (Exception.cpp): that is its key
// function, so its type_info is defined once, in libc10, and every other
// library refers to that one. An inline-only class would get a weak copy in
// each library, and a catch in libtorch_python of an error thrown through
// libtorch_cpu would then depend on the loader merging the copies. On macOS
// x86_64, where libc++abi matches a catch by type_info address and each
// zig-built library carries its own libc++abi, that is not guaranteed
// (docs/PLATFORMS.md; ci/check_macho.py checks the symbols).
class C10_API Error : public std::exception {
 public:
  explicit Error(std::string msg) : msg_(std::move(msg)) {}
  Error(const Error&) = default;
  Error& operator=(const Error&) = default;
  ~Error() override;
  const char* what() const noexcept override { return msg_.c_str(); }

 private:
  std::string msg_;
};

class C10_API IndexError : public Error {
 public:
  using Error::Error;
  ~IndexError() override;
};
class C10_API TypeError : public Error {
 public:
  using Error::Error;
  ~TypeError() override;
};
class C10_API ValueError : public Error {
 public:
  using Error::Error;
  ~ValueError() override;
};
class C10_API NotImplementedError : public Error {
 public:
  using Error::Error;
  ~NotImplementedError() override;
};
// A matrix a factorisation cannot take (singular, not positive-definite, no
// convergence): torch.linalg.LinAlgError, a RuntimeError, as in PyTorch.
class C10_API LinAlgError : public Error {
 public:
  using Error::Error;
  ~LinAlgError() override;
};

namespace detail {

template <typename... Args>
std::string str(const Args&... args) {
  std::ostringstream ss;
  (ss << ... << args);
  return ss.str();
}

// TORCH_CHECK(cond) without a message still says which condition failed.
inline std::string check_msg(const char* cond) {
  return str("Expected ", cond, " to be true, but got false.");
}
template <typename... Args>
std::string check_msg(const char* /*cond*/, const Args&... args) {
  return str(args...);
}

// Out of line and cold so that a check costs one branch at its call site.
[[noreturn]] C10_API void throw_error(const std::string& msg);
[[noreturn]] C10_API void throw_index_error(const std::string& msg);
[[noreturn]] C10_API void throw_type_error(const std::string& msg);
[[noreturn]] C10_API void throw_value_error(const std::string& msg);
[[noreturn]] C10_API void throw_not_implemented_error(const std::string& msg);
[[noreturn]] C10_API void throw_linalg_error(const std::string& msg);

}  // namespace detail
}  // namespace c10

#define C10_CHECK_WITH_(thrower, cond, ...)                                \
  do {                                                                     \
    if (C10_UNLIKELY(!(cond))) {                                           \
      ::c10::detail::thrower(::c10::detail::check_msg(#cond, ##__VA_ARGS__)); \
    }                                                                      \
  } while (0)

// TORCH_CHECK(cond, "message parts ", value, ...) raises RuntimeError.
#define TORCH_CHECK(cond, ...) C10_CHECK_WITH_(throw_error, cond, ##__VA_ARGS__)
#define TORCH_CHECK_INDEX(cond, ...) C10_CHECK_WITH_(throw_index_error, cond, ##__VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) C10_CHECK_WITH_(throw_type_error, cond, ##__VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) C10_CHECK_WITH_(throw_value_error, cond, ##__VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) \
  C10_CHECK_WITH_(throw_not_implemented_error, cond, ##__VA_ARGS__)
#define TORCH_CHECK_LINALG(cond, ...) C10_CHECK_WITH_(throw_linalg_error, cond, ##__VA_ARGS__)
// An internal invariant: failing it is a bug in this library, not in the caller.
#define TORCH_INTERNAL_ASSERT(cond, ...) \
  TORCH_CHECK(cond, "Internal assert failed: " #cond " ", ##__VA_ARGS__)
