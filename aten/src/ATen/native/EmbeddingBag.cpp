// embedding_bag: each bag's sum, mean or max of the rows of `weight` its
// indices pick, bag b being indices [offsets[b], offsets[b + 1]), with
// PyTorch's checks and its four results (output, offset2bag, bag_size,
// max_indices). On the CPU one loop (cpu/EmbeddingBagKernel.cpp) reads each
// row once; other devices compose their own index_select, index_add and
// scatter_reduce. The gradients are compositions for every device.
#include <ATen/ATen.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/EmbeddingBag.h>

#include <algorithm>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(embedding_bag_stub);

namespace {

void check_dtype(const Tensor& t, int position, const char* name, bool index) {
  const ScalarType s = t.scalar_type();
  const bool ok = index ? (s == ScalarType::Long || s == ScalarType::Int)
                        : (s == ScalarType::Half || s == ScalarType::BFloat16 || s == ScalarType::Float ||
                           s == ScalarType::Double);
  TORCH_CHECK(ok, "Expected tensor for argument #", position, " '", name, "' to have one of the following scalar types: ",
              index ? "Long, Int" : "Half, BFloat16, Float, Double", "; but got ", s,
              " instead (while checking arguments for embedding_bag)");
}

// Each bag's [start, end) in the indices, from offsets (PyTorch's checks,
// and a non-decreasing one of this build's: PyTorch computes garbage there).
void bag_ranges(const Tensor& offsets_cpu, int64_t num_indices, bool include_last_offset, std::vector<int64_t>& starts,
                std::vector<int64_t>& ends) {
  const int64_t* off = offsets_cpu.data_ptr<int64_t>();
  const int64_t n = offsets_cpu.numel();
  const int64_t bags = include_last_offset ? std::max<int64_t>(n - 1, 0) : n;
  if (n > 0) {
    TORCH_CHECK(off[0] == 0, "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                "position 0. However, got ", off[0]);
    TORCH_CHECK(off[n - 1] <= num_indices, "offsets[-1] can not be greater than input's length ", num_indices,
                " but got offsets[-1] of ", off[n - 1]);
  }
  for (int64_t b = 1; b < n; ++b) {
    TORCH_CHECK(off[b] >= off[b - 1], "embedding_bag: offsets must be non-decreasing, but offsets[", b, "] = ", off[b],
                " is less than offsets[", b - 1, "] = ", off[b - 1]);
  }
  starts.assign(off, off + bags);
  ends.resize(static_cast<size_t>(bags));
  for (int64_t b = 0; b < bags; ++b) ends[b] = b + 1 < n ? off[b + 1] : num_indices;
}

void check_indices(const Tensor& indices_cpu, int64_t num_weights) {
  const int64_t* idx = indices_cpu.data_ptr<int64_t>();
  for (int64_t i = 0; i < indices_cpu.numel(); ++i) {
    TORCH_CHECK(idx[i] >= 0 && idx[i] < num_weights, "embedding_bag: index ", idx[i], " (at position ", i,
                ") is out of range for a weight of ", num_weights, " rows");
  }
}

Tensor long_scalar(int64_t v) { return scalar_tensor_of(v, ScalarType::Long); }

// The indices a bag counts: inside some bag and not padding_idx.
Tensor counted(const Tensor& offset2bag, const Tensor& indices, int64_t padding_idx) {
  return offset2bag.ge(long_scalar(0)).logical_and(indices.ne(long_scalar(padding_idx)));
}

// The device's own ops: each index's bag, its row (times its sample weight),
// then one index_add (scatter_reduce for max) into the bags.
std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag_by_ops(const Tensor& weight, const Tensor& indices,
                                                                const Tensor& offset2bag, int64_t bags, int64_t mode,
                                                                const std::optional<Tensor>& per_sample_weights,
                                                                int64_t padding_idx) {
  const int64_t dim = weight.size(1);
  const Tensor member = counted(offset2bag, indices, padding_idx);
  const Tensor bag = offset2bag.masked_select(member), idx = indices.masked_select(member);
  // Sums in float for float16/bfloat16 tables, as the CPU loop.
  const ScalarType type = weight.scalar_type();
  const ScalarType acc = (type == ScalarType::Half || type == ScalarType::BFloat16) ? ScalarType::Float : type;
  Tensor rows = weight.index_select(0, idx).to(acc);
  if (per_sample_weights) rows = rows.mul(per_sample_weights->masked_select(member).to(acc).unsqueeze(1));
  const Tensor bag_size = at::zeros({bags}, ScalarType::Long, weight.device()).index_add(0, bag, at::ones_like(bag));
  Tensor out = at::zeros({bags, dim}, acc, weight.device());
  Tensor max_indices = at::empty({0}, ScalarType::Long, weight.device());
  if (mode == kBagMax) {
    const Tensor spread = bag.unsqueeze(1).expand({bag.numel(), dim});
    out = out.scatter_reduce(0, spread, rows, "amax", /*include_self=*/false);
    // The winning row of each element (the last of equal ones); -1 in an empty bag.
    const Tensor won = rows.eq(out.index_select(0, bag));
    const Tensor candidate = at::where(won, idx.unsqueeze(1).expand({idx.numel(), dim}), long_scalar(-1));
    max_indices = at::full({bags, dim}, -1, ScalarType::Long, weight.device())
                      .scatter_reduce(0, spread, candidate, "amax", /*include_self=*/true);
  } else {
    out = out.index_add(0, bag, rows);
    if (mode == kBagMean) out = out.div(bag_size.clamp(1, std::nullopt).to(out.scalar_type()).unsqueeze(1));
  }
  return {out.to(type), offset2bag, bag_size, max_indices};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor, Tensor> _embedding_bag(const Tensor& weight, const Tensor& indices,
                                                          const Tensor& offsets, bool scale_grad_by_freq, int64_t mode,
                                                          bool sparse, const std::optional<Tensor>& per_sample_weights,
                                                          bool include_last_offset, int64_t padding_idx) {
  (void)scale_grad_by_freq;  // the gradient's business
  check_dtype(indices, 1, "indices", true);
  check_dtype(offsets, 2, "offsets", true);
  check_dtype(weight, 1, "weight", false);
  TORCH_CHECK(weight.dim() == 2, "embedding_bag: weight has to be a 2D Tensor, but got Tensor of dimension ",
              weight.dim());
  TORCH_CHECK(indices.dim() == 1, "embedding_bag: input has to be a 1D Tensor, but got Tensor of dimension ",
              indices.dim());
  TORCH_CHECK(offsets.dim() == 1, "embedding_bag: offsets has to be a 1D Tensor, but got Tensor of dimension ",
              offsets.dim());
  TORCH_CHECK(mode >= kBagSum && mode <= kBagMax, "embedding_bag: mode has to be 0 (sum), 1 (mean) or 2 (max), "
              "but got ", mode);
  TORCH_CHECK(indices.device() == weight.device() && offsets.device() == weight.device(),
              "Expected all tensors to be on the same device, but found at least two devices, ", weight.device().str(),
              " and ", (indices.device() != weight.device() ? indices : offsets).device().str(), "!");
  if (per_sample_weights) {
    TORCH_CHECK(mode == kBagSum, "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                "supported for mode='", mode == kBagMean ? "mean" : "max", "' (got mode='",
                mode == kBagMean ? "mean" : "max", "'). Please open a feature request on GitHub.");
    TORCH_CHECK(per_sample_weights->scalar_type() == weight.scalar_type(), "Expected tensor for argument #1 'weight' "
                "to have the same type as tensor for argument #1 'per_sample_weights'; but type ",
                weight.scalar_type(), " does not equal ", per_sample_weights->scalar_type(),
                " (while checking arguments for embedding_bag)");
    TORCH_CHECK(per_sample_weights->sizes().equals(indices.sizes()), "embedding_bag: per_sample_weights ",
                per_sample_weights->sizes(), " must have the same shape as the input ", indices.sizes());
    TORCH_CHECK(per_sample_weights->device() == weight.device(), "Expected all tensors to be on the same device, "
                "but found at least two devices, ", weight.device().str(), " and ",
                per_sample_weights->device().str(), "!");
  }
  TORCH_CHECK_NOT_IMPLEMENTED(!sparse, "embedding_bag: sparse gradients are not supported");
  const int64_t num_weights = weight.size(0), dim = weight.size(1);
  TORCH_CHECK(padding_idx >= -1 && padding_idx < num_weights, "embedding_bag: padding_idx must be -1 (none) or "
              "within the number of embeddings, 0 through ", num_weights - 1, ", but got ", padding_idx);

  const Tensor idx_cpu = indices.to(std::optional<Device>(Device(DeviceType::CPU)), ScalarType::Long).contiguous();
  const Tensor off_cpu = offsets.to(std::optional<Device>(Device(DeviceType::CPU)), ScalarType::Long).contiguous();
  std::vector<int64_t> starts, ends;
  bag_ranges(off_cpu, idx_cpu.numel(), include_last_offset, starts, ends);
  check_indices(idx_cpu, num_weights);
  const int64_t bags = static_cast<int64_t>(starts.size());
  // Each index's bag; -1 past the last bag (include_last_offset's tail).
  Tensor offset2bag = at::full({idx_cpu.numel()}, -1, ScalarType::Long, Device(DeviceType::CPU));
  int64_t* o2b = offset2bag.data_ptr<int64_t>();
  for (int64_t b = 0; b < bags; ++b) std::fill(o2b + starts[b], o2b + ends[b], b);

  if (!weight.device().is_cpu()) {
    return embedding_bag_by_ops(weight, indices.to(ScalarType::Long), offset2bag.to(weight.device(), std::nullopt),
                                bags, mode, per_sample_weights, padding_idx);
  }
  const Tensor table = weight.contiguous();
  const Tensor sample = per_sample_weights ? per_sample_weights->contiguous() : Tensor();
  Tensor out = at::empty({bags, dim}, weight.scalar_type(), weight.device());
  Tensor bag_size = at::empty({bags}, ScalarType::Long, weight.device());
  Tensor max_indices = at::empty({mode == kBagMax ? bags : 0, mode == kBagMax ? dim : 0}, ScalarType::Long,
                                 weight.device());
  if (mode != kBagMax) max_indices = max_indices.view({0});
  EmbeddingBagLoop loop{table.data_ptr(),
                        dim,
                        idx_cpu.data_ptr<int64_t>(),
                        starts.data(),
                        ends.data(),
                        bags,
                        sample.defined() ? sample.data_ptr() : nullptr,
                        padding_idx,
                        mode,
                        out.data_ptr(),
                        bag_size.data_ptr<int64_t>(),
                        mode == kBagMax ? max_indices.data_ptr<int64_t>() : nullptr};
  if (bags > 0) embedding_bag_stub(DeviceType::CPU, weight.scalar_type(), loop);
  return {out, offset2bag, bag_size, max_indices};
}

std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(const Tensor& weight, const Tensor& indices,
                                                         const Tensor& offsets, bool scale_grad_by_freq, int64_t mode,
                                                         bool sparse, const std::optional<Tensor>& per_sample_weights,
                                                         bool include_last_offset, std::optional<int64_t> padding_idx) {
  int64_t pad = -1;
  if (padding_idx) {
    const int64_t n = weight.dim() == 2 ? weight.size(0) : 0;
    TORCH_CHECK(*padding_idx >= -n && *padding_idx < n, "padding_idx must be within the number of embeddings, ", -n,
                " through ", n - 1, ", but got ", *padding_idx);
    pad = *padding_idx < 0 ? *padding_idx + n : *padding_idx;
  }
  return at::_embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                            include_last_offset, pad);
}

std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(const Tensor& weight, const Tensor& indices,
                                                         const Tensor& offsets, bool scale_grad_by_freq, int64_t mode,
                                                         bool sparse, const std::optional<Tensor>& per_sample_weights,
                                                         bool include_last_offset) {
  return at::_embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                            include_last_offset, -1);
}

Tensor embedding_bag_weight_backward(const Tensor& grad, const Tensor& indices, const Tensor& offset2bag,
                                     const Tensor& bag_size, const Tensor& max_indices, int64_t num_weights,
                                     bool scale_grad_by_freq, int64_t mode,
                                     const std::optional<Tensor>& per_sample_weights, int64_t padding_idx) {
  const int64_t dim = grad.size(1);
  Tensor result = at::zeros({num_weights, dim}, grad.scalar_type(), grad.device());
  if (mode == kBagMax) {
    const Tensor won = max_indices.ge(long_scalar(0));
    return result.scatter_add_(0, max_indices.clamp(0, std::nullopt), grad.masked_fill(won.logical_not(), 0));
  }
  const Tensor idx = indices.to(ScalarType::Long);
  const Tensor member = counted(offset2bag, idx, padding_idx);
  const Tensor bag = offset2bag.masked_select(member), used = idx.masked_select(member);
  Tensor scale;  // each counted index's factor, where it is not 1
  if (per_sample_weights) scale = per_sample_weights->masked_select(member);
  auto times = [&](const Tensor& factor) { scale = scale.defined() ? scale.mul(factor) : factor; };
  if (mode == kBagMean) times(bag_size.index_select(0, bag).to(grad.scalar_type()).reciprocal());
  if (scale_grad_by_freq) {
    // PyTorch's: each index's gradient over how often it appears in the batch.
    times(used.bincount(std::nullopt, num_weights).index_select(0, used).to(grad.scalar_type()).reciprocal());
  }
  Tensor rows = grad.index_select(0, bag);
  if (scale.defined()) rows = rows.mul(scale.unsqueeze(1));
  return result.index_add_(0, used, rows);
}

Tensor embedding_bag_per_sample_weights_backward(const Tensor& grad, const Tensor& weight, const Tensor& indices,
                                                 const Tensor& offset2bag, int64_t mode, int64_t padding_idx) {
  TORCH_CHECK(mode == kBagSum, "embedding_bag_backward: per_sample_weights only supported for mode='sum'");
  const Tensor idx = indices.to(ScalarType::Long);
  const Tensor member = counted(offset2bag, idx, padding_idx);
  const Tensor dots = grad.index_select(0, offset2bag.clamp(0, std::nullopt))
                          .mul(weight.index_select(0, idx))
                          .sum(IntArrayRef{1});
  return dots.masked_fill(member.logical_not(), 0);
}

}  // namespace at::native
