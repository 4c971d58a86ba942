// pdist: the p-norm distance of every pair of rows i < j of an [n, m]
// matrix, in the order of the upper triangle's rows (PyTorch's layout), and
// its gradient. One pass over the pairs, each pair's differences summed
// in place (cpu/DistanceKernel.cpp): no [pairs, m] difference matrix.
// Other devices compute on the CPU and copy the result back.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/native/Distance.h>


namespace at::native {

DEFINE_DISPATCH(pdist_stub);
DEFINE_DISPATCH(pdist_backward_stub);

namespace {

void check_kernel_dtype(const Tensor& self, const char* name, bool applies) {
  TORCH_CHECK_NOT_IMPLEMENTED(!applies || self.scalar_type() == ScalarType::Float ||
                                  self.scalar_type() == ScalarType::Double,
                              "\"", name, "\" not implemented for '", self.scalar_type(), "'");
}

void check_pdist(const Tensor& self, double p) {
  TORCH_CHECK(self.dim() == 2, "pdist only supports 2D tensors, got: ", self.dim(), "D");
  TORCH_CHECK(self.is_floating_point(), "pdist only supports floating-point dtypes");
  TORCH_CHECK(p >= 0, "pdist only supports non-negative p values");
  // As PyTorch's, whose kernel (and its dtype dispatch) runs only with pairs
  // of nonempty rows to compute; its backward's always.
  check_kernel_dtype(self, "pdist", self.size(0) > 1 && self.size(1) > 0);
}

}  // namespace

Tensor pdist(const Tensor& self, double p) {
  check_pdist(self, p);
  const Tensor xt = self.cpu().t().contiguous();
  const int64_t n = self.size(0), m = self.size(1);
  Tensor out = at::zeros({n > 1 ? n * (n - 1) / 2 : 0}, xt.scalar_type(), xt.device());
  if (out.numel() > 0 && m > 0) pdist_stub(DeviceType::CPU, xt.scalar_type(), xt.data_ptr(), n, m, p, out.data_ptr());
  return out.to(self.device(), std::nullopt);
}

Tensor pdist_backward(const Tensor& grad, const Tensor& self, double p, const Tensor& result) {
  check_kernel_dtype(self, "pdist_backward", true);
  const Tensor x = self.cpu().contiguous();
  const Tensor g = grad.cpu().to(x.scalar_type()).contiguous(), dist = result.cpu().contiguous();
  const int64_t n = self.size(0), m = self.size(1);
  Tensor gx = at::zeros({n, m}, x.scalar_type(), x.device());
  if (dist.numel() > 0 && m > 0) {
    pdist_backward_stub(DeviceType::CPU, x.scalar_type(), x.data_ptr(), g.data_ptr(), dist.data_ptr(), n, m, p,
                        gx.data_ptr());
  }
  return gx.to(self.device(), std::nullopt);
}

}  // namespace at::native
