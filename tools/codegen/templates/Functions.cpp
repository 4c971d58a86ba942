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

#include <initializer_list>

namespace at {
namespace {

[[noreturn]] void no_kernel(const char* op, Device device) {
  if (device.is_cuda() && !detail::cuda_hooks().compiled_with_cuda()) detail::raise_no_cuda();
  TORCH_CHECK_NOT_IMPLEMENTED(false, "Could not run '", op, "' with arguments from the '", device.str(),
                              "' backend: this build has no kernel for it.");
}

// Every tensor a kernel gets lives on the device it dispatches on; 0-d CPU
// tensors (Python numbers) may join any device, as in PyTorch.
void check_one_device(const char* op, Device device, const Tensor& t) {
  if (!t.defined() || t.device() == device || (t.dim() == 0 && t.is_cpu())) return;
  TORCH_CHECK(false, "Expected all tensors to be on the same device, but found at least two devices, ", device.str(),
              " and ", t.device().str(), "! (when checking arguments for ", op, ")");
}

void check_one_real(const char* op, const Tensor& t) {
  if (!t.defined() || !c10::isComplexType(t.scalar_type())) return;
  TORCH_CHECK_NOT_IMPLEMENTED(false, "\"", op, "\" not implemented for '", c10::toString(t.scalar_type()),
                              "': complex tensors here can be created, viewed (view_as_real), copied, converted "
                              "and saved, but no op computes with them");
}

void check_not_complex(const char* op, std::initializer_list<const Tensor*> tensors) {
  for (const Tensor* t : tensors)
    if (t != nullptr) check_one_real(op, *t);
}

void check_not_complex(const char* op, TensorList tensors) {
  for (const Tensor& t : tensors) check_one_real(op, t);
}

void check_same_device(const char* op, Device device, std::initializer_list<const Tensor*> tensors) {
  for (const Tensor* t : tensors)
    if (t != nullptr) check_one_device(op, device, *t);
}

void check_same_device(const char* op, Device device, TensorList tensors) {
  for (const Tensor& t : tensors) check_one_device(op, device, t);
}

}  // namespace

${function_definitions}

}  // namespace at
