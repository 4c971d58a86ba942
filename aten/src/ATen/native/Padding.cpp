// Reflect, replicate and circular padding (F.pad's modes other than
// "constant"): PyTorch's reflection_pad{1,2,3}d, replication_pad{1,2,3}d and
// _pad_circular, with one kernel for all. Each padded dim has a map from an
// output position to the input position it reads; a negative pad crops. On
// the CPU the output is one gather pass, each row's interior a memcpy
// (any dtype: only bytes move), and the gradient one scatter-add pass per
// plane; elsewhere the same maps drive index_select and index_add.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace at::native {
namespace {

enum class PadMode : int64_t { Reflect = 0, Replicate = 1, Circular = 2 };

const char* mode_name(PadMode mode) {
  return mode == PadMode::Reflect ? "reflect" : mode == PadMode::Replicate ? "replicate" : "circular";
}

// The output position o of a dim of `size` padded by (lo, hi) reads input position map(o).
int64_t source(int64_t o, int64_t size, int64_t lo, int64_t hi, PadMode mode) {
  if (mode == PadMode::Circular) {
    // As PyTorch: a negative pad crops first, and the rest wraps around what is kept.
    const int64_t start = std::max<int64_t>(-lo, 0);
    const int64_t kept = size + std::min<int64_t>(lo, 0) + std::min<int64_t>(hi, 0);
    const int64_t i = o - std::max<int64_t>(lo, 0);
    return start + ((i % kept) + kept) % kept;
  }
  const int64_t i = o - lo;
  if (mode == PadMode::Replicate) return std::clamp<int64_t>(i, 0, size - 1);
  const int64_t period = 2 * (size - 1);
  if (period == 0) return 0;
  const int64_t r = ((i % period) + period) % period;
  return r >= size ? period - r : r;
}

// The padded dims as three (outermost first; missing ones of size 1), the product of the others, and maps.
struct PadPlan {
  int64_t npad = 0, outer = 1;
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, lo{0, 0, 0}, hi{0, 0, 0};
  std::array<std::vector<int64_t>, 3> map;
  std::vector<int64_t> out_shape;
};

PadPlan plan(IntArrayRef sizes, IntArrayRef pad, PadMode mode) {
  PadPlan p;
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  TORCH_CHECK(pad.size() % 2 == 0 && !pad.empty() && pad.size() <= 6,
              "Padding length must be divisible by 2 and at most 6 for ", mode_name(mode), " padding, got ",
              pad.size());
  p.npad = static_cast<int64_t>(pad.size()) / 2;
  TORCH_CHECK(ndim == p.npad + 1 || ndim == p.npad + 2, "Invalid padding size, expected 1 or 2 non-padded ",
              "dimensions, which would be equivalent to padding of length ", (ndim - 1) * 2, " or ", (ndim - 2) * 2,
              " respectively but got ", pad.size());
  p.out_shape.assign(sizes.begin(), sizes.end());
  for (int64_t d = 0; d < ndim - p.npad; ++d) p.outer *= sizes[d];
  for (int64_t i = 0; i < p.npad; ++i) {
    const int64_t d = ndim - 1 - i, slot = 2 - i, size = sizes[d];
    const int64_t lo = pad[2 * i], hi = pad[2 * i + 1];
    if (mode == PadMode::Reflect) {
      TORCH_CHECK(lo < size && hi < size, "Argument #4: Padding size should be less than the corresponding input ",
                  "dimension, but got: padding (", lo, ", ", hi, ") at dimension ", d, " of input ", sizes);
    } else if (mode == PadMode::Circular) {
      TORCH_CHECK(lo <= size && hi <= size, "Padding value causes wrapping around more than once.");
    }
    const int64_t out = size + lo + hi;
    TORCH_CHECK(mode != PadMode::Circular || out >= 0, "Negative padding value is resulting in an empty dimension");
    TORCH_CHECK(out >= 0, "input (", sizes, ") is too small for ", mode_name(mode), " padding (", lo, ", ", hi,
                ") at dimension ", d, ": the output size would be ", out);
    TORCH_CHECK(mode != PadMode::Circular || out == 0 || size + std::min<int64_t>(lo, 0) + std::min<int64_t>(hi, 0) > 0,
                "Negative padding value is resulting in an empty dimension.");
    TORCH_CHECK(size > 0 || out == 0, "padding size is expected to be less than the input dimension, but the ",
                "input has size 0 at dimension ", d, " and the padding (", lo, ", ", hi, ") would fill it");
    p.in[slot] = size;
    p.out[slot] = out;
    p.lo[slot] = lo;
    p.hi[slot] = hi;
    p.out_shape[d] = out;
  }
  for (int s = 0; s < 3; ++s) {
    p.map[s].resize(p.out[s]);
    for (int64_t o = 0; o < p.out[s]; ++o) p.map[s][o] = source(o, p.in[s], p.lo[s], p.hi[s], mode);
  }
  return p;
}

// One element of `Bytes` bytes: the gather copies elements whatever their dtype.
template <size_t Bytes>
struct alignas(Bytes <= 8 ? Bytes : 8) Element {
  unsigned char b[Bytes];
};

template <typename T>
void gather(const PadPlan& p, const T* in, T* out) {
  const int64_t rows = p.outer * p.out[0] * p.out[1], in_w = p.in[2], out_w = p.out[2], lo = p.lo[2];
  // Row positions [first, last) read the input row in order: one memcpy.
  const int64_t first = std::clamp<int64_t>(lo, 0, out_w), last = std::clamp<int64_t>(lo + in_w, first, out_w);
  const std::vector<int64_t>& cols = p.map[2];
  parallel_for(0, rows, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, out_w)), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t oh = r % p.out[1], od = (r / p.out[1]) % p.out[0], b = r / (p.out[1] * p.out[0]);
      const T* src = in + ((b * p.in[0] + p.map[0][od]) * p.in[1] + p.map[1][oh]) * in_w;
      T* dst = out + r * out_w;
      for (int64_t j = 0; j < first; ++j) dst[j] = src[cols[j]];
      if (last > first) std::memcpy(dst + first, src + (first - lo), (last - first) * sizeof(T));
      for (int64_t j = last; j < out_w; ++j) dst[j] = src[cols[j]];
    }
  });
}

Tensor pad_cpu(const Tensor& self, const PadPlan& p) {
  const Tensor x = self.contiguous();
  Tensor out = at::empty(p.out_shape, x.options());
  if (out.numel() == 0) return out;
  const void* in = x.data_ptr();
  void* o = out.data_ptr();
  switch (x.element_size()) {
    case 1: gather(p, static_cast<const Element<1>*>(in), static_cast<Element<1>*>(o)); break;
    case 2: gather(p, static_cast<const Element<2>*>(in), static_cast<Element<2>*>(o)); break;
    case 4: gather(p, static_cast<const Element<4>*>(in), static_cast<Element<4>*>(o)); break;
    case 8: gather(p, static_cast<const Element<8>*>(in), static_cast<Element<8>*>(o)); break;
    case 16: gather(p, static_cast<const Element<16>*>(in), static_cast<Element<16>*>(o)); break;
    default: TORCH_CHECK(false, "padding: no kernel for elements of ", x.element_size(), " bytes");
  }
  return out;
}

Tensor map_tensor(const std::vector<int64_t>& map, const Device& device) {
  Tensor t = at::empty({static_cast<int64_t>(map.size())}, TensorOptions().dtype(kLong));
  if (!map.empty()) std::memcpy(t.data_ptr<int64_t>(), map.data(), map.size() * sizeof(int64_t));
  return t.to(device, std::nullopt);
}

// Off the CPU: an index_select per padded dim with the same maps.
Tensor pad_indexed(const Tensor& self, const PadPlan& p) {
  Tensor result = self;
  for (int64_t i = 0; i < p.npad; ++i) {
    const int64_t d = self.dim() - 1 - i;
    result = result.index_select(d, map_tensor(p.map[2 - i], self.device()));
  }
  return result;
}

Tensor pad(const Tensor& self, IntArrayRef pad, PadMode mode) {
  const PadPlan p = plan(self.sizes(), pad, mode);
  return self.is_cpu() ? pad_cpu(self, p) : pad_indexed(self, p);
}

// PyTorch's checks of reflection_pad*d and replication_pad*d, in its order and words.
void check_input(const Tensor& self, IntArrayRef padding, size_t expected) {
  TORCH_CHECK(padding.size() == expected, "padding size is expected to be ", expected, ", but got: ", padding.size());
  const int64_t npad = static_cast<int64_t>(expected) / 2, ndim = self.dim();
  bool ok = ndim == npad + 1 || ndim == npad + 2;
  for (int64_t d = ndim == npad + 2 ? 1 : 0; ok && d < ndim; ++d) ok = self.size(d) != 0;
  TORCH_CHECK(ok, "Expected ", npad + 1, "D or ", npad + 2, "D (batch mode) tensor with possibly 0 batch size and ",
              "other non-zero dimensions for input, but got: ", self.sizes());
}

// The shapes checked (PyTorch's meta function), then the kernel's dtype.
Tensor pad_checked(const Tensor& self, IntArrayRef padding, size_t expected, PadMode mode, const char* op) {
  check_input(self, padding, expected);
  const PadPlan p = plan(self.sizes(), padding, mode);
  TORCH_CHECK_NOT_IMPLEMENTED(self.scalar_type() != kBool, "\"", op, "\" not implemented for 'Bool'");
  return self.is_cpu() ? pad_cpu(self, p) : pad_indexed(self, p);
}

}  // namespace

Tensor reflection_pad1d(const Tensor& self, IntArrayRef padding) {
  return pad_checked(self, padding, 2, PadMode::Reflect, "reflection_pad1d");
}
Tensor reflection_pad2d(const Tensor& self, IntArrayRef padding) {
  return pad_checked(self, padding, 4, PadMode::Reflect, "reflection_pad2d");
}
Tensor reflection_pad3d(const Tensor& self, IntArrayRef padding) {
  return pad_checked(self, padding, 6, PadMode::Reflect, "reflection_pad3d");
}
Tensor replication_pad1d(const Tensor& self, IntArrayRef padding) {
  return pad_checked(self, padding, 2, PadMode::Replicate, "replication_pad1d");
}
Tensor replication_pad2d(const Tensor& self, IntArrayRef padding) {
  return pad_checked(self, padding, 4, PadMode::Replicate, "replication_pad2d");
}
Tensor replication_pad3d(const Tensor& self, IntArrayRef padding) {
  return pad_checked(self, padding, 6, PadMode::Replicate, "replication_pad3d");
}
Tensor _pad_circular(const Tensor& self, IntArrayRef pad) { return native::pad(self, pad, PadMode::Circular); }

// The gradient of a padding: each output position's gradient added to the input position it read.
Tensor _pad_backward(const Tensor& grad_output, IntArrayRef self_sizes, IntArrayRef pad, int64_t mode) {
  TORCH_CHECK(mode >= 0 && mode <= 2, "_pad_backward: mode must be 0 (reflect), 1 (replicate) or 2 (circular)");
  const PadPlan p = plan(self_sizes, pad, static_cast<PadMode>(mode));
  const Tensor& grad = grad_output;
  TORCH_CHECK(grad.sizes() == IntArrayRef(p.out_shape), "_pad_backward: the gradient has shape ", grad.sizes(),
              ", the padded output ", IntArrayRef(p.out_shape));
  if (!grad.is_cpu()) {
    Tensor g = grad;
    for (int64_t i = p.npad - 1; i >= 0; --i) {
      const int64_t d = grad.dim() - 1 - i;
      std::vector<int64_t> shape(g.sizes().begin(), g.sizes().end());
      shape[d] = self_sizes[d];
      g = at::zeros(shape, g.options()).index_add_(d, map_tensor(p.map[2 - i], grad.device()), g);
    }
    return g;
  }
  const Tensor go = grad.contiguous();
  Tensor gi = at::zeros(self_sizes, go.options());
  if (go.numel() == 0 || gi.numel() == 0) return gi;
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(go.scalar_type(), "_pad_backward", [&] {
    using M = c10::opmath_t<scalar_t>;
    const scalar_t* src = go.data_ptr<scalar_t>();
    scalar_t* dst = gi.data_ptr<scalar_t>();
    const int64_t in_plane = p.in[0] * p.in[1] * p.in[2], out_plane = p.out[0] * p.out[1] * p.out[2];
    // Planes are independent: each thread adds into its own.
    parallel_for(0, p.outer, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, out_plane)), [&](int64_t b0,
                                                                                                  int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        const scalar_t* g = src + b * out_plane;
        scalar_t* plane = dst + b * in_plane;
        for (int64_t od = 0; od < p.out[0]; ++od)
          for (int64_t oh = 0; oh < p.out[1]; ++oh) {
            scalar_t* row = plane + (p.map[0][od] * p.in[1] + p.map[1][oh]) * p.in[2];
            const scalar_t* grow = g + (od * p.out[1] + oh) * p.out[2];
            for (int64_t j = 0; j < p.out[2]; ++j) {
              scalar_t& t = row[p.map[2][j]];
              t = static_cast<scalar_t>(static_cast<M>(t) + static_cast<M>(grow[j]));
            }
          }
      }
    });
  });
  return gi;
}

}  // namespace at::native
