#pragma once
// Whether ops record the backward graph (torch.no_grad() turns it off). The
// autograd wrapper of each op also turns it off while the kernel runs, so
// ops that call other ops record only once.
#include <c10/macros/Export.h>

namespace at::autograd {

struct TORCH_API GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

class AutoGradMode {
 public:
  explicit AutoGradMode(bool enabled) : prev_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  ~AutoGradMode() { GradMode::set_enabled(prev_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

 private:
  bool prev_;
};

}  // namespace at::autograd
