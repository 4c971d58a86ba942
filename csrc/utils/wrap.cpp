#include "csrc/utils/wrap.h"

#include <deque>
#include <mutex>
#include <vector>

namespace torch {

namespace {
struct NamedTupleDescriptor {
  std::vector<PyStructSequence_Field> fields;
  PyStructSequence_Desc desc;
};
// The field names as `_fields` (a namedtuple's spelling) and
// torch.return_types._repr as the repr. Either failing leaves the type as
// Python made it.
void name_fields_and_repr(PyObject* type, std::initializer_list<const char*> fields) {
  PyObject* names = PyTuple_New(static_cast<Py_ssize_t>(fields.size()));
  if (!names) return PyErr_Clear();
  Py_ssize_t i = 0;
  for (const char* f : fields) PyTuple_SetItem(names, i++, PyUnicode_FromString(f));
  const bool named = PyObject_SetAttrString(type, "_fields", names) == 0;
  Py_DECREF(names);
  PyObject* module = named ? PyImport_ImportModule("torch.return_types") : nullptr;
  PyObject* repr = module ? PyObject_GetAttrString(module, "_repr") : nullptr;
  if (repr) PyObject_SetAttrString(type, "__repr__", repr);
  Py_XDECREF(repr);
  Py_XDECREF(module);
  PyErr_Clear();
}
}  // namespace

PyTypeObject* named_tuple_type(const char* name, std::initializer_list<const char*> fields) {
  // The descriptors live as long as the process, as the types do (one per op,
  // made once): kept in a registry rather than dropped, so they stay
  // reachable and LeakSanitizer has nothing to report.
  static std::mutex lock;
  static auto* registry = new std::deque<NamedTupleDescriptor>();
  NamedTupleDescriptor* d;
  {
    // Only the registry is locked: creating the type may run Python code
    // (a collection), which must not wait on a lock another thread holds.
    std::lock_guard<std::mutex> guard(lock);
    d = &registry->emplace_back();  // a deque never moves what it holds
  }
  for (const char* f : fields) d->fields.push_back({f, nullptr});
  d->fields.push_back({nullptr, nullptr});
  d->desc = PyStructSequence_Desc{name, nullptr, d->fields.data(), static_cast<int>(fields.size())};
  PyTypeObject* type = PyStructSequence_NewType(&d->desc);
  if (type) name_fields_and_repr(reinterpret_cast<PyObject*>(type), fields);
  return type;
}

}  // namespace torch
