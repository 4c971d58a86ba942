// adaptive_max_pool2d and adaptive_max_pool3d: the largest value of each
// bin and its flat index in the input plane (the backward scatters into it,
// FunctionsManual's max_pool_backward). Bin o of T over a dim of L covers
// [floor(o L / T), ceil((o + 1) L / T)). One pass over CPU tensors, a thread
// per block of planes; a NaN wins its bin, as in PyTorch's kernel.
// torch.nn.functional sends other devices through its composition.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

namespace at::native {
namespace {

int64_t bin_start(int64_t o, int64_t out, int64_t in) { return (o / out) * in + ((o % out) * in) / out; }
int64_t bin_end(int64_t o, int64_t out, int64_t in) { return 1 + ((o + 1) * in - 1) / out; }

template <typename T>
void adaptive_max_loop(const T* in, T* out, int64_t* indices, int64_t planes, const std::array<int64_t, 3>& isz,
                       const std::array<int64_t, 3>& osz) {
  using M = c10::opmath_t<T>;
  const int64_t iplane = isz[0] * isz[1] * isz[2], oplane = osz[0] * osz[1] * osz[2];
  // Each dim's bins, once: [start, end) per output position.
  std::array<std::vector<int64_t>, 3> lo, hi;
  for (int s = 0; s < 3; ++s)
    for (int64_t o = 0; o < osz[s]; ++o) {
      lo[s].push_back(bin_start(o, osz[s], isz[s]));
      hi[s].push_back(bin_end(o, osz[s], isz[s]));
    }
  parallel_for(0, planes, std::max<int64_t>(1, 16384 / std::max<int64_t>(1, iplane)), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const T* x = in + p * iplane;
      T* y = out + p * oplane;
      int64_t* k = indices + p * oplane;
      for (int64_t od = 0; od < osz[0]; ++od) {
        const int64_t d0 = lo[0][od], d1 = hi[0][od];
        for (int64_t oh = 0; oh < osz[1]; ++oh) {
          const int64_t h0 = lo[1][oh], h1 = hi[1][oh];
          for (int64_t ow = 0; ow < osz[2]; ++ow) {
            const int64_t w0 = lo[2][ow], w1 = hi[2][ow];
            M best = -std::numeric_limits<M>::infinity();
            int64_t arg = (d0 * isz[1] + h0) * isz[2] + w0;
            for (int64_t d = d0; d < d1; ++d)
              for (int64_t h = h0; h < h1; ++h) {
                const int64_t row = (d * isz[1] + h) * isz[2];
                for (int64_t w = w0; w < w1; ++w) {
                  const M v = static_cast<M>(x[row + w]);
                  if (v > best || std::isnan(v)) {
                    best = v;
                    arg = row + w;
                  }
                }
              }
            const int64_t o = (od * osz[1] + oh) * osz[2] + ow;
            y[o] = static_cast<T>(best);
            k[o] = arg;
          }
        }
      }
    }
  });
}

std::tuple<Tensor, Tensor> adaptive_max_pool(const Tensor& self, IntArrayRef output_size, int64_t nd,
                                             const char* name) {
  TORCH_CHECK(static_cast<int64_t>(output_size.size()) == nd, name, "(): internal error: output_size.size() must be ",
              nd);
  const int64_t ndim = self.dim();
  TORCH_CHECK(ndim == nd + 1 || ndim == nd + 2, name, "(): Expected ", nd + 1, "D or ", nd + 2,
              "D tensor, but got: ", self.sizes());
  for (int64_t d = 1; d < ndim; ++d) {
    TORCH_CHECK(self.size(d) != 0, name, "(): Expected input to have non-zero size for non-batch dimensions, but ",
                "input has sizes ", self.sizes(), " with dimension ", d, " being empty");
  }
  for (int64_t s : output_size) TORCH_CHECK(s >= 0, name, "(): output_size must be non-negative, but got ", output_size);
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"", name, "\" not implemented for '", self.scalar_type(),
                              "'");
  TORCH_CHECK(self.is_cpu(), name, "(): this kernel runs on the CPU; torch.nn.functional composes it elsewhere");
  std::array<int64_t, 3> isz{1, 1, 1}, osz{1, 1, 1};
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end() - nd);
  for (int64_t i = 0; i < nd; ++i) {
    isz[3 - nd + i] = self.size(ndim - nd + i);
    osz[3 - nd + i] = output_size[i];
    shape.push_back(output_size[i]);
  }
  int64_t planes = 1;
  for (int64_t d = 0; d < ndim - nd; ++d) planes *= self.size(d);
  const Tensor x = self.contiguous();
  Tensor values = at::empty(shape, x.options());
  Tensor indices = at::empty(shape, x.options().dtype(kLong));
  if (values.numel() == 0) return {values, indices};
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(x.scalar_type(), name, [&] {
    adaptive_max_loop(x.data_ptr<scalar_t>(), values.data_ptr<scalar_t>(), indices.data_ptr<int64_t>(), planes, isz,
                      osz);
  });
  return {values, indices};
}

}  // namespace

std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntArrayRef output_size) {
  return adaptive_max_pool(self, output_size, 2, "adaptive_max_pool2d");
}

std::tuple<Tensor, Tensor> adaptive_max_pool3d(const Tensor& self, IntArrayRef output_size) {
  return adaptive_max_pool(self, output_size, 3, "adaptive_max_pool3d");
}

}  // namespace at::native
