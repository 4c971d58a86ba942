#pragma once
// Turning C++ errors into Python exceptions at the boundary. Every binding
// body sits between HANDLE_TH_ERRORS and END_HANDLE_TH_ERRORS, so no C++
// exception ever reaches the interpreter.
#include "csrc/python_compat.h"

#include <c10/macros/Export.h>

#include <exception>

namespace torch {

// Thrown when a Python error is already set (a failed CPython call).
struct python_error : std::exception {
  const char* what() const noexcept override { return "Python error"; }
};

// Sets the Python exception matching the exception being handled.
TORCH_PYTHON_API void translate_exception();

// Adds the exception types of its own the binding raises (torch._C._LinAlgError).
void init_exceptions(PyObject* module);

// Releases the GIL while a kernel runs.
class GILRelease {
 public:
  GILRelease() : state_(PyEval_SaveThread()) {}
  ~GILRelease() { PyEval_RestoreThread(state_); }
  GILRelease(const GILRelease&) = delete;
  GILRelease& operator=(const GILRelease&) = delete;

 private:
  PyThreadState* state_;
};

// Releases the GIL only when asked: a kernel on a few elements takes less
// time than handing the GIL over and back.
class MaybeGILRelease {
 public:
  explicit MaybeGILRelease(bool release) : state_(release ? PyEval_SaveThread() : nullptr) {}
  ~MaybeGILRelease() {
    if (state_) PyEval_RestoreThread(state_);
  }
  MaybeGILRelease(const MaybeGILRelease&) = delete;
  MaybeGILRelease& operator=(const MaybeGILRelease&) = delete;

 private:
  PyThreadState* state_;
};

}  // namespace torch

#define HANDLE_TH_ERRORS try {
#define END_HANDLE_TH_ERRORS_RET(retval) \
  }                                      \
  catch (...) {                          \
    torch::translate_exception();        \
    return retval;                       \
  }
#define END_HANDLE_TH_ERRORS END_HANDLE_TH_ERRORS_RET(nullptr)
