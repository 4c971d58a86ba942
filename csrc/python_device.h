#pragma once
// torch.device: a value object wrapping c10::Device.
#include "csrc/python_compat.h"

#include <c10/core/Device.h>

namespace torch {

struct THPDevice {
  PyObject_HEAD
  c10::Device device;
};

extern PyTypeObject* THPDeviceType;
inline bool THPDevice_Check(PyObject* obj) { return Py_TYPE(obj) == THPDeviceType; }
PyObject* THPDevice_New(c10::Device d);
void init_device_type(PyObject* module);

}  // namespace torch
