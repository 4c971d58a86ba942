#pragma once
// max_pool2d's CPU loop (cpu/PoolingKernel.cpp): values and flat indices
// [planes, oh, ow] from a contiguous float or double x [planes, h, w]; null
// indices for the values alone. Plain pointers, so the widest capability's
// copy runs it.
#include <ATen/native/DispatchStub.h>
#include <c10/core/ScalarType.h>

#include <cstdint>

namespace at::native {

struct PoolWindow {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
};

using max_pool2d_loop_fn = void (*)(c10::ScalarType type, const void* x, void* values, int64_t* indices,
                                    int64_t planes, int64_t h, int64_t w, int64_t oh, int64_t ow,
                                    const PoolWindow& win);
DECLARE_DISPATCH(max_pool2d_loop_fn, max_pool2d_loop_stub);

}  // namespace at::native
