// Matrix products: shape and dtype checks, and matmul's reduction of its
// 1-D and 2-D cases to mm.
#include <ATen/ATen.h>
#include <ATen/native/LinearAlgebra.h>

namespace at::native {

DEFINE_DISPATCH(mm_stub);

Tensor mm(const Tensor& self, const Tensor& mat2) {
  TORCH_CHECK(self.dim() == 2, "self must be a matrix");
  TORCH_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  TORCH_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", self.size(0), "x",
              self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  TORCH_CHECK(self.scalar_type() == mat2.scalar_type(), "expected mat1 and mat2 to have the same dtype, but got: ",
              self.scalar_type(), " != ", mat2.scalar_type());
  TORCH_CHECK(self.device() == mat2.device(), "Expected all tensors to be on the same device, but found ",
              self.device().str(), " and ", mat2.device().str());
  Tensor out = at::zeros({self.size(0), mat2.size(1)}, self.scalar_type(), self.device());
  if (out.numel() > 0 && self.size(1) > 0) mm_stub(self.device().type, out, self.contiguous(), mat2.contiguous());
  return out;
}

Tensor matmul(const Tensor& self, const Tensor& other) {
  const int64_t da = self.dim(), db = other.dim();
  TORCH_CHECK(da > 0 && db > 0, "both arguments to matmul need to be at least 1D, but they are ", da, "D and ", db,
              "D");
  if (da == 1 && db == 1) {
    TORCH_CHECK(self.size(0) == other.size(0), "inconsistent tensor size, expected tensor [", self.size(0),
                "] and src [", other.size(0), "] to have the same number of elements, but got ", self.size(0),
                " and ", other.size(0), " elements respectively");
    return at::mm(self.unsqueeze(0), other.unsqueeze(1)).view({});
  }
  if (da == 2 && db == 1) return at::mm(self, other.unsqueeze(1)).squeeze(1);
  if (da == 1 && db == 2) return at::mm(self.unsqueeze(0), other).squeeze(0);
  if (da == 2 && db == 2) return at::mm(self, other);
  TORCH_CHECK_NOT_IMPLEMENTED(false, "matmul: batched inputs (", da, "D and ", db,
                              "D) are not supported yet; only 1-D and 2-D operands are");
}

}  // namespace at::native
