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
  return PyStructSequence_NewType(&d->desc);
}

}  // namespace torch
