#pragma once
// Warnings from the native libraries (PyTorch's TORCH_WARN): the binding
// layer installs a handler that issues them as Python UserWarnings; with no
// handler (a C++ program) they go to stderr.
#include <c10/macros/Export.h>
#include <c10/util/Exception.h>

#include <string>

namespace c10 {

using WarningHandler = void (*)(const std::string& message);

C10_API void set_warning_handler(WarningHandler handler);
// Issues `message`. The handler may throw (Python's warnings filter set to
// "error" turns the warning into the op's exception).
C10_API void warn(const std::string& message);

}  // namespace c10

// TORCH_WARN("message parts ", value, ...)
#define TORCH_WARN(...) ::c10::warn(::c10::detail::str(__VA_ARGS__))
