#include <ATen/MemoryOverlap.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace at {
namespace {

// Dense and without aliasing: the strides, sorted, step over every element once.
bool is_non_overlapping_and_dense(const Tensor& t) {
  if (t.is_contiguous()) return true;
  const int64_t n = t.dim();
  std::vector<int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (t.size(a) < 2) return false;
    if (t.size(b) < 2) return true;
    return t.stride(a) < t.stride(b);
  });
  int64_t expected = 1;
  for (int64_t d : perm) {
    if (t.size(d) == 1) continue;
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

}  // namespace

MemOverlap has_internal_overlap(const Tensor& t) {
  if (is_non_overlapping_and_dense(t)) return MemOverlap::No;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) > 1 && t.stride(d) == 0) return MemOverlap::Yes;
  }
  return MemOverlap::TooHard;
}

MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b) {
  if (a.unsafeGetTensorImpl() == b.unsafeGetTensorImpl()) return MemOverlapStatus::Full;
  if (a.numel() == 0 || b.numel() == 0) return MemOverlapStatus::No;
  if (!is_non_overlapping_and_dense(a) || !is_non_overlapping_and_dense(b)) return MemOverlapStatus::TooHard;
  if (a.storage().unsafeGetStorageImpl() != b.storage().unsafeGetStorageImpl()) return MemOverlapStatus::No;
  const char* a_begin = static_cast<const char*>(a.data_ptr());
  const char* b_begin = static_cast<const char*>(b.data_ptr());
  const char* a_end = a_begin + a.numel() * a.element_size();
  const char* b_end = b_begin + b.numel() * b.element_size();
  if (a_begin == b_begin && a_end == b_end) {
    return a.strides().equals(b.strides()) ? MemOverlapStatus::Full : MemOverlapStatus::Partial;
  }
  if (a_begin < b_end && b_begin < a_end) return MemOverlapStatus::Partial;
  return MemOverlapStatus::No;
}

void assert_no_internal_overlap(const Tensor& t) {
  TORCH_CHECK(has_internal_overlap(t) != MemOverlap::Yes,
              "unsupported operation: more than one element of the written-to tensor refers to a single memory "
              "location. Please clone() the tensor before performing the operation.");
}

void assert_no_partial_overlap(const Tensor& a, const Tensor& b) {
  TORCH_CHECK(get_overlap_status(a, b) != MemOverlapStatus::Partial,
              "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
              "memory location. Please clone() the tensor before performing the operation.");
}

void assert_no_overlap(const Tensor& a, const Tensor& b) {
  const auto status = get_overlap_status(a, b);
  TORCH_CHECK(status != MemOverlapStatus::Partial && status != MemOverlapStatus::Full,
              "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
              "memory location. Please clone() the tensor before performing the operation.");
}

}  // namespace at
