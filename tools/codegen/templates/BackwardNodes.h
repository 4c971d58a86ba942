#pragma once
// ${generated_comment}
//
// One backward node per entry of derivatives.yaml.
#include <ATen/autograd/Node.h>
#include <ATen/autograd/SavedVariable.h>

#include <optional>
#include <string>
#include <vector>

namespace at::autograd::generated {

${node_declarations}

}  // namespace at::autograd::generated
