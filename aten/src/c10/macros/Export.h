#pragma once
// What leaves a library. ELF and Mach-O builds compile with
// -fvisibility=hidden and mark the exported API visible; a Windows DLL exports
// what its own sources mark __declspec(dllexport) and its users see the same
// declarations as __declspec(dllimport). Each library defines its
// *_BUILD_MAIN_LIB while it is compiled (CMake sets it), so one header serves
// the library, the libraries above it and extensions.
#ifdef _WIN32
#define C10_EXPORT __declspec(dllexport)
#define C10_IMPORT __declspec(dllimport)
#else
#define C10_EXPORT __attribute__((visibility("default")))
#define C10_IMPORT C10_EXPORT
#endif

#ifdef C10_BUILD_MAIN_LIB  // libc10
#define C10_API C10_EXPORT
#else
#define C10_API C10_IMPORT
#endif

#ifdef TORCH_BUILD_MAIN_LIB  // libtorch_cpu (and libtorch_cuda, which exports through it on Linux only)
#define TORCH_API C10_EXPORT
#else
#define TORCH_API C10_IMPORT
#endif

#ifdef TORCH_PYTHON_BUILD_MAIN_LIB  // libtorch_python
#define TORCH_PYTHON_API C10_EXPORT
#else
#define TORCH_PYTHON_API C10_IMPORT
#endif

#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
