#include "csrc/utils/wrap.h"

#include <vector>

namespace torch {

PyTypeObject* named_tuple_type(const char* name, std::initializer_list<const char*> fields) {
  // The descriptors must outlive the type: they are leaked on purpose, one per op.
  auto* members = new std::vector<PyStructSequence_Field>();
  for (const char* f : fields) members->push_back({f, nullptr});
  members->push_back({nullptr, nullptr});
  auto* desc = new PyStructSequence_Desc{name, nullptr, members->data(), static_cast<int>(fields.size())};
  return PyStructSequence_NewType(desc);
}

}  // namespace torch
