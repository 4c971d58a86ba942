#pragma once
// A stable sort of one row by key, for sort/argsort/msort and the ops built
// on them (median, quantile, unique, mode): each value becomes an unsigned
// key whose order is PyTorch's (NaN largest whatever its sign, -0 equal to
// +0), and (key, index) pairs go through a least-significant-digit radix
// sort, byte by byte, skipping the bytes all keys share (found before any
// histogram is counted). O(n) per row where
// the comparison sort it replaces was O(n log n) with an indirect load per
// comparison; short rows take an insertion sort.
#include <c10/util/Half.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace at::native::radix {

// The unsigned key type of T: float16/bfloat16 compare as float.
template <typename T>
using key_t = std::conditional_t<
    sizeof(T) == 8, uint64_t,
    std::conditional_t<(sizeof(T) == 4 || c10::is_floating_v<T>), uint32_t,
                       std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>;

template <typename T>
inline key_t<T> key_of(T value) {
  using K = key_t<T>;
  if constexpr (c10::is_floating_v<T>) {
    using F = std::conditional_t<sizeof(T) == 8, double, float>;
    F v = static_cast<F>(value);
    if (v != v) return ~K(0);  // every NaN: the largest key
    if (v == F(0)) v = F(0);   // -0 sorts with +0
    K bits;
    std::memcpy(&bits, &v, sizeof bits);
    constexpr K sign = K(1) << (sizeof(K) * 8 - 1);
    return (bits & sign) ? K(~bits) : K(bits | sign);
  } else if constexpr (std::is_same_v<T, bool>) {
    return static_cast<K>(value);
  } else if constexpr (std::is_signed_v<T>) {
    constexpr K sign = K(1) << (sizeof(K) * 8 - 1);
    return static_cast<K>(static_cast<K>(value) ^ sign);
  } else {
    return static_cast<K>(value);
  }
}

// Sorts keys[0..n) with their idx[0..n), stably; tmp_* are scratch of n.
// The result is left in keys/idx.
template <typename K>
void sort_pairs(K* keys, int64_t* idx, K* tmp_keys, int64_t* tmp_idx, int64_t n) {
  if (n <= 32) {
    for (int64_t i = 1; i < n; ++i) {
      const K k = keys[i];
      const int64_t x = idx[i];
      int64_t j = i;
      for (; j > 0 && keys[j - 1] > k; --j) {
        keys[j] = keys[j - 1];
        idx[j] = idx[j - 1];
      }
      keys[j] = k;
      idx[j] = x;
    }
    return;
  }
  constexpr int kBytes = sizeof(K);
  // The bytes in which some key differs from the first (one pass the
  // compiler vectorises): only those get a histogram and a pass, so int64
  // keys of small values pay for two bytes, not eight.
  K differ = 0;
  const K first = keys[0];
  for (int64_t i = 0; i < n; ++i) differ |= static_cast<K>(keys[i] ^ first);
  int varying[kBytes];
  int nvarying = 0;
  for (int b = 0; b < kBytes; ++b) {
    if ((differ >> (8 * b)) & 0xff) varying[nvarying++] = b;
  }
  std::vector<int64_t> counts(static_cast<size_t>(kBytes) * 256, 0);
  for (int64_t i = 0; i < n; ++i) {
    const K k = keys[i];
    for (int v = 0; v < nvarying; ++v) {
      const int b = varying[v];
      ++counts[b * 256 + ((k >> (8 * b)) & 0xff)];
    }
  }
  K* src_k = keys;
  int64_t* src_i = idx;
  K* dst_k = tmp_keys;
  int64_t* dst_i = tmp_idx;
  for (int v = 0; v < nvarying; ++v) {
    const int b = varying[v];
    int64_t* count = counts.data() + b * 256;
    int64_t offset = 0;
    for (int d = 0; d < 256; ++d) {
      const int64_t c = count[d];
      count[d] = offset;
      offset += c;
    }
    for (int64_t i = 0; i < n; ++i) {
      const int64_t at = count[(src_k[i] >> (8 * b)) & 0xff]++;
      dst_k[at] = src_k[i];
      dst_i[at] = src_i[i];
    }
    std::swap(src_k, dst_k);
    std::swap(src_i, dst_i);
  }
  if (src_k != keys) {
    std::memcpy(keys, src_k, sizeof(K) * n);
    std::memcpy(idx, src_i, sizeof(int64_t) * n);
  }
}

// The stable ascending (or descending) order of row[0..n): order[j] is the
// index of the j-th element. Descending flips the keys, so equal values
// keep their index order either way, as PyTorch's stable sort does.
// Its scratch grows and is kept between rows; for_thread() gives each
// thread one whose scratch outlives the call up to kKeptElements (fresh
// pages for every sort of 1e5 elements cost more than the sort itself).
template <typename T>
struct RowSorter {
  using K = key_t<T>;
  static constexpr int64_t kKeptElements = int64_t{1} << 18;
  std::unique_ptr<K[]> keys, tmp_keys;
  std::unique_ptr<int64_t[]> order, tmp_order;
  int64_t capacity = 0;

  static RowSorter& for_thread() {
    static thread_local RowSorter sorter;
    return sorter;
  }

  // Frees scratch beyond what a thread keeps.
  void trim() {
    if (capacity <= kKeptElements) return;
    keys.reset();
    tmp_keys.reset();
    order.reset();
    tmp_order.reset();
    capacity = 0;
  }

  const int64_t* sort(const T* row, int64_t n, bool descending) {
    if (n > capacity) {  // uninitialised: every slot is written before it is read
      keys.reset(new K[n]);
      tmp_keys.reset(new K[n]);
      order.reset(new int64_t[n]);
      tmp_order.reset(new int64_t[n]);
      capacity = n;
    }
    for (int64_t i = 0; i < n; ++i) {
      const K k = key_of(row[i]);
      keys[i] = descending ? K(~k) : k;
      order[i] = i;
    }
    sort_pairs(keys.get(), order.get(), tmp_keys.get(), tmp_order.get(), n);
    return order.get();
  }
};

}  // namespace at::native::radix
