// diff's n passes, kept in cache (RepeatedDiff.h). The n-th difference of
// entries [i, i + k) needs entries [i, i + k + n) only, so the rows split into
// tiles that each take their n passes in a scratch buffer sized for L1/L2 and
// write their k results once; no pass walks the whole tensor. The floating
// dtypes run in the wide (AVX2, AVX512) copies. Each step rounds to the dtype
// as one subtraction does, so the values are the composite's bit for bit.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/RepeatedDiff.h>

#include <algorithm>
#include <memory>
#include <type_traits>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// next - prev as one subtraction in T: integers wrap (through the unsigned
// type, so no signed overflow), bools differ (logical_xor, as diff uses).
template <typename T>
inline T step(T next, T prev) {
  if constexpr (std::is_same_v<T, bool>) {
    return next != prev;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(next) - static_cast<U>(prev));
  } else {
    return static_cast<T>(next - prev);
  }
}

// A thread's scratch, grown on demand (not std::vector: bool has no data()).
template <typename T>
struct Scratch {
  std::unique_ptr<T[]> data;
  int64_t capacity = 0;
  T* get(int64_t size) {
    if (capacity < size) {
      data.reset(new T[static_cast<size_t>(size)]);
      capacity = size;
    }
    return data.get();
  }
};

// dst[i] = src[i + 1] - src[i] over distinct arrays, `count` of them
// (in place it is correct too, but GCC does not vectorise it).
template <typename T>
void diff_pass(const T* __restrict src, T* __restrict dst, int64_t count) {
  for (int64_t i = 0; i < count; ++i) dst[i] = step(src[i + 1], src[i]);
}

// The `count` results of a contiguous row from `src` (count + n entries):
// passes alternate between two scratch halves, the last writes into `out`.
template <typename T>
void diff_tile(const T* src, T* out, int64_t count, int64_t n, Scratch<T>& scratch) {
  T* a = scratch.get(2 * (count + n));
  T* bufs[2] = {a, a + count + n};
  diff_pass(src, bufs[0], count + n - 1);
  for (int64_t pass = 1; pass + 1 < n; ++pass) diff_pass(bufs[(pass + 1) % 2], bufs[pass % 2], count + n - pass - 1);
  diff_pass(bufs[n % 2], out, count);
}

// dst[k] = next[k] - prev[k] for a row of `width` entries, dst apart from both.
template <typename T>
void diff_row(const T* __restrict next, const T* __restrict prev, T* __restrict dst, int64_t width) {
  for (int64_t k = 0; k < width; ++k) dst[k] = step(next[k], prev[k]);
}

// Columns k0..k0 + width of a [len, inner] slice (row stride `inner`): the
// first pass from src into scratch, the middle ones in place there (row i
// reads row i + 1 before the pass reaches it; a row's entries vectorise),
// the last from scratch into out.
template <typename T>
void diff_columns(const T* src, T* out, int64_t len, int64_t inner, int64_t width, int64_t n,
                  Scratch<T>& scratch) {
  T* buf = scratch.get((len - 1) * width);
  for (int64_t i = 0; i + 1 < len; ++i) diff_row(src + (i + 1) * inner, src + i * inner, buf + i * width, width);
  for (int64_t pass = 1; pass + 1 < n; ++pass) {
    for (int64_t i = 0; i + 1 < len - pass; ++i) {
      T* row = buf + i * width;
      const T* next = row + width;
      for (int64_t k = 0; k < width; ++k) row[k] = step(next[k], row[k]);
    }
  }
  for (int64_t i = 0; i < len - n; ++i) diff_row(buf + (i + 1) * width, buf + i * width, out + i * inner, width);
}

// out (contiguous, len - n > 0 along dim) = the n-th difference of src
// (contiguous, non-empty) along dim, n >= 2.
void repeated_diff_kernel(const Tensor& src, const Tensor& out, int64_t n, int64_t dim) {
  const int64_t len = src.size(dim), out_len = len - n;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= src.size(d);
  for (int64_t d = dim + 1; d < src.dim(); ++d) inner *= src.size(d);
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(src.scalar_type(), "diff", [&] {
    const scalar_t* in = src.data_ptr<scalar_t>();
    scalar_t* res = out.data_ptr<scalar_t>();
    if (inner == 1) {
      // Tiles of a row: 2048 results each (n more entries read), in L1/L2.
      const int64_t tile = 2048, tiles = (out_len + tile - 1) / tile;
      const int64_t grain = std::max<int64_t>(1, 32768 / ((std::min(tile, out_len) + n) * n));
      at::parallel_for(0, outer * tiles, grain, [&](int64_t begin, int64_t end) {
        Scratch<scalar_t> scratch;
        for (int64_t t = begin; t < end; ++t) {
          const int64_t row = t / tiles, start = (t % tiles) * tile;
          diff_tile(in + row * len + start, res + row * out_len + start, std::min(tile, out_len - start), n,
                    scratch);
        }
      });
      return;
    }
    // Blocks of columns: rows at least 256 wide (the per-row loop overhead
    // stays small), the block about 64K entries when the dim is short.
    const int64_t width = std::min(inner, std::max<int64_t>(256, 65536 / len));
    const int64_t blocks = (inner + width - 1) / width;
    const int64_t grain = std::max<int64_t>(1, 32768 / (len * width * n));
    at::parallel_for(0, outer * blocks, grain, [&](int64_t begin, int64_t end) {
      Scratch<scalar_t> scratch;
      for (int64_t t = begin; t < end; ++t) {
        const int64_t o = t / blocks, k0 = (t % blocks) * width;
        diff_columns(in + o * len * inner + k0, res + o * out_len * inner + k0, len, inner,
                     std::min(width, inner - k0), n, scratch);
      }
    });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(repeated_diff_stub, &repeated_diff_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
