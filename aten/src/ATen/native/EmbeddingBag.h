#pragma once
// embedding_bag (EmbeddingBag.cpp) and its CPU loop
// (cpu/EmbeddingBagKernel.cpp). The loop takes plain pointers, so the
// widest capability's copy runs it; the caller has checked every index
// and every bag's range.
#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>
#include <c10/core/ScalarType.h>

#include <cstdint>
#include <optional>

namespace at::native {

enum EmbeddingBagMode : int64_t { kBagSum = 0, kBagMean = 1, kBagMax = 2 };

struct EmbeddingBagLoop {
  const void* weight;       // [num_weights, dim], contiguous
  int64_t dim;
  const int64_t* indices;   // each in [0, num_weights)
  const int64_t* starts;    // bag b holds indices [starts[b], ends[b])
  const int64_t* ends;
  int64_t bags;
  const void* per_sample_weights;  // null, or one per index (weight's dtype)
  int64_t padding_idx;      // an index left out of its bag; -1: none
  int64_t mode;             // EmbeddingBagMode
  void* out;                // [bags, dim]
  int64_t* bag_size;        // [bags]: the indices each bag counted
  int64_t* max_indices;     // [bags, dim] for max (-1 in an empty bag), else null
};
using embedding_bag_fn = void (*)(c10::ScalarType type, const EmbeddingBagLoop& loop);
DECLARE_DISPATCH(embedding_bag_fn, embedding_bag_stub);

// The gradients, for derivatives.yaml: the table's (each counted index gets
// its bag's gradient, over the bag's size for mean, times its sample weight;
// for max, the winning row of each element) and the sample weights' (the
// bag's gradient dotted with the index's row).
TORCH_API Tensor embedding_bag_weight_backward(const Tensor& grad, const Tensor& indices, const Tensor& offset2bag,
                                               const Tensor& bag_size, const Tensor& max_indices, int64_t num_weights,
                                               bool scale_grad_by_freq, int64_t mode,
                                               const std::optional<Tensor>& per_sample_weights, int64_t padding_idx);
TORCH_API Tensor embedding_bag_per_sample_weights_backward(const Tensor& grad, const Tensor& weight,
                                                           const Tensor& indices, const Tensor& offset2bag,
                                                           int64_t mode, int64_t padding_idx);

}  // namespace at::native
