#pragma once
// The CPU loop of smooth_l1_loss, huber_loss and mse_loss (cpu/LossKernel.cpp): the
// losses of x[0..n) against y[0..n) (dense, dtype `type`) written to out, or,
// with out null, their sum in double. Plain pointers, so the widest
// capability's copy runs it.
#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>
#include <c10/core/ScalarType.h>

#include <cstdint>

namespace at::native {

enum class PointwiseLoss { SmoothL1, Huber, Squared };  // Squared ignores width

using piecewise_loss_fn = double (*)(c10::ScalarType type, PointwiseLoss kind, const void* x, const void* y,
                                     int64_t n, double width, void* out);
DECLARE_DISPATCH(piecewise_loss_fn, piecewise_loss_stub);

// The gradient of smooth_l1 (width > 0) or huber with respect to x for a
// reduced loss: out[i] = scale * slope(x[i] - y[i]), scale being the
// incoming gradient times 1/N under mean. Squared is not taken here.
using piecewise_loss_grad_fn = void (*)(c10::ScalarType type, PointwiseLoss kind, const void* x, const void* y,
                                        int64_t n, double width, double scale, void* out);
DECLARE_DISPATCH(piecewise_loss_grad_fn, piecewise_loss_grad_stub);

// multilabel_margin_loss's gradient with respect to self (Loss.cpp, beside
// the forward's loops; the forward has checked the arguments).
TORCH_API at::Tensor multilabel_margin_loss_backward(const at::Tensor& grad, const at::Tensor& self,
                                                     const at::Tensor& target, int64_t reduction);

}  // namespace at::native
