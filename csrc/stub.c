/* The torch._C extension module. It holds no code of its own: PyInit__C
 * hands over to initModule in libtorch_python, found through the rpath
 * $ORIGIN/lib, as in PyTorch. */
#include <Python.h>

#ifdef _WIN32
__declspec(dllimport)
#endif
extern PyObject* initModule(void);

#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
PyMODINIT_FUNC PyInit__C(void) {
  return initModule();
}
