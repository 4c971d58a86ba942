// ${generated_comment}
//
// torch._C._nn.<op> functions: the ops of native_functions.yaml with
// `python_module: nn`, which PyTorch keeps out of the torch namespace
// (torch.nn.functional calls them).
#include "csrc/python_bindings_common.h"

namespace torch {
namespace {

${binding_functions}

PyMethodDef nn_functions[] = {
${method_defs}
  {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyMethodDef* generated_nn_functions() { return nn_functions; }

}  // namespace torch
