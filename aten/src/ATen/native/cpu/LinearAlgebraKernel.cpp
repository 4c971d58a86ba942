// A cache-friendly matrix product: i-k-j order, so the inner loop streams
// through one row of b and one row of out, which the compiler vectorises.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/LinearAlgebra.h>

namespace at::native {
namespace {

void mm_kernel(const Tensor& out, const Tensor& a, const Tensor& b) {
  AT_DISPATCH_ALL_TYPES(out.scalar_type(), "mm", [&] {
    const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
    const scalar_t* A = static_cast<const scalar_t*>(a.data_ptr());
    const scalar_t* B = static_cast<const scalar_t*>(b.data_ptr());
    scalar_t* C = out.data_ptr<scalar_t>();
    parallel_for(0, M, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(K * N, 1)), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        scalar_t* c = C + i * N;
        for (int64_t k = 0; k < K; ++k) {
          const scalar_t aik = A[i * K + k];
          const scalar_t* brow = B + k * N;
          for (int64_t j = 0; j < N; ++j) c[j] = c[j] + aik * brow[j];
        }
      }
    });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(mm_stub, &mm_kernel);

}  // namespace at::native
