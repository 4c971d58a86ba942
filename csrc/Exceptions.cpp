#include "csrc/Exceptions.h"

#include <c10/util/Exception.h>
#include <c10/util/Warning.h>

#include <new>
#include <string>

namespace torch {
namespace {

// torch._C._LinAlgError (torch.linalg.LinAlgError), made at import.
PyObject* linalg_error_type = nullptr;

}  // namespace

namespace {

// c10::warn's handler: a Python UserWarning. The kernel may run with the GIL
// released, so it is taken here; a warning the filters turn into an error
// leaves that error set and unwinds the op as python_error.
void warn_in_python(const std::string& message) {
  PyGILState_STATE state = PyGILState_Ensure();
  const int rc = PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1);
  PyGILState_Release(state);
  if (rc < 0) throw python_error();
}

}  // namespace

void init_exceptions(PyObject* module) {
  c10::set_warning_handler(&warn_in_python);
  linalg_error_type = PyErr_NewExceptionWithDoc(
      "torch._C._LinAlgError",
      "A matrix a torch.linalg function cannot factorise (singular, not positive-definite, no convergence).",
      PyExc_RuntimeError, nullptr);
  if (!linalg_error_type) return;
  Py_INCREF(linalg_error_type);  // the module takes one reference; this file keeps the other
  if (PyModule_AddObject(module, "_LinAlgError", linalg_error_type) < 0) Py_DECREF(linalg_error_type);
}

void translate_exception() {
  try {
    throw;
  } catch (const python_error&) {
    // already set
  } catch (const c10::IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const c10::TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const c10::ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const c10::NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const c10::LinAlgError& e) {
    PyErr_SetString(linalg_error_type ? linalg_error_type : PyExc_RuntimeError, e.what());
  } catch (const c10::Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception");
  }
}

}  // namespace torch
