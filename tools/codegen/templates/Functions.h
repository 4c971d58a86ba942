#pragma once
// ${generated_comment}
//
// The operator API: one at:: function per schema in native_functions.yaml.
// Each picks the kernel for its arguments' device (see Functions.cpp).
#include <ATen/core/TensorBody.h>

#include <type_traits>

namespace at {

${function_declarations}

// The factories with PyTorch's TensorOptions argument: at::empty(size, x.options()).
${options_overloads}

}  // namespace at
