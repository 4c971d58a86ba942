// ${generated_comment}
//
// torch.<op> functions: one binding per op name in native_functions.yaml
// with `variants: function`.
#include "csrc/python_bindings_common.h"

namespace torch {
namespace {

${binding_functions}

PyMethodDef torch_functions[] = {
${method_defs}
  {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyMethodDef* generated_torch_functions() { return torch_functions; }

}  // namespace torch
