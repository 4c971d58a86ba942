// CPU loops of the reductions.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/ReduceOps.h>

#include <type_traits>

namespace at::native {
namespace {

// Accumulate floats in double and integers in int64: sums of many elements
// stay accurate, and integer overflow happens only where PyTorch's would.
template <typename T>
using acc_t = std::conditional_t<c10::is_floating_v<T>, double, int64_t>;

template <typename T>
acc_t<T> sum_row(const T* x, int64_t n) {
  // Independent partial sums let the CPU overlap the additions.
  acc_t<T> s[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) s[k] += static_cast<acc_t<T>>(x[i + k]);
  for (; i < n; ++i) s[0] += static_cast<acc_t<T>>(x[i]);
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

void sum_rows_kernel(const Tensor& out, const Tensor& in, int64_t outer, int64_t inner) {
  AT_DISPATCH_ALL_TYPES(in.scalar_type(), "sum", [&] {
    const scalar_t* x = static_cast<const scalar_t*>(in.data_ptr());
    scalar_t* y = out.data_ptr<scalar_t>();
    if (outer == 1) {
      // One long row: split it across threads and add the partial sums.
      const int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(get_num_threads(), inner / kGrainSize));
      std::vector<acc_t<scalar_t>> partial(chunks);
      const int64_t per = (inner + chunks - 1) / chunks;
      parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) {
          const int64_t lo = c * per, hi = std::min(inner, lo + per);
          partial[c] = lo < hi ? sum_row(x + lo, hi - lo) : 0;
        }
      });
      acc_t<scalar_t> total = 0;
      for (auto p : partial) total += p;
      y[0] = static_cast<scalar_t>(total);
      return;
    }
    parallel_for(0, outer, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner, 1)), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) y[i] = static_cast<scalar_t>(sum_row(x + i * inner, inner));
    });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(sum_rows_stub, &sum_rows_kernel);

}  // namespace at::native
