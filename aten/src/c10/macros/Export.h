#pragma once
// Symbol visibility. Every library is compiled with -fvisibility=hidden; what
// another library (or the Python binding) may use is marked with these macros.
#define C10_EXPORT __attribute__((visibility("default")))
#define C10_API C10_EXPORT
#define TORCH_API C10_EXPORT
#define TORCH_PYTHON_API C10_EXPORT

#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
