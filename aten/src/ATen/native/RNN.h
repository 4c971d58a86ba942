#pragma once
// The gradients of the fused LSTM cell and sequence (_lstm_cell and
// _lstm_sequence in native_functions.yaml).
#include <ATen/core/TensorBody.h>

#include <tuple>

namespace at::native {

// grad_hy or grad_cy may be undefined (no gradient reached that output).
// Returns (grad of gates [B, 4H], grad of cx [B, H]).
TORCH_API std::tuple<Tensor, Tensor> lstm_cell_backward(const Tensor& grad_hy, const Tensor& grad_cy,
                                                        const Tensor& gates, const Tensor& cx, const Tensor& cy);

// The gradient of _lstm_sequence: grad_output [T, B, H] (of every step's h)
// and grad_cells [T, B, H] (of every step's c) may be undefined. Returns the
// gradients of (gi, h0, c0, w_hh).
TORCH_API std::tuple<Tensor, Tensor, Tensor, Tensor> lstm_sequence_backward(
    const Tensor& grad_output, const Tensor& grad_cells, const Tensor& h0, const Tensor& c0, const Tensor& w_hh,
    const Tensor& output, const Tensor& cells, const Tensor& gates);

}  // namespace at::native
