#pragma once
// ${generated_comment}
//
// torch::<factory>(..., TensorOptions): the at:: factory, and a leaf that
// requires grad when the options ask for it (torch::ones({2}, torch::requires_grad())).
#include <ATen/ATen.h>

namespace torch {

${torch_factories}

}  // namespace torch
