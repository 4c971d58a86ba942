#pragma once
// The max pools' CPU loops, plain pointers so that the widest capability's
// copy runs them:
// - max_pool2d (cpu/PoolingKernel.cpp): values and flat indices [planes, oh,
//   ow] from a contiguous float or double x [planes, h, w]; null indices for
//   the values alone.
// - max_pool3d (cpu/MaxPool3dKernel.cpp): values and flat indices [planes,
//   od, oh, ow] from a contiguous x [planes, d, h, w] of any real dtype;
//   indices must not be null.
// - the max pools' gradient (cpu/MaxPoolBackwardKernel.cpp): each plane of
//   a float or double grad_input zeroed, then each output's gradient added
//   at the flat index its maximum came from (-1: nowhere); returns false
//   (writing nothing more) when an index lies outside the plane.
// - max_unpool2d/3d (cpu/MaxUnpoolKernel.cpp): each plane of a floating out
//   zeroed, then each value written at its index; returns false and sets
//   *bad to the first index outside the plane.
#include <ATen/native/DispatchStub.h>
#include <c10/core/ScalarType.h>

#include <cstdint>

namespace at::native {

// Outputs along one dim of a max pool: rounded toward -inf (PyTorch's
// div_rtn: a window larger than the input gives 0, not 1), and with
// ceil_mode a last window that would start in the padding dropped.
inline int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  const int64_t eff = dil * (k - 1) + 1;
  const int64_t span = in + 2 * pad - eff + (ceil_mode ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

struct PoolWindow {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
};

using max_pool2d_loop_fn = void (*)(c10::ScalarType type, const void* x, void* values, int64_t* indices,
                                    int64_t planes, int64_t h, int64_t w, int64_t oh, int64_t ow,
                                    const PoolWindow& win);
DECLARE_DISPATCH(max_pool2d_loop_fn, max_pool2d_loop_stub);

struct Pool3dWindow {
  int64_t k[3], s[3], p[3], d[3];  // depth, height, width
};

using max_pool3d_loop_fn = void (*)(c10::ScalarType type, const void* x, void* values, int64_t* indices,
                                    int64_t planes, const int64_t in[3], const int64_t out[3],
                                    const Pool3dWindow& win);
DECLARE_DISPATCH(max_pool3d_loop_fn, max_pool3d_loop_stub);

using max_pool_backward_fn = bool (*)(c10::ScalarType type, const void* grad, const int64_t* indices,
                                      void* grad_input, int64_t planes, int64_t in_plane, int64_t out_plane);
DECLARE_DISPATCH(max_pool_backward_fn, max_pool_backward_stub);

using max_unpool_fn = bool (*)(c10::ScalarType type, const void* values, const int64_t* indices, void* out,
                               int64_t planes, int64_t in_plane, int64_t out_plane, int64_t* bad);
DECLARE_DISPATCH(max_unpool_fn, max_unpool_stub);

}  // namespace at::native
