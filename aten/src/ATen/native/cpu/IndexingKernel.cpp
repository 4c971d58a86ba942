// CPU loops of the indexing ops. Copies move raw bytes (dtype-agnostic);
// only accumulation dispatches on the dtype.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/BinaryFunctors.h>
#include <ATen/native/Indexing.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// out[k] = base[idx[k]] for k < n, whole elements of `block` bytes: a typed
// loop for the common sizes (a gather the compiler widens), memcpy otherwise.
template <typename T>
void gather_elements(char* out, const char* base, const int64_t* idx, int64_t n) {
  T* o = reinterpret_cast<T*>(out);
  const T* s = reinterpret_cast<const T*>(base);
  for (int64_t k = 0; k < n; ++k) o[k] = s[idx[k]];
}

void gather_blocks(char* out, const char* base, const int64_t* idx, int64_t n, int64_t block) {
  switch (block) {
    case 1: return gather_elements<uint8_t>(out, base, idx, n);
    case 2: return gather_elements<uint16_t>(out, base, idx, n);
    case 4: return gather_elements<uint32_t>(out, base, idx, n);
    case 8: return gather_elements<uint64_t>(out, base, idx, n);
    default:
      for (int64_t k = 0; k < n; ++k) std::memcpy(out + k * block, base + idx[k] * block, block);
  }
}

// out [outer, n, inner] from src [outer, size, inner]: each thread takes a
// range of (outer, index) rows and walks it a run of one outer row at a time
// (no division per element; a copy of 4 or 8 bytes is a load and a store).
void index_select_kernel(const Tensor& out, const Tensor& src, const Tensor& index, int64_t outer, int64_t inner) {
  const int64_t n = index.numel(), size = src.dim() == 0 ? 1 : src.numel() / std::max<int64_t>(outer * inner, 1);
  const int64_t item = out.element_size();
  const int64_t* idx = index.data_ptr<int64_t>();
  const char* s = static_cast<const char*>(src.data_ptr());
  char* o = static_cast<char*>(out.data_ptr());
  const int64_t block = inner * item;
  parallel_for(0, outer * n, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner, 1)), [&](int64_t b, int64_t e) {
    int64_t i = b / n, j = b % n;
    for (int64_t r = b; r < e; ++i, j = 0) {
      const int64_t run = std::min(e - r, n - j);
      gather_blocks(o + (i * n + j) * block, s + i * size * block, idx + j, run, block);
      r += run;
    }
  });
}

// Walks the positions [begin, end) of `index` (contiguous) and calls f(offset
// of that position in `a` (strided, with the index value along `dim`), offset
// in `b` (strided), linear position). Offsets move incrementally, an add per step.
template <typename F>
void for_each_position(const Tensor& index, int64_t dim, const Tensor& a, const Tensor& b, int64_t begin,
                       int64_t end, F f) {
  const int64_t nd = index.dim();
  const int64_t* idx = index.data_ptr<int64_t>();
  if (nd == 0) {
    if (begin < end) f(idx[0] * (a.dim() > 0 ? a.stride(0) : 0), 0, 0);
    return;
  }
  std::vector<int64_t> size(nd), step_a(nd), step_b(nd), pos(nd, 0);
  int64_t off_a = 0, off_b = 0;
  for (int64_t d = nd - 1, rest = begin; d >= 0; --d) {
    size[d] = index.size(d);
    step_a[d] = d == dim ? 0 : a.stride(d);
    step_b[d] = b.defined() ? b.stride(d) : 0;
    pos[d] = rest % size[d];
    rest /= size[d];
    off_a += pos[d] * step_a[d];
    off_b += pos[d] * step_b[d];
  }
  const int64_t stride_dim = a.stride(dim), last = nd - 1;
  const int64_t len = size[last], sa = step_a[last], sb = step_b[last];
  for (int64_t lin = begin; lin < end;) {
    // The rest of this row of the last dim in a tight loop, then a carry.
    const int64_t run = std::min(end - lin, len - pos[last]);
    for (int64_t k = 0; k < run; ++k) f(off_a + k * sa + idx[lin + k] * stride_dim, off_b + k * sb, lin + k);
    lin += run;
    pos[last] += run;
    off_a += run * sa;
    off_b += run * sb;
    for (int64_t d = last; d >= 0 && pos[d] == size[d]; --d) {
      off_a -= step_a[d] * size[d];
      off_b -= step_b[d] * size[d];
      pos[d] = 0;
      if (d == 0) break;
      ++pos[d - 1];
      off_a += step_a[d - 1];
      off_b += step_b[d - 1];
    }
  }
}

// Splits index's positions across threads. A gather's positions are
// independent. A scatter's write targets differ wherever a coordinate other
// than `dim`'s does, so, seeing index as [outer, D, inner] around `dim`, each
// work item takes one outer coordinate and a chunk of inner ones and walks
// them for every position along dim in order: the writes to one target keep
// the serial order (the last write wins, sums add in the same order) and no
// two threads share a target. With too little inner to chunk, an item is a
// whole [D, inner] block.
template <typename F>
void for_each_position_parallel(const Tensor& index, int64_t dim, const Tensor& a, const Tensor& b, bool writes,
                                F f) {
  const int64_t n = index.numel();
  if (!writes || index.dim() == 0) {
    parallel_for(0, n, kGrainSize, [&](int64_t lo, int64_t hi) { for_each_position(index, dim, a, b, lo, hi, f); });
    return;
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= index.size(d);
  for (int64_t d = dim + 1; d < index.dim(); ++d) inner *= index.size(d);
  const int64_t along = index.size(dim), block = along * inner;
  if (block == 0) return;
  // Four items per thread (so they share evenly), each chunk at least 64
  // inner positions (whole cache lines of self).
  const int64_t min_chunk = 64;
  const int64_t wanted = (4 * get_num_threads() + outer - 1) / outer;
  const int64_t chunks = n < kGrainSize ? 1 : std::max<int64_t>(1, std::min(wanted, inner / min_chunk));
  if (chunks == 1) {
    parallel_for(0, outer, std::max<int64_t>(1, kGrainSize / block), [&](int64_t lo, int64_t hi) {
      for_each_position(index, dim, a, b, lo * block, hi * block, f);
    });
    return;
  }
  const int64_t chunk = (inner + chunks - 1) / chunks;
  parallel_for(0, outer * chunks, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t item = lo; item < hi; ++item) {
      const int64_t o = item / chunks, first = (item % chunks) * chunk, last = std::min(inner, first + chunk);
      for (int64_t k = 0; k < along && first < last; ++k) {
        const int64_t start = (o * along + k) * inner;
        for_each_position(index, dim, a, b, start + first, start + last, f);
      }
    }
  });
}

void scatter_gather_kernel(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const Tensor& out,
                           const Scalar& value, ScatterMode mode) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), "scatter_gather", [&] {
    scalar_t* s = static_cast<scalar_t*>(self.data_ptr());
    switch (mode) {
      case ScatterMode::Gather: {
        scalar_t* o = out.data_ptr<scalar_t>();  // contiguous, index's shape
        for_each_position_parallel(index, dim, self, Tensor(), false,
                                   [&](int64_t off, int64_t, int64_t lin) { o[lin] = s[off]; });
        return;
      }
      case ScatterMode::Scatter: {
        const scalar_t* v = static_cast<const scalar_t*>(src.data_ptr());
        for_each_position_parallel(index, dim, self, src, true,
                                   [&](int64_t off, int64_t off_src, int64_t) { s[off] = v[off_src]; });
        return;
      }
      case ScatterMode::ScatterAdd: {
        const scalar_t* v = static_cast<const scalar_t*>(src.data_ptr());
        for_each_position_parallel(index, dim, self, src, true,
                                   [&](int64_t off, int64_t off_src, int64_t) { s[off] = s[off] + v[off_src]; });
        return;
      }
      case ScatterMode::ScatterFill: {
        const scalar_t fill = value.to<scalar_t>();
        for_each_position_parallel(index, dim, self, Tensor(), true,
                                   [&](int64_t off, int64_t, int64_t) { s[off] = fill; });
        return;
      }
      case ScatterMode::ScatterMul: {
        const scalar_t* v = static_cast<const scalar_t*>(src.data_ptr());
        for_each_position_parallel(index, dim, self, src, true,
                                   [&](int64_t off, int64_t off_src, int64_t) { s[off] = multiply(s[off], v[off_src]); });
        return;
      }
      case ScatterMode::ScatterMax:
      case ScatterMode::ScatterMin: {
        // std::max/std::min's choice (self unless src is strictly past it),
        // except that a NaN from src always wins: PyTorch's rule.
        using acc_t = c10::opmath_t<scalar_t>;
        const scalar_t* v = static_cast<const scalar_t*>(src.data_ptr());
        const bool max = mode == ScatterMode::ScatterMax;
        for_each_position_parallel(index, dim, self, src, true, [&](int64_t off, int64_t off_src, int64_t) {
          const acc_t a = static_cast<acc_t>(s[off]), b = static_cast<acc_t>(v[off_src]);
          if (b != b || (max ? a < b : b < a)) s[off] = v[off_src];
        });
        return;
      }
    }
  });
}

// Two passes, as PyTorch: count, then write each hit's coordinates. The
// coordinates advance with the scan (the last one per element, the others
// once per row), so no element pays a division.
Tensor nonzero_kernel(const Tensor& self) {
  const int64_t nd = self.dim(), n = self.numel();
  const int64_t row = nd == 0 ? 1 : self.size(nd - 1);
  Tensor out;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), "nonzero", [&] {
    const scalar_t* p = static_cast<const scalar_t*>(self.data_ptr());
    auto hit = [](scalar_t v) { return static_cast<c10::opmath_t<scalar_t>>(v) != 0; };
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) count += hit(p[i]);
    out = at::empty({count, nd}, ScalarType::Long, self.device());
    if (count == 0 || nd == 0) return;
    int64_t* o = out.data_ptr<int64_t>();
    std::vector<int64_t> pos(nd, 0);  // the row's coordinates; pos[nd - 1] unused
    for (int64_t start = 0; start < n; start += row) {
      const scalar_t* r = p + start;
      for (int64_t j = 0; j < row; ++j) {
        if (!hit(r[j])) continue;
        for (int64_t d = 0; d < nd - 1; ++d) o[d] = pos[d];
        o[nd - 1] = j;
        o += nd;
      }
      for (int64_t d = nd - 2; d >= 0; --d) {
        if (++pos[d] < self.size(d)) break;
        pos[d] = 0;
      }
    }
  });
  return out;
}

// Rows of values written (added) into self's rows at index, in index order,
// on one thread: splitting the columns between two threads made index_add
// of 4096 x 256 floats 4.5 times slower on a 2-core machine, and PyTorch's
// own split is slower there too.
void index_put_rows_kernel(const Tensor& self, const Tensor& index, const Tensor& values, bool accumulate) {
  const int64_t m = index.numel(), len = self.size(1);
  const int64_t s0 = self.stride(0), s1 = self.stride(1);
  const int64_t* idx = index.data_ptr<int64_t>();
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), "index_put", [&] {
    scalar_t* dst = static_cast<scalar_t*>(self.data_ptr());
    const scalar_t* v = static_cast<const scalar_t*>(values.data_ptr());
    for (int64_t r = 0; r < m; ++r) {
      scalar_t* row = dst + idx[r] * s0;
      const scalar_t* vals = v + r * len;
      if (s1 == 1) {  // dense rows (embedding tables, index_add of matrices): a loop the compiler widens
        if (accumulate) {
          for (int64_t k = 0; k < len; ++k) row[k] = row[k] + vals[k];
        } else {
          std::copy(vals, vals + len, row);
        }
      } else if (accumulate) {
        for (int64_t k = 0; k < len; ++k) row[k * s1] = row[k * s1] + vals[k];
      } else {
        for (int64_t k = 0; k < len; ++k) row[k * s1] = vals[k];
      }
    }
  });
}

// One fold of index_reduce_ as its elementwise ops compute it (mul_, add_,
// maximum_, minimum_: a NaN wins); integers wrap, as two's complement does,
// without the signed overflow C++ leaves undefined; bools are and/or.
template <SliceFold F, typename T>
inline T fold_value(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return (F == SliceFold::Prod || F == SliceFold::Min) ? (a & b) : (a | b);
  } else if constexpr (F == SliceFold::Max || F == SliceFold::Min) {
    return extremum<T, F == SliceFold::Max>(a, b);
  } else if constexpr (std::is_integral_v<T>) {
    using W = std::conditional_t<sizeof(T) <= 4, uint32_t, uint64_t>;
    const W x = static_cast<W>(a), y = static_cast<W>(b);
    return static_cast<T>(F == SliceFold::Prod ? x * y : x + y);
  } else {
    using M = c10::opmath_t<T>;
    return static_cast<T>(F == SliceFold::Prod ? M(a) * M(b) : M(a) + M(b));
  }
}

// Work items are (outer coordinate, block of inner positions); each walks
// the slices in k's order, so a row named twice folds in index order.
template <SliceFold F, typename T>
void fold_slices(T* t, const T* s, const int64_t* rows, int64_t n, int64_t outer, int64_t size, int64_t inner,
                 bool include_self, T start) {
  const int64_t block = std::min<int64_t>(inner, 1024), blocks = (inner + block - 1) / block;
  parallel_for(0, outer * blocks, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n * block, 1)),
               [&](int64_t lo, int64_t hi) {
    for (int64_t item = lo; item < hi; ++item) {
      const int64_t o = item / blocks, j0 = (item % blocks) * block, j1 = std::min(inner, j0 + block);
      if (!include_self) {
        for (int64_t k = 0; k < n; ++k) {
          T* dst = t + (o * size + rows[k]) * inner;
          std::fill(dst + j0, dst + j1, start);
        }
      }
      for (int64_t k = 0; k < n; ++k) {
        T* __restrict dst = t + (o * size + rows[k]) * inner;
        const T* __restrict src = s + (o * n + k) * inner;
        for (int64_t j = j0; j < j1; ++j) dst[j] = fold_value<F>(dst[j], src[j]);
      }
    }
  });
}

void index_reduce_slices_kernel(const Tensor& target, const Tensor& source, const int64_t* rows, int64_t n,
                                int64_t outer, int64_t inner, SliceFold fold, bool include_self,
                                const Scalar& identity) {
  const int64_t size = target.numel() / std::max<int64_t>(outer * inner, 1);
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(target.scalar_type(), "index_reduce", [&] {
    scalar_t* t = target.data_ptr<scalar_t>();
    const scalar_t* s = source.data_ptr<scalar_t>();
    const scalar_t start = identity.to<scalar_t>();
    switch (fold) {
      case SliceFold::Prod: return fold_slices<SliceFold::Prod>(t, s, rows, n, outer, size, inner, include_self, start);
      case SliceFold::Sum: return fold_slices<SliceFold::Sum>(t, s, rows, n, outer, size, inner, include_self, start);
      case SliceFold::Max: return fold_slices<SliceFold::Max>(t, s, rows, n, outer, size, inner, include_self, start);
      case SliceFold::Min: return fold_slices<SliceFold::Min>(t, s, rows, n, outer, size, inner, include_self, start);
    }
  });
}
}  // namespace

REGISTER_CPU_DISPATCH(index_select_stub, &index_select_kernel);
REGISTER_CPU_DISPATCH(scatter_gather_stub, &scatter_gather_kernel);
REGISTER_CPU_DISPATCH(nonzero_stub, &nonzero_kernel);
REGISTER_CPU_DISPATCH(index_put_rows_stub, &index_put_rows_kernel);
REGISTER_CPU_DISPATCH(index_reduce_slices_stub, &index_reduce_slices_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
