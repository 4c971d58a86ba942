#include <ATen/detail/CUDAHooks.h>

#include <c10/util/Exception.h>

#include <atomic>

namespace at::detail {
namespace {
const CUDAHooksInterface kNoCuda;
std::atomic<const CUDAHooksInterface*> hooks{&kNoCuda};
}  // namespace

void raise_no_cuda() {
  TORCH_CHECK(false, "Torch not compiled with CUDA enabled: this is a CPU build of torch. Install a CUDA variant "
              "(+cu126, +cu130; see README) for CUDA tensors.");
}

int CUDAHooksInterface::current_device() const { raise_no_cuda(); }
void CUDAHooksInterface::set_device(int) const { raise_no_cuda(); }
void CUDAHooksInterface::synchronize(int) const { raise_no_cuda(); }
std::string CUDAHooksInterface::device_name(int) const { raise_no_cuda(); }
int64_t CUDAHooksInterface::memory_allocated(int) const { return 0; }  // nothing allocated, as in PyTorch
void CUDAHooksInterface::manual_seed(uint64_t) const {}  // nothing to seed without CUDA, as in PyTorch

const CUDAHooksInterface& cuda_hooks() { return *hooks.load(std::memory_order_acquire); }
void set_cuda_hooks(const CUDAHooksInterface* h) { hooks.store(h, std::memory_order_release); }

}  // namespace at::detail
