#include <c10/core/TensorImpl.h>

#include <algorithm>

#include <atomic>
#include <vector>

namespace c10 {

namespace {
std::atomic<int64_t> live_tensor_impls{0};
}  // namespace

AutogradMetaInterface::~AutogradMetaInterface() = default;

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, Device device)
    : storage_(std::move(storage)), dtype_(dtype), device_(device) {
  live_tensor_impls.fetch_add(1, std::memory_order_relaxed);
}

TensorImpl::~TensorImpl() { live_tensor_impls.fetch_sub(1, std::memory_order_relaxed); }

int64_t TensorImpl::live_count() { return live_tensor_impls.load(std::memory_order_relaxed); }

void TensorImpl::set_sizes_contiguous(IntArrayRef sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(sizes[i], 1);
  }
  set_sizes_and_strides(sizes, strides, storage_offset_);
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  TORCH_INTERNAL_ASSERT(sizes.size() == strides.size());
  for (int64_t s : sizes) TORCH_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", sizes);
  TORCH_CHECK(storage_offset >= 0, "Tensor: negative storage offset ", storage_offset);
  sizes_and_strides_.set(sizes, strides);
  storage_offset_ = storage_offset;
  refresh_numel_and_contiguity();
  if (numel_ == 0) return;
  // The furthest element must lie inside the storage; the lowest one too.
  // Checked arithmetic: as_strided((2**62,), (1,)) must not wrap into "fits".
  int64_t lo = storage_offset, hi = storage_offset, end = 0;
  bool overflow = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    int64_t reach = 0;
    overflow |= __builtin_mul_overflow(sizes[i] - 1, strides[i], &reach);
    int64_t& bound = reach > 0 ? hi : lo;
    overflow |= __builtin_add_overflow(bound, reach, &bound);
  }
  overflow |= __builtin_add_overflow(hi, int64_t{1}, &end);
  overflow |= __builtin_mul_overflow(end, static_cast<int64_t>(itemsize()), &end);
  TORCH_CHECK(!overflow && lo >= 0 && end <= static_cast<int64_t>(storage_.nbytes()),
              "setStorage: sizes ", sizes, ", strides ", strides, ", storage offset ", storage_offset,
              " and itemsize ", itemsize(), " require a storage larger than ", storage_.nbytes(), " bytes");
}

void TensorImpl::refresh_numel_and_contiguity() {
  const IntArrayRef sizes = this->sizes(), strides = this->strides();
  int64_t n = 1;
  bool overflow = false;
  for (int64_t s : sizes) overflow |= __builtin_mul_overflow(n, s, &n);
  if (std::find(sizes.begin(), sizes.end(), int64_t{0}) != sizes.end()) n = 0, overflow = false;
  TORCH_CHECK(!overflow, "Tensor: sizes ", sizes, " have more elements than an int64 counts");
  numel_ = n;
  // Contiguous means row-major; dims of size 1 may carry any stride.
  bool contiguous = true;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) {
      contiguous = false;
      break;
    }
    expected *= sizes[i];
  }
  is_contiguous_ = contiguous || n == 0;
}

}  // namespace c10
