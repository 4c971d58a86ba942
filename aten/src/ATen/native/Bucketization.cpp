// searchsorted and bucketize: a binary search of each value in its row of
// the sorted boundaries, O(m log n) time and no memory beyond the result
// (PyTorch's algorithm: "left" finds the first boundary >= the value,
// "right" the first > it, so NaN values land past every boundary).
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>

#include <string>

namespace at::native {
namespace {

template <typename T>
int64_t bound(const T* seq, int64_t n, int64_t seq_stride, const int64_t* sorter, T value, bool right) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    const T v = seq[(sorter ? sorter[mid] : mid) * seq_stride];
    // Negated comparisons, as PyTorch's: a NaN boundary counts as larger.
    const bool before = right ? !(v > value) : !(v >= value);
    if (before) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

bool is_right(bool right, const std::optional<std::string_view>& side) {
  if (!side) return right;
  TORCH_CHECK(*side == "left" || *side == "right", "torch.searchsorted(): side can only be 'left' or 'right' but got ",
              std::string(*side));
  TORCH_CHECK(!right || *side == "right", "torch.searchsorted(): side and right can't be set to opposites, got side of ",
              std::string(*side), " while right was True");
  return *side == "right";
}

Tensor search_sorted(const Tensor& boundaries, const Tensor& input, bool out_int32, bool right,
              const std::optional<Tensor>& sorter) {
  TORCH_CHECK(boundaries.dim() > 0, "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
              "dimension");
  const bool one_row = boundaries.dim() == 1;
  TORCH_CHECK(one_row || (boundaries.dim() == input.dim() &&
                          boundaries.sizes().slice(0, boundaries.dim() - 1).equals(
                              input.sizes().slice(0, input.dim() - 1))),
              "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
              "tensor and input value tensor must match, but we got boundaries tensor ", boundaries.sizes(),
              " and input value tensor ", input.sizes());
  const bool has_sorter = sorter && sorter->defined();
  if (has_sorter) {
    TORCH_CHECK(sorter->scalar_type() == ScalarType::Long, "torch.searchsorted(): sorter must be a tensor of long dtype "
                "but got dtype ", toString(sorter->scalar_type()));
    TORCH_CHECK(sorter->sizes().equals(boundaries.sizes()), "torch.searchsorted(): boundary and sorter must have the "
                "same size, but got boundary tensor ", boundaries.sizes(), "and got sorter tensor ", sorter->sizes());
  }
  const ScalarType common = promoteTypes(boundaries.scalar_type(), input.scalar_type());
  const Device device = input.device();
  // The search runs on the CPU; a CUDA input's result is copied back.
  const Tensor seq = boundaries.to(Device(DeviceType::CPU), common).contiguous();
  const Tensor values = input.to(Device(DeviceType::CPU), common).contiguous();
  Tensor order;
  if (has_sorter) {
    order = sorter->to(Device(DeviceType::CPU), std::nullopt).contiguous();
    const int64_t n = seq.size(-1);
    const int64_t* o = order.data_ptr<int64_t>();
    for (int64_t i = 0; i < order.numel(); ++i) {
      TORCH_CHECK(o[i] >= 0 && o[i] < n, "torch.searchsorted(): sorter index out of range");
    }
  }
  // Nothing to look up: PyTorch returns before its kernel dispatches on the dtype (so bool passes).
  if (input.numel() == 0) return at::empty(input.sizes(), out_int32 ? ScalarType::Int : ScalarType::Long, input.device());
  Tensor result = at::empty(values.sizes(), ScalarType::Long, Device(DeviceType::CPU));
  const int64_t n = seq.size(-1);
  const int64_t m = values.dim() == 0 ? 1 : values.size(-1);
  const int64_t rows = m == 0 ? 0 : values.numel() / m;
  int64_t* out = result.data_ptr<int64_t>();
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(common, "searchsorted_out_cpu", [&] {
    const scalar_t* s = seq.data_ptr<scalar_t>();
    const scalar_t* v = values.data_ptr<scalar_t>();
    const int64_t* o = has_sorter ? order.data_ptr<int64_t>() : nullptr;
    at::parallel_for(0, rows * m, 2048, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const int64_t row = one_row ? 0 : i / m;
        out[i] = bound<scalar_t>(s + row * n, n, 1, o ? o + row * n : nullptr, v[i], right);
      }
    });
  });
  if (out_int32) result = result.to(ScalarType::Int);
  return device.is_cpu() ? result : result.to(device, result.scalar_type());
}

// A number as a 0-d tensor of its own kind (a float stays a float against
// integer boundaries), on the boundaries' device.
Tensor scalar_value(const Scalar& value, const Tensor& like) {
  const ScalarType t = value.isFloatingPoint() ? ScalarType::Double : value.isBoolean() ? ScalarType::Bool
                                                                                         : ScalarType::Long;
  return at::scalar_tensor(value, t).to(like.device(), std::nullopt);
}

Tensor bucketize_values(const Tensor& values, const Tensor& boundaries, bool out_int32, bool right) {
  TORCH_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(), ")");
  return search_sorted(boundaries, values, out_int32, right, std::nullopt);
}

}  // namespace

Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const std::optional<Tensor>& sorter) {
  return search_sorted(sorted_sequence, self, out_int32, is_right(right, side), sorter);
}

Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& self, bool out_int32, bool right,
                    std::optional<std::string_view> side, const std::optional<Tensor>& sorter) {
  return search_sorted(sorted_sequence, scalar_value(self, sorted_sequence), out_int32, is_right(right, side), sorter);
}

Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  return bucketize_values(self, boundaries, out_int32, right);
}

Tensor bucketize(const Scalar& self, const Tensor& boundaries, bool out_int32, bool right) {
  return bucketize_values(scalar_value(self, boundaries), boundaries, out_int32, right);
}

}  // namespace at::native
