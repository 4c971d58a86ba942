#pragma once
// ${generated_comment}
//
// Declarations of the kernels that native_functions.yaml names under
// `dispatch:`; their definitions live in aten/src/ATen/native/.
#include <ATen/core/TensorBody.h>

namespace at::native {

${native_function_declarations}

}  // namespace at::native
