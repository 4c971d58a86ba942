#pragma once
// PyTorch's names for turning gradient recording off in a scope:
//   at::NoGradGuard no_grad;   torch::NoGradGuard no_grad;   at::AutoGradMode mode(false);
#include <ATen/autograd/GradMode.h>

namespace at {

using autograd::AutoGradMode;
using autograd::GradMode;

class NoGradGuard : public AutoGradMode {
 public:
  NoGradGuard() : AutoGradMode(false) {}
};

}  // namespace at
