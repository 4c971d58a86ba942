// Batched matrix products on CUDA through cuBLAS (strided-batched GEMM).
// cuBLAS is column-major: a row-major C = A @ B is the column-major
// C^T = B^T @ A^T, so the operands go in swapped and untransposed.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/native/LinearAlgebra.h>

namespace at::native {
namespace {

void bmm_kernel_cuda(const Tensor& out, const Tensor& a_in, const Tensor& b_in, const Scalar& alpha,
                     const Scalar& beta) {
  const ScalarType dtype = out.scalar_type();
  TORCH_CHECK_NOT_IMPLEMENTED(c10::isFloatingType(dtype), "\"bmm_cuda\" not implemented for '", dtype, "'");
  cuda::CUDAGuard guard(out.device().index);
  const Tensor a = a_in.contiguous(), b = b_in.contiguous();
  const int64_t batch = a.size(0), m = a.size(1), k = a.size(2), n = b.size(2);
  TORCH_CHECK(m <= INT32_MAX && n <= INT32_MAX && k <= INT32_MAX && batch <= INT32_MAX,
              "bmm_cuda: matrix dimensions must fit in 32 bits for cuBLAS");
  const int im = static_cast<int>(m), in = static_cast<int>(n), ik = static_cast<int>(k), ib = static_cast<int>(batch);
  cublasHandle_t handle = cuda::cublas_handle();
  const void* pa = a.data_ptr();
  const void* pb = b.data_ptr();
  void* pc = out.data_ptr();
  if (dtype == ScalarType::Double) {
    const double al = alpha.toDouble(), be = beta.toDouble();
    TORCH_CUDABLAS_CHECK(cublasDgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, in, im, ik, &al,
                                                   static_cast<const double*>(pb), in, k * n,
                                                   static_cast<const double*>(pa), ik, m * k, &be,
                                                   static_cast<double*>(pc), in, m * n, ib));
    return;
  }
  // float, float16 and bfloat16 all accumulate in float.
  const float al = static_cast<float>(alpha.toDouble()), be = static_cast<float>(beta.toDouble());
  const cudaDataType_t type = dtype == ScalarType::Float  ? CUDA_R_32F
                              : dtype == ScalarType::Half ? CUDA_R_16F
                                                          : CUDA_R_16BF;
  TORCH_CUDABLAS_CHECK(cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, in, im, ik, &al, pb, type, in,
                                                  k * n, pa, type, ik, m * k, &be, pc, type, in, m * n, ib,
                                                  CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

}  // namespace

REGISTER_CUDA_DISPATCH(bmm_stub, &bmm_kernel_cuda);

}  // namespace at::native
