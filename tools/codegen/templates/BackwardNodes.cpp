// ${generated_comment}
//
// The backward formulas of derivatives.yaml.
#include <ATen/ATen.h>
#include <ATen/ScalarOps.h>
#include <ATen/autograd/FunctionsManual.h>
#include <ATen/autograd/generated/BackwardNodes.h>

namespace at::autograd::generated {

${node_definitions}

}  // namespace at::autograd::generated
