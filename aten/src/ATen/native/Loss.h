#pragma once
// The CPU loop of smooth_l1_loss, huber_loss and mse_loss (cpu/LossKernel.cpp): the
// losses of x[0..n) against y[0..n) (dense, dtype `type`) written to out, or,
// with out null, their sum in double. Plain pointers, so the widest
// capability's copy runs it.
#include <ATen/native/DispatchStub.h>
#include <c10/core/ScalarType.h>

#include <cstdint>

namespace at::native {

enum class PointwiseLoss { SmoothL1, Huber, Squared };  // Squared ignores width

using piecewise_loss_fn = double (*)(c10::ScalarType type, PointwiseLoss kind, const void* x, const void* y,
                                     int64_t n, double width, void* out);
DECLARE_DISPATCH(piecewise_loss_fn, piecewise_loss_stub);

}  // namespace at::native
