// embedding_bag's CPU loop (native/EmbeddingBag.h): threads take whole
// bags; each bag's rows are summed (or maxed) into an accumulator row in
// the op-math type, in index order, then written once.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/EmbeddingBag.h>

#include <algorithm>
#include <vector>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

template <typename T>
void embedding_bag_typed(const EmbeddingBagLoop& a) {
  using acc_t = c10::opmath_t<T>;
  const T* weight = static_cast<const T*>(a.weight);
  const T* sample = static_cast<const T*>(a.per_sample_weights);
  T* out = static_cast<T*>(a.out);
  const int64_t dim = a.dim;
  const int64_t indices = a.bags ? a.ends[a.bags - 1] : 0;
  // About kGrainSize elements read per task.
  const int64_t per_bag = std::max<int64_t>(1, indices / std::max<int64_t>(a.bags, 1) * dim);
  at::parallel_for(0, a.bags, std::max<int64_t>(1, at::kGrainSize / per_bag), [&](int64_t lo, int64_t hi) {
    std::vector<acc_t> acc(static_cast<size_t>(dim));
    for (int64_t b = lo; b < hi; ++b) {
      std::fill(acc.begin(), acc.end(), acc_t(0));
      int64_t* arg = a.max_indices ? a.max_indices + b * dim : nullptr;
      if (arg) std::fill(arg, arg + dim, int64_t(-1));
      int64_t count = 0;
      for (int64_t i = a.starts[b]; i < a.ends[b]; ++i) {
        const int64_t idx = a.indices[i];
        if (idx == a.padding_idx) continue;
        const T* row = weight + idx * dim;
        if (a.mode == kBagMax) {
          // As PyTorch: a later row wins only where it is greater (a NaN never does).
          for (int64_t d = 0; d < dim; ++d) {
            const acc_t v = static_cast<acc_t>(row[d]);
            if (count == 0 || v > acc[d]) {
              acc[d] = v;
              arg[d] = idx;
            }
          }
        } else if (sample) {
          const acc_t s = static_cast<acc_t>(sample[i]);
          for (int64_t d = 0; d < dim; ++d) acc[d] += s * static_cast<acc_t>(row[d]);
        } else {
          for (int64_t d = 0; d < dim; ++d) acc[d] += static_cast<acc_t>(row[d]);
        }
        ++count;
      }
      a.bag_size[b] = count;
      T* dst = out + b * dim;
      if (a.mode == kBagMean && count > 0) {
        const acc_t n = static_cast<acc_t>(count);
        for (int64_t d = 0; d < dim; ++d) dst[d] = static_cast<T>(acc[d] / n);
      } else {
        for (int64_t d = 0; d < dim; ++d) dst[d] = static_cast<T>(acc[d]);
      }
    }
  });
}

void embedding_bag_kernel(ScalarType type, const EmbeddingBagLoop& loop) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(type, "embedding_bag", [&] { embedding_bag_typed<scalar_t>(loop); });
}

}  // namespace

REGISTER_CPU_DISPATCH(embedding_bag_stub, &embedding_bag_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
