#include "csrc/Exceptions.h"

#include <c10/util/Exception.h>

#include <new>

namespace torch {

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
