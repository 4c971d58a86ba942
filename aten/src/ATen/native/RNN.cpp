// The pointwise half of an LSTM step, fused: from the summed gate
// pre-activations [B, 4H] (input, forget, cell, output, PyTorch's order) and
// the cell state cx [B, H], cy = f * cx + i * g and hy = o * tanh(cy). The
// matrix products stay outside (nn.LSTM's Python step calls F.linear).
// Float and double CPU tensors run one loop; other devices and dtypes the
// same equations over at:: ops. _lstm_sequence runs a whole layer's steps in
// one op (and its gradient in one node): the input projection for every step
// is one matrix product done before it, in Python. It keeps every step's
// activated gates (sigmoid(i), sigmoid(f), tanh(g), sigmoid(o)), as PyTorch's
// fused cell keeps its workspace, so that the backward does not recompute them.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/FloatOrDouble.h>
#include <ATen/native/RNN.h>
#include <ATen/native/cpu/VecMath.h>
#include <ATen/autograd/GradMode.h>

#include <cmath>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(vec_sigmoid_stub);
DEFINE_DISPATCH(vec_tanh_stub);

namespace {

void check_cell(const Tensor& gates, const Tensor& cx) {
  TORCH_CHECK(gates.dim() == 2 && cx.dim() == 2, "_lstm_cell: expected 2-D gates and cx, got ", gates.dim(),
              "-D and ", cx.dim(), "-D");
  TORCH_CHECK(gates.size(0) == cx.size(0) && gates.size(1) == 4 * cx.size(1), "_lstm_cell: gates of size ",
              gates.sizes(), " do not match cx of size ", cx.sizes(), " (expected [B, 4H] and [B, H])");
  TORCH_CHECK(gates.scalar_type() == cx.scalar_type() && gates.is_floating_point(),
              "_lstm_cell: expected gates and cx of one floating dtype, got ", gates.scalar_type(), " and ",
              cx.scalar_type());
  TORCH_CHECK(gates.device() == cx.device(), "_lstm_cell: gates and cx are on different devices");
}

// act[0, 4H) = sigmoid(i), sigmoid(f), tanh(g), sigmoid(o) of one row of
// gates (act may be row itself).
void activations(const float* row, float* act, int64_t hidden) {
  vec_sigmoid_stub(c10::DeviceType::CPU, row, act, 2 * hidden);
  vec_tanh_stub(c10::DeviceType::CPU, row + 2 * hidden, act + 2 * hidden, hidden);
  vec_sigmoid_stub(c10::DeviceType::CPU, row + 3 * hidden, act + 3 * hidden, hidden);
}

void activations(const double* row, double* act, int64_t hidden) {
  for (int64_t j = 0; j < 4 * hidden; ++j) {
    act[j] = j >= 2 * hidden && j < 3 * hidden ? std::tanh(row[j]) : 1.0 / (1.0 + std::exp(-row[j]));
  }
}

void tanh_of(const float* x, float* y, int64_t n) { vec_tanh_stub(c10::DeviceType::CPU, x, y, n); }
void tanh_of(const double* x, double* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = std::tanh(x[i]);
}

// Rows per parallel chunk: a row is 4H activations, and a chunk should be
// worth waking another thread for.
int64_t rows_per_chunk(int64_t hidden) { return std::max<int64_t>(1, 8192 / std::max<int64_t>(hidden, 1)); }

// The gates' activations as a new tensor: the loop for float/double CPU
// tensors, at:: ops for other devices and dtypes.
Tensor activated(const Tensor& gates) {
  if (is_cpu_float_or_double(gates) && !autograd::GradMode::is_enabled()) {  // the loop records nothing
    Tensor act = gates.clone();  // contiguous, activated in place
    const int64_t batch = act.size(0), hidden = act.size(1) / 4;
    for_float_or_double(act.scalar_type(), [&](auto tag) {
      using scalar_t = decltype(tag);
      scalar_t* a = act.data_ptr<scalar_t>();
      parallel_for(0, batch, rows_per_chunk(hidden), [&](int64_t lo, int64_t hi) {
        for (int64_t b = lo; b < hi; ++b) activations(a + b * 4 * hidden, a + b * 4 * hidden, hidden);
      });
    });
    return act;
  }
  const auto g = gates.chunk(4, 1);
  return at::cat({g[0].sigmoid(), g[1].sigmoid(), g[2].tanh(), g[3].sigmoid()}, 1);
}

// Contiguous float/double CPU tensors: activates `gates` [B, 4H] in place,
// then cy = f * cx + i * g and hy = o * tanh(cy) into hy and cy.
void lstm_cell_activate_into(const Tensor& gates, const Tensor& cx, const Tensor& hy, const Tensor& cy) {
  const int64_t batch = cx.size(0), hidden = cx.size(1);
  for_float_or_double(cx.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    scalar_t* g = gates.data_ptr<scalar_t>();
    const scalar_t* c = cx.data_ptr<scalar_t>();
    scalar_t* h_out = hy.data_ptr<scalar_t>();
    scalar_t* c_out = cy.data_ptr<scalar_t>();
    parallel_for(0, batch, rows_per_chunk(hidden), [&](int64_t lo, int64_t hi) {
      std::vector<scalar_t> tc(static_cast<size_t>(hidden));
      for (int64_t b = lo; b < hi; ++b) {
        scalar_t* act = g + b * 4 * hidden;
        activations(act, act, hidden);
        scalar_t* cell = c_out + b * hidden;
        for (int64_t j = 0; j < hidden; ++j) cell[j] = act[hidden + j] * c[b * hidden + j] + act[j] * act[2 * hidden + j];
        tanh_of(cell, tc.data(), hidden);
        for (int64_t j = 0; j < hidden; ++j) h_out[b * hidden + j] = act[3 * hidden + j] * tc[j];
      }
    });
  });
}

// The same from activated gates over at:: ops; returns (hy, cy).
std::tuple<Tensor, Tensor> lstm_cell_from_activated(const Tensor& act, const Tensor& cx) {
  const auto g = act.chunk(4, 1);
  const Tensor cy = g[1].mul(cx).add(g[0].mul(g[2]));
  return {g[3].mul(cy.tanh()), cy};
}

// One batch row of the LSTM cell's backward: act holds the activated gates
// (i, f, g, o), tcy = tanh(cy); the incoming gradients are dh1 + dh2 (hy) and
// dc1 + dc2 (cy). Branch-free, so that it vectorises.
template <typename scalar_t>
void lstm_backward_row(const scalar_t* act, const scalar_t* cx, const scalar_t* tcy, const scalar_t* dh1,
                       const scalar_t* dh2, const scalar_t* dc1, const scalar_t* dc2, scalar_t* __restrict__ dg,
                       scalar_t* __restrict__ dcx, int64_t hidden) {
  const scalar_t one(1);
  for (int64_t j = 0; j < hidden; ++j) {
    const scalar_t i = act[j], f = act[hidden + j], gg = act[2 * hidden + j], o = act[3 * hidden + j];
    const scalar_t t = tcy[j];
    const scalar_t dhy = dh1[j] + dh2[j];
    const scalar_t dcy = dhy * o * (one - t * t) + dc1[j] + dc2[j];
    dg[j] = dcy * gg * i * (one - i);
    dg[hidden + j] = dcy * cx[j] * f * (one - f);
    dg[2 * hidden + j] = dcy * i * (one - gg * gg);
    dg[3 * hidden + j] = dhy * t * o * (one - o);
    dcx[j] = dcy * f;
  }
}

// The gradient of one step from its activated gates act [B, 4H]: the
// gradient reaching hy is grad_hy + extra_hy, cy's grad_cy + extra_cy (any
// of them may be undefined). Writes d(gates) into d_gates [B, 4H] and
// returns d(cx). Contiguous float/double CPU tensors.
void lstm_cell_backward_into(const Tensor& grad_hy, const Tensor& extra_hy, const Tensor& grad_cy,
                             const Tensor& extra_cy, const Tensor& act_in, const Tensor& cx_in, const Tensor& cy_in,
                             const Tensor& d_gates, const Tensor& d_cx) {
  const int64_t batch = cx_in.size(0), hidden = cx_in.size(1);
  const Tensor act_t = act_in.contiguous(), cx = cx_in.contiguous(), cy = cy_in.contiguous();
  const Tensor dh1 = grad_hy.defined() ? grad_hy.contiguous() : Tensor();
  const Tensor dh2 = extra_hy.defined() ? extra_hy.contiguous() : Tensor();
  const Tensor dc1 = grad_cy.defined() ? grad_cy.contiguous() : Tensor();
  const Tensor dc2 = extra_cy.defined() ? extra_cy.contiguous() : Tensor();
  for_float_or_double(cx.scalar_type(), [&](auto tag) {
    using scalar_t = decltype(tag);
    auto ptr = [](const Tensor& t) { return t.defined() ? t.data_ptr<scalar_t>() : nullptr; };
    const scalar_t *a = ptr(act_t), *c = ptr(cx), *cn = ptr(cy);
    const scalar_t *gh1 = ptr(dh1), *gh2 = ptr(dh2), *gc1 = ptr(dc1), *gc2 = ptr(dc2);
    scalar_t* dg_out = d_gates.data_ptr<scalar_t>();
    scalar_t* dcx_out = d_cx.data_ptr<scalar_t>();
    parallel_for(0, batch, rows_per_chunk(hidden), [&](int64_t lo, int64_t hi) {
      // A missing gradient reads as a row of zeros, so that the row loop has
      // no branches and vectorises (adding 0 is what the formula did before).
      std::vector<scalar_t> tc(static_cast<size_t>(hidden)), zeros(static_cast<size_t>(hidden));
      auto at_row = [&](const scalar_t* t, int64_t b) { return t ? t + b * hidden : zeros.data(); };
      for (int64_t b = lo; b < hi; ++b) {
        tanh_of(cn + b * hidden, tc.data(), hidden);
        lstm_backward_row(a + b * 4 * hidden, c + b * hidden, tc.data(), at_row(gh1, b), at_row(gh2, b),
                          at_row(gc1, b), at_row(gc2, b), dg_out + b * 4 * hidden, dcx_out + b * hidden, hidden);
      }
    });
  });
}

// The same over at:: ops; returns (d(gates), d(cx)).
std::tuple<Tensor, Tensor> lstm_cell_backward_ops(const Tensor& grad_hy, const Tensor& grad_cy, const Tensor& act,
                                                  const Tensor& cx, const Tensor& cy) {
  const auto g = act.chunk(4, 1);
  const Tensor &i = g[0], &f = g[1], &gg = g[2], &o = g[3];
  const Tensor tcy = cy.tanh();
  const Tensor one = scalar_tensor(1, cx.scalar_type(), cx.device());
  const Tensor ghy = grad_hy.defined() ? grad_hy : at::zeros_like(cy);
  Tensor dcy = ghy.mul(o).mul(one.sub(tcy.mul(tcy)));
  if (grad_cy.defined()) dcy = dcy.add(grad_cy);
  const Tensor di = dcy.mul(gg).mul(i).mul(one.sub(i)), df = dcy.mul(cx).mul(f).mul(one.sub(f));
  const Tensor dg = dcy.mul(i).mul(one.sub(gg.mul(gg))), d_o = ghy.mul(tcy).mul(o).mul(one.sub(o));
  return {at::cat({di, df, dg, d_o}, 1), dcy.mul(f)};
}

}  // namespace

std::tuple<Tensor, Tensor> _lstm_cell(const Tensor& gates_in, const Tensor& cx_in) {
  check_cell(gates_in, cx_in);
  const int64_t batch = cx_in.size(0), hidden = cx_in.size(1);
  if (!is_cpu_float_or_double(gates_in)) return lstm_cell_from_activated(activated(gates_in), cx_in);
  Tensor act = gates_in.clone();  // activated in place: the input stays as it was
  Tensor hy = at::empty({batch, hidden}, cx_in.scalar_type(), cx_in.device());
  Tensor cy = at::empty({batch, hidden}, cx_in.scalar_type(), cx_in.device());
  lstm_cell_activate_into(act, cx_in.contiguous(), hy, cy);
  return {hy, cy};
}

std::tuple<Tensor, Tensor> lstm_cell_backward(const Tensor& grad_hy, const Tensor& grad_cy, const Tensor& gates,
                                              const Tensor& cx, const Tensor& cy) {
  const Tensor act = activated(gates);
  // The fused loop records nothing: create_graph takes the ops.
  if (!is_cpu_float_or_double(gates) || autograd::GradMode::is_enabled()) {
    return lstm_cell_backward_ops(grad_hy, grad_cy, act, cx, cy);
  }
  Tensor d_gates = at::empty({cx.size(0), 4 * cx.size(1)}, cx.scalar_type(), cx.device());
  Tensor d_cx = at::empty({cx.size(0), cx.size(1)}, cx.scalar_type(), cx.device());
  lstm_cell_backward_into(grad_hy, Tensor(), grad_cy, Tensor(), act, cx, cy, d_gates, d_cx);
  return {d_gates, d_cx};
}

namespace {

void check_sequence(const Tensor& gi, const Tensor& h0, const Tensor& c0, const Tensor& w_hh) {
  TORCH_CHECK(gi.dim() == 3 && h0.dim() == 2 && c0.dim() == 2 && w_hh.dim() == 2,
              "_lstm_sequence: expected gi [T, B, 4H], h0 and c0 [B, H] and w_hh [4H, H], got ", gi.sizes(), ", ",
              h0.sizes(), ", ", c0.sizes(), " and ", w_hh.sizes());
  const int64_t batch = h0.size(0), hidden = h0.size(1);
  TORCH_CHECK(c0.sizes().equals(h0.sizes()) && gi.size(1) == batch && gi.size(2) == 4 * hidden &&
                  w_hh.size(0) == 4 * hidden && w_hh.size(1) == hidden,
              "_lstm_sequence: sizes do not match: gi ", gi.sizes(), ", h0 ", h0.sizes(), ", c0 ", c0.sizes(),
              ", w_hh ", w_hh.sizes());
  for (const Tensor* t : {&h0, &c0, &w_hh}) {
    TORCH_CHECK(t->scalar_type() == gi.scalar_type(), "_lstm_sequence: expected one dtype, got ", gi.scalar_type(),
                " and ", t->scalar_type());
    TORCH_CHECK(t->device() == gi.device(), "_lstm_sequence: tensors on different devices");
  }
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _lstm_sequence(const Tensor& gi, const Tensor& h0, const Tensor& c0,
                                                  const Tensor& w_hh) {
  check_sequence(gi, h0, c0, w_hh);
  const int64_t steps = gi.size(0), batch = h0.size(0), hidden = h0.size(1);
  Tensor output = at::empty({steps, batch, hidden}, gi.scalar_type(), gi.device());
  Tensor cells = at::empty({steps, batch, hidden}, gi.scalar_type(), gi.device());
  Tensor gates = at::empty({steps, batch, 4 * hidden}, gi.scalar_type(), gi.device());
  const Tensor w_t = w_hh.t();
  const bool fast = is_cpu_float_or_double(gi);
  Tensor h = h0, c = fast ? c0.contiguous() : c0;
  for (int64_t t = 0; t < steps; ++t) {
    const Tensor g = gates.select(0, t);
    at::addmm_out(g, gi.select(0, t), h, w_t);  // gi[t] + h w_hh^T
    const Tensor hy = output.select(0, t), cy = cells.select(0, t);
    if (fast) {
      lstm_cell_activate_into(g, c, hy, cy);  // straight into this step's rows
    } else {
      g.copy_(activated(g));
      auto [h_new, c_new] = lstm_cell_from_activated(g, c);
      hy.copy_(h_new);
      cy.copy_(c_new);
    }
    h = hy;
    c = cy;
  }
  return {output, cells, gates};
}

// Back through the steps: each step's cell gradient and the recurrent
// product's; w_hh's gradient is one product over all steps.
std::tuple<Tensor, Tensor, Tensor, Tensor> lstm_sequence_backward(const Tensor& grad_output, const Tensor& grad_cells,
                                                                  const Tensor& h0, const Tensor& c0,
                                                                  const Tensor& w_hh, const Tensor& output,
                                                                  const Tensor& cells, const Tensor& gates) {
  if (!grad_output.defined() && !grad_cells.defined()) return {};
  const int64_t steps = gates.size(0), batch = h0.size(0), hidden = h0.size(1);
  const ScalarType dtype = gates.scalar_type();
  Tensor d_gates = at::empty({steps, batch, 4 * hidden}, dtype, gates.device());
  Tensor dh = at::zeros({batch, hidden}, dtype, gates.device());
  Tensor dc = at::zeros({batch, hidden}, dtype, gates.device());
  if (is_cpu_float_or_double(gates)) {
    // Two buffers for the cell gradient take turns (one is read while the
    // other is written); the recurrent product lands in dh in place.
    Tensor dc_next = at::empty({batch, hidden}, dtype, gates.device());
    for (int64_t t = steps - 1; t >= 0; --t) {
      const Tensor c_prev = t > 0 ? cells.select(0, t - 1) : c0;
      const Tensor dg = d_gates.select(0, t);
      lstm_cell_backward_into(dh, grad_output.defined() ? grad_output.select(0, t) : Tensor(), dc,
                              grad_cells.defined() ? grad_cells.select(0, t) : Tensor(), gates.select(0, t), c_prev,
                              cells.select(0, t), dg, dc_next);
      at::mm_out(dh, dg, w_hh);
      std::swap(dc, dc_next);
    }
  } else {
    for (int64_t t = steps - 1; t >= 0; --t) {
      const Tensor ghy = grad_output.defined() ? dh.add(grad_output.select(0, t)) : dh;
      const Tensor gcy = grad_cells.defined() ? dc.add(grad_cells.select(0, t)) : dc;
      const Tensor c_prev = t > 0 ? cells.select(0, t - 1) : c0;
      auto [dg, dcx] = lstm_cell_backward_ops(ghy, gcy, gates.select(0, t), c_prev, cells.select(0, t));
      d_gates.select(0, t).copy_(dg);
      dh = at::mm(dg, w_hh);
      dc = dcx;
    }
  }
  // w_hh's gradient: sum over steps of dgates[t]^T h[t-1], h[-1] = h0.
  const Tensor h_prev = steps > 1 ? at::cat({h0.unsqueeze(0), output.narrow(0, 0, steps - 1)}, 0) : h0.unsqueeze(0);
  const Tensor d_w = at::mm(d_gates.reshape({steps * batch, 4 * hidden}).t(), h_prev.reshape({steps * batch, hidden}));
  return {d_gates, dh, dc, d_w};
}

}  // namespace at::native
