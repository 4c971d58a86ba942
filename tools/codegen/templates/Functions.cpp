// ${generated_comment}
//
// Dispatch: each at:: function records its backward node when autograd needs
// it (derivatives.yaml), then calls the native kernel registered for the
// device of its dispatch argument in native_functions.yaml.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/core/TensorMethods.h>
#include <ATen/detail/CUDAHooks.h>
#include <ATen/autograd/SavedVariable.h>
#include <ATen/autograd/Variable.h>
#include <ATen/autograd/generated/BackwardNodes.h>

namespace at {
namespace {

[[noreturn]] void no_kernel(const char* op, Device device) {
  if (device.is_cuda() && !detail::cuda_hooks().compiled_with_cuda()) detail::raise_no_cuda();
  TORCH_CHECK_NOT_IMPLEMENTED(false, "Could not run '", op, "' with arguments from the '", device.str(),
                              "' backend: this build has no kernel for it.");
}

}  // namespace

${function_definitions}

}  // namespace at
