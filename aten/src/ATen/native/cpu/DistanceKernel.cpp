// pdist's loops (native/Distance.h). The forward runs over x transposed,
// xt [m, n]: for row i and each column k, the pairs (i, j > i) are a
// contiguous run of xt[k], so a pair's sum over k builds up across vector
// lanes of j, in k's order (the same sum, rounded the same, as one pair at
// a time). The backward runs over x's rows, lanes across columns (PyTorch's
// scheme): each pair's share of a block of columns is added to row i's
// accumulator and taken from row j; with few columns, over xt as the
// forward (lanes across pairs).
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/Distance.h>
#include <ATen/native/cpu/Select.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

enum class Norm { Zero, One, Two, Inf, General };

Norm norm_of(double p) {
  if (p == 0) return Norm::Zero;
  if (p == 1) return Norm::One;
  if (p == 2) return Norm::Two;
  if (std::isinf(p)) return Norm::Inf;
  return Norm::General;
}

template <typename T, Norm N>
void pdist_rows(const T* xt, int64_t n, int64_t m, T p, T* out, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    const int64_t pairs = n - 1 - i;
    T* acc = out + i * (2 * n - i - 1) / 2;  // row i's pairs (i, i + 1 ..)
    std::fill(acc, acc + pairs, T(0));
    for (int64_t k = 0; k < m; ++k) {
      const T a = xt[k * n + i];
      const T* b = xt + k * n + i + 1;
      for (int64_t j = 0; j < pairs; ++j) {
        const T d = a - b[j];
        const T ad = d < T(0) ? -d : d;
        // A NaN difference makes the count NaN, as PyTorch's min(ceil(|d|), 1).
        if constexpr (N == Norm::Zero) acc[j] += select_bits(ad != ad, ad, static_cast<T>(d != T(0)));
        if constexpr (N == Norm::One) acc[j] += ad;
        if constexpr (N == Norm::Two) acc[j] += d * d;
        if constexpr (N == Norm::Inf) acc[j] = (ad > acc[j] || ad != ad) ? ad : acc[j];
        if constexpr (N == Norm::General) acc[j] += std::pow(ad, p);
      }
    }
    if constexpr (N == Norm::Two) {
      for (int64_t j = 0; j < pairs; ++j) acc[j] = std::sqrt(acc[j]);
    }
    if constexpr (N == Norm::General) {
      for (int64_t j = 0; j < pairs; ++j) acc[j] = std::pow(acc[j], T(1) / p);
    }
  }
}

template <typename T>
void pdist_typed(const T* xt, int64_t n, int64_t m, double p, T* out) {
  const Norm norm = norm_of(p);
  // Row i holds n - 1 - i pairs, so equal runs of rows are unequal work:
  // chunks of rows with equal numbers of pairs (each ~32k pair-columns, at
  // most 256 chunks), which threads then split evenly.
  const int64_t total = n * (n - 1) / 2;
  const int64_t chunks = std::clamp<int64_t>(total * m / 32768, 1, 256);
  std::vector<int64_t> first_row(static_cast<size_t>(chunks + 1), n);
  first_row[0] = 0;
  for (int64_t c = 1, i = 0; c < chunks; ++c) {
    const int64_t target = total * c / chunks;  // pairs before the chunk's first row
    while (i < n && i * (2 * n - i - 1) / 2 < target) ++i;
    first_row[c] = i;
  }
  at::parallel_for(0, chunks, 1, [&](int64_t chunk_begin, int64_t chunk_end) {
    const T pt = static_cast<T>(p);
    const int64_t begin = first_row[chunk_begin], end = first_row[chunk_end];
    switch (norm) {
      case Norm::Zero: return pdist_rows<T, Norm::Zero>(xt, n, m, pt, out, begin, end);
      case Norm::One: return pdist_rows<T, Norm::One>(xt, n, m, pt, out, begin, end);
      case Norm::Two: return pdist_rows<T, Norm::Two>(xt, n, m, pt, out, begin, end);
      case Norm::Inf: return pdist_rows<T, Norm::Inf>(xt, n, m, pt, out, begin, end);
      case Norm::General: return pdist_rows<T, Norm::General>(xt, n, m, pt, out, begin, end);
    }
  });
}

void pdist_kernel(ScalarType type, const void* xt, int64_t n, int64_t m, double p, void* out) {
  AT_DISPATCH_FLOATING_TYPES(type, "pdist", [&] {
    pdist_typed(static_cast<const scalar_t*>(xt), n, m, p, static_cast<scalar_t*>(out));
  });
}

// d dist / d x_i[k] for one pair times its gradient g, PyTorch's formulas,
// with `scale` as pdist_grad_column's.
template <typename T, Norm N>
inline T pair_grad(T d, T dist, T scale, T p) {
  // sign(NaN) is NaN, as PyTorch's vectorised sign gives it.
  const T sign = select_bits(d != d, d, static_cast<T>((d > T(0)) - (d < T(0))));
  const T ad = d < T(0) ? -d : d;
  if constexpr (N == Norm::Zero) return T(0);
  if constexpr (N == Norm::One) return sign * scale;
  if constexpr (N == Norm::Two) return d * scale;
  if constexpr (N == Norm::Inf) return sign * static_cast<T>(ad == dist) * scale;
  if constexpr (N == Norm::General) {
    if (dist == T(0)) return T(0);
    if (p < T(2)) {
      if (d == T(0) && p < T(1)) return T(0);
      return sign * std::pow(ad, p - T(1)) * scale / std::pow(dist, p - T(1));
    }
    return d * std::pow(ad, p - T(2)) * scale / std::pow(dist, p - T(1));
  }
}

// Column k of the gradient (gk, [n]): each pair's share added to row i and
// taken from row j. Columns are independent, so threads split them. scale:
// each pair's g / dist (0 where dist is 0) for p = 2, its g otherwise.
template <typename T, Norm N>
void pdist_grad_column(const T* xk, const T* scale, const T* dist, int64_t n, T p, T* gk, T* share) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t pairs = n - 1 - i;
    const T a = xk[i];
    const T* b = xk + i + 1;
    for (int64_t j = 0; j < pairs; ++j) share[j] = pair_grad<T, N>(a - b[j], dist[j], scale[j], p);
    // Row i's total in eight partial sums (a single chain would wait on each add).
    T partial[8] = {};
    T* rest = gk + i + 1;
    int64_t j = 0;
    for (; j + 8 <= pairs; j += 8) {
      for (int l = 0; l < 8; ++l) {
        partial[l] += share[j + l];
        rest[j + l] -= share[j + l];
      }
    }
    for (; j < pairs; ++j) {
      partial[0] += share[j];
      rest[j] -= share[j];
    }
    gk[i] += ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
             ((partial[4] + partial[5]) + (partial[6] + partial[7]));
    scale += pairs;
    dist += pairs;
  }
}

// Columns [k0, k1) of the gradient over x's rows (x, gx [n, m]): for each
// row i, its pairs' shares summed in acc while each is taken from row j.
// Threads own disjoint column blocks, so no two write the same element.
constexpr int64_t kColumnBlock = 256;
template <typename T, Norm N>
void pdist_grad_rows(const T* x, const T* scale, const T* dist, int64_t n, int64_t m, T p, T* gx, int64_t k0,
                     int64_t k1) {
  T acc[kColumnBlock];
  const int64_t w = k1 - k0;
  int64_t q = 0;  // pair (i, j)'s index in the upper triangle's row order
  for (int64_t i = 0; i < n; ++i) {
    const T* __restrict xi = x + i * m + k0;
    std::fill(acc, acc + w, T(0));
    for (int64_t j = i + 1; j < n; ++j, ++q) {
      const T sc = scale[q], ds = dist[q];
      const T* __restrict xj = x + j * m + k0;
      T* __restrict gj = gx + j * m + k0;
      for (int64_t k = 0; k < w; ++k) {
        const T share = pair_grad<T, N>(xi[k] - xj[k], ds, sc, p);
        acc[k] += share;
        gj[k] -= share;
      }
    }
    T* gi = gx + i * m + k0;
    for (int64_t k = 0; k < w; ++k) gi[k] += acc[k];
  }
}

template <typename T, Norm N>
void pdist_backward_norm(const T* x, const T* scale, const T* dist, int64_t n, int64_t m, T p, T* gx) {
  // From 16 columns on, lanes across columns fill the vectors and each pair's
  // scale and dist are read once per block; below, lanes across pairs.
  if (m >= 16) {
    // Blocks of at least 16 columns (a cache line of floats apart, so
    // threads do not share lines of gx), at most kColumnBlock.
    at::parallel_for(0, m, 16, [&](int64_t begin, int64_t end) {
      for (int64_t k0 = begin; k0 < end; k0 += kColumnBlock) {
        pdist_grad_rows<T, N>(x, scale, dist, n, m, p, gx, k0, std::min(end, k0 + kColumnBlock));
      }
    });
    return;
  }
  std::vector<T> xt(static_cast<size_t>(n * m)), gt(static_cast<size_t>(n * m), T(0));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < m; ++k) xt[k * n + i] = x[i * m + k];
  }
  at::parallel_for(0, m, 1, [&](int64_t begin, int64_t end) {
    std::vector<T> share(static_cast<size_t>(std::max<int64_t>(n, 1)));
    for (int64_t k = begin; k < end; ++k) {
      pdist_grad_column<T, N>(xt.data() + k * n, scale, dist, n, p, gt.data() + k * n, share.data());
    }
  });
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < m; ++k) gx[i * m + k] = gt[k * n + i];
  }
}

template <typename T>
void pdist_backward_typed(const T* x, const T* g, const T* dist, int64_t n, int64_t m, double p, T* gx) {
  const Norm norm = norm_of(p);
  if (norm == Norm::Zero) return;  // the count of nonzeros is flat
  const int64_t pairs = n * (n - 1) / 2;
  std::vector<T> two_scale;
  const T* scale = g;
  if (norm == Norm::Two) {
    two_scale.resize(static_cast<size_t>(pairs));
    for (int64_t q = 0; q < pairs; ++q) two_scale[q] = select_bits(dist[q] == T(0), T(0), T(g[q] / dist[q]));
    scale = two_scale.data();
  }
  const T pt = static_cast<T>(p);
  switch (norm) {
    case Norm::Zero: break;
    case Norm::One: pdist_backward_norm<T, Norm::One>(x, scale, dist, n, m, pt, gx); break;
    case Norm::Two: pdist_backward_norm<T, Norm::Two>(x, scale, dist, n, m, pt, gx); break;
    case Norm::Inf: pdist_backward_norm<T, Norm::Inf>(x, scale, dist, n, m, pt, gx); break;
    case Norm::General: pdist_backward_norm<T, Norm::General>(x, scale, dist, n, m, pt, gx); break;
  }
}

void pdist_backward_kernel(ScalarType type, const void* x, const void* g, const void* dist, int64_t n, int64_t m,
                           double p, void* gx) {
  AT_DISPATCH_FLOATING_TYPES(type, "pdist_backward", [&] {
    pdist_backward_typed(static_cast<const scalar_t*>(x), static_cast<const scalar_t*>(g),
                         static_cast<const scalar_t*>(dist), n, m, p, static_cast<scalar_t*>(gx));
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(pdist_stub, &pdist_kernel);
REGISTER_CPU_DISPATCH(pdist_backward_stub, &pdist_backward_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
