#pragma once
// ${generated_comment}
//
// The operator API: one at:: function per schema in native_functions.yaml.
// Each picks the kernel for its arguments' device (see Functions.cpp).
#include <ATen/core/TensorBody.h>

namespace at {

${function_declarations}

}  // namespace at
