#pragma once
// ${generated_comment}
//
// Tensor methods: each forwards to the at:: function of the same schema.
#include <ATen/Functions.h>

namespace at {

${tensor_method_definitions}

}  // namespace at
