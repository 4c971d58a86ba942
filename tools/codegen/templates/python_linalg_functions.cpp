// ${generated_comment}
//
// torch._C._linalg.<op> functions: the ops of native_functions.yaml with
// `python_module: linalg`, which torch.linalg (torch/linalg/__init__.py)
// exposes under their short names (linalg_vector_norm as vector_norm).
#include "csrc/python_bindings_common.h"

namespace torch {
namespace {

${binding_functions}

PyMethodDef linalg_functions[] = {
${method_defs}
  {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyMethodDef* generated_linalg_functions() { return linalg_functions; }

}  // namespace torch
