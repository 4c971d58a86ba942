// ${generated_comment}
//
// Tensor.<op> methods: one binding per op name in native_functions.yaml with
// `variants: method`.
#include "csrc/python_bindings_common.h"

namespace torch {
namespace {

${binding_functions}

PyMethodDef tensor_methods[] = {
${method_defs}
  {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyMethodDef* generated_tensor_methods() { return tensor_methods; }

}  // namespace torch
