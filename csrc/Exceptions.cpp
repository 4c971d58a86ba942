#include "csrc/Exceptions.h"

#include <c10/util/Exception.h>

#include <new>

namespace torch {
namespace {

// torch._C._LinAlgError (torch.linalg.LinAlgError), made at import.
PyObject* linalg_error_type = nullptr;

}  // namespace

void init_exceptions(PyObject* module) {
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
