// Loss functions with their own backward nodes (MseLossBackward0,
// NllLossBackward0, MultilabelMarginLossBackward0): autograd records only the loss.
#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/Loss.h>

#include <algorithm>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(piecewise_loss_stub);
DEFINE_DISPATCH(piecewise_loss_grad_stub);

namespace {

Tensor reduce_loss(const Tensor& loss, int64_t reduction) {
  TORCH_CHECK(reduction >= 0 && reduction <= 2, reduction, " is not a valid value for reduction");
  if (reduction == 1) return loss.mean();
  if (reduction == 2) return loss.sum();
  return loss;
}

}  // namespace

namespace {

// One pass over two dense CPU operands of one shape and floating dtype: the
// unreduced losses, or their sum (in double) or mean. smooth_l1 with beta 0
// is the plain l1 loss, which the composition below computes.
Tensor pointwise_loss_loop(const Tensor& self, const Tensor& target, int64_t reduction, double width,
                           PointwiseLoss kind) {
  return AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(self.scalar_type(), "pointwise_loss", [&] {
    const Tensor a = self.contiguous(), b = target.contiguous();
    const scalar_t* x = a.data_ptr<scalar_t>();
    const scalar_t* y = b.data_ptr<scalar_t>();
    const int64_t n = a.numel();
    const ScalarType type = self.scalar_type();
    if (reduction == 0) {
      Tensor out = at::empty(self.sizes(), self.options());
      scalar_t* o = out.data_ptr<scalar_t>();
      at::parallel_for(0, n, 32768, [&](int64_t begin, int64_t end) {
        piecewise_loss_stub(c10::DeviceType::CPU, type, kind, x + begin, y + begin, end - begin, width, o + begin);
      });
      return out;
    }
    // Fixed chunks summed on any thread, their sums added in order: the
    // same total whatever the number of threads.
    constexpr int64_t kChunk = 65536;
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<double> partial(static_cast<size_t>(chunks), 0.0);
    at::parallel_for(0, chunks, 1, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        const int64_t lo = c * kChunk, len = std::min(kChunk, n - lo);
        partial[c] = piecewise_loss_stub(c10::DeviceType::CPU, type, kind, x + lo, y + lo, len, width, nullptr);
      }
    });
    double total = 0;
    for (double p : partial) total += p;
    if (reduction == 1) total /= static_cast<double>(n);  // 0/0 for an empty input: NaN, as PyTorch
    return scalar_tensor(total, self.scalar_type(), self.device());
  });
}

// PyTorch's order: the width, the shapes, (smooth_l1's reduction,) the
// dtype. huber_loss leaves the losses unreduced for any reduction other than
// mean (1) and sum (2), as PyTorch's does; smooth_l1_loss refuses them.
Tensor piecewise_loss_op(const Tensor& self, const Tensor& target, int64_t reduction, double width, bool huber) {
  if (huber) {
    TORCH_CHECK(width > 0, "huber_loss does not support non-positive values for delta.");
  } else {
    TORCH_CHECK(width >= 0, "smooth_l1_loss does not support negative values for beta.");
  }
  (void)infer_size(self.sizes(), target.sizes());
  TORCH_CHECK(huber || (reduction >= 0 && reduction <= 2), "smooth_l1_loss: reduction must be 0 (none), 1 (mean) ",
              "or 2 (sum), got ", reduction);
  const ScalarType type = promoteTypes(self.scalar_type(), target.scalar_type());
  TORCH_CHECK_NOT_IMPLEMENTED(c10::isFloatingType(type), "\"", huber ? "huber_cpu" : "smooth_l1_cpu",
                              "\" not implemented for '", type, "'");
  if (reduction != 1 && reduction != 2) reduction = 0;
  if (self.is_cpu() && target.is_cpu() && self.sizes() == target.sizes() && self.scalar_type() == type &&
      target.scalar_type() == type && (huber || width > 0))
    return pointwise_loss_loop(self, target, reduction, width, huber ? PointwiseLoss::Huber : PointwiseLoss::SmoothL1);
  const Tensor d = self.sub(target);
  const Tensor a = d.abs();
  const Tensor half_sq = d.mul(d).mul(scalar_tensor(0.5, type, d.device()));
  Tensor loss;
  if (huber) {
    loss = at::where(a.lt(scalar_tensor(width, type, d.device())), half_sq,
                     a.sub(scalar_tensor(0.5 * width, type, d.device())).mul(scalar_tensor(width, type, d.device())));
  } else if (width == 0) {
    loss = a;
  } else {
    loss = at::where(a.lt(scalar_tensor(width, type, d.device())), half_sq.div(scalar_tensor(width, type, d.device())),
                     a.sub(scalar_tensor(0.5 * width, type, d.device())));
  }
  // huber_loss writes into a tensor like self, as PyTorch's does: its dtype wins.
  const Tensor result = reduce_loss(loss, reduction);
  return huber ? result.to(self.scalar_type()) : result;
}

}  // namespace

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  (void)infer_size(self.sizes(), target.sizes());  // shapes first, as PyTorch checks them
  TORCH_CHECK(reduction >= 0 && reduction <= 2, reduction, " is not a valid value for reduction");
  const ScalarType type = promoteTypes(self.scalar_type(), target.scalar_type());
  TORCH_CHECK_NOT_IMPLEMENTED(c10::isFloatingType(type), "\"mse_cpu\" not implemented for '", type, "'");
  if (self.is_cpu() && target.is_cpu() && self.sizes() == target.sizes() && self.scalar_type() == type &&
      target.scalar_type() == type)
    return pointwise_loss_loop(self, target, reduction, 0, PointwiseLoss::Squared);
  const Tensor diff = self.sub(target);
  return reduce_loss(diff.mul(diff), reduction);
}

Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  return piecewise_loss_op(self, target, reduction, beta, false);
}

Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  return piecewise_loss_op(self, target, reduction, delta, true);
}

namespace {

// nll_loss over a contiguous float/double CPU input in one loop (the op
// sequence below costs ~15 dispatches, which dominate a training step's loss).
template <typename T>
Tensor nll_loss_loop(const Tensor& input2d, const Tensor& target1d, const Tensor& weight, int64_t reduction,
                     int64_t ignore_index, bool batched) {
  const int64_t n = input2d.size(0), classes = input2d.size(1);
  const T* x = input2d.data_ptr<T>();
  const int64_t* t = target1d.data_ptr<int64_t>();
  const T* w = weight.defined() ? weight.data_ptr<T>() : nullptr;
  Tensor losses = reduction == 0 ? at::empty({n}, input2d.scalar_type(), input2d.device()) : Tensor();
  T* out = losses.defined() ? losses.data_ptr<T>() : nullptr;
  double total = 0, weight_total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = t[i];
    if (c == ignore_index) {
      if (out) out[i] = T(0);
      continue;
    }
    TORCH_CHECK_INDEX(c >= 0 && c < classes, "Target ", c, " is out of bounds.");
    const T wc = w ? w[c] : T(1);
    const T loss = -x[i * classes + c] * wc;
    if (out) out[i] = loss;
    total += static_cast<double>(loss);
    weight_total += static_cast<double>(wc);
  }
  // A 1-D input's unreduced loss is its one term added to 0 (PyTorch's loop: -0 becomes 0).
  if (reduction == 0 && batched) return losses;
  if (reduction == 0) return scalar_tensor(total, input2d.scalar_type(), input2d.device());
  const double value = reduction == 2 ? total : total / weight_total;  // 0/0: NaN, as PyTorch
  return scalar_tensor(value, input2d.scalar_type(), input2d.device());
}

}  // namespace

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                int64_t ignore_index) {
  TORCH_CHECK(self.dim() == 1 || self.dim() == 2, "nll_loss: expected 1 or 2 dimensions for input, got ", self.dim());
  TORCH_CHECK(target.scalar_type() == ScalarType::Long || target.scalar_type() == ScalarType::Byte,
              "expected target dtype to be Long or Byte, but got ", target.scalar_type());
  const bool batched = self.dim() == 2;
  TORCH_CHECK(!batched || target.dim() == 1, "nll_loss: expected target to be 1-D for a 2-D input, got ",
              target.dim(), "-D");
  TORCH_CHECK(!batched || self.size(0) == target.size(0), "Expected input batch_size (", self.size(0),
              ") to match target batch_size (", target.size(0), ").");
  const int64_t classes = self.size(-1);
  const bool has_weight = weight && weight->defined();
  TORCH_CHECK(!has_weight || (weight->dim() == 1 && weight->numel() == classes),
              "weight tensor should be defined either for all ", classes,
              " classes or no classes but got weight tensor of shape: ", weight->sizes());
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"nll_loss_out_frame\" not implemented for '",
                              self.scalar_type(), "'");
  const Tensor input2d = batched ? self : self.unsqueeze(0);
  const Tensor target1d = (batched ? target : target.reshape({1})).to(ScalarType::Long);
  TORCH_CHECK(!has_weight || weight->scalar_type() == self.scalar_type(), "expected scalar type ",
              self.scalar_type(), " but found ", weight->scalar_type());
  if (self.is_cpu() && (self.scalar_type() == ScalarType::Float || self.scalar_type() == ScalarType::Double) &&
      (!has_weight || weight->is_cpu())) {
    const Tensor w = has_weight ? weight->contiguous() : Tensor();
    const Tensor x = input2d.contiguous(), t = target1d.contiguous();
    const Tensor loss = self.scalar_type() == ScalarType::Float
                            ? nll_loss_loop<float>(x, t, w, reduction, ignore_index, batched)
                            : nll_loss_loop<double>(x, t, w, reduction, ignore_index, batched);
    // After the targets' bounds, as PyTorch's order of errors goes.
    TORCH_CHECK(reduction >= 0 && reduction <= 2, reduction, " is not a valid value for reduction");
    return loss;
  }
  const Tensor valid = target1d.ne(wrapped_scalar_tensor(ignore_index));
  const Tensor safe = target1d.masked_fill(valid.logical_not(), 0);
  if (safe.numel() > 0) {
    const int64_t lo = safe.min().item().toLong(), hi = safe.max().item().toLong();
    TORCH_CHECK_INDEX(lo >= 0 && hi < classes, "Target ", lo < 0 ? lo : hi, " is out of bounds.");
  }
  Tensor w = (weight && weight->defined()) ? weight->index_select(0, safe)
                                           : at::ones({target1d.size(0)}, self.scalar_type(), self.device());
  w = w.mul(valid.to(self.scalar_type()));
  const Tensor picked = input2d.gather(1, safe.unsqueeze(1)).squeeze(1);
  const Tensor losses = picked.neg().mul(w);
  if (reduction == 0) return batched ? losses : losses.squeeze(0);
  if (reduction == 2) return losses.sum();
  TORCH_CHECK(reduction == 1, reduction, " is not a valid value for reduction");
  return losses.sum().div(w.sum());
}

// ---- multilabel_margin_loss ----------------------------------------------
// PyTorch's loops: for each row, its labels are the targets before the first
// -1; the loss sums max(0, 1 - (x[label] - x[k])) over labels (repeated ones
// count again) and classes k that are no label, divided by the class count.
// O(rows * classes) memory; the work is rows * labels * classes as in
// PyTorch's kernel. Other devices compute on the CPU and copy the result back.
namespace {

struct MultilabelShape {
  int64_t rows, classes;
};

MultilabelShape multilabel_check(const Tensor& self, const Tensor& target) {
  const int64_t nd = self.dim();
  TORCH_CHECK((nd == 2 && self.size(1) != 0) || (nd == 1 && self.size(0) != 0) || nd == 0,
              "Expected non-empty vector or matrix with optional 0-dim batch size, but got: ", self.sizes());
  MultilabelShape s{};
  if (nd <= 1) {
    s = {1, nd == 0 ? 1 : self.size(0)};
    TORCH_CHECK(target.dim() <= 1 && target.numel() == s.classes, "inconsistent target size: ", target.sizes(),
                " for input of size: ", self.sizes());
  } else {
    s = {self.size(0), self.size(1)};
    TORCH_CHECK(target.dim() == 2 && target.size(0) == s.rows && target.size(1) == s.classes,
                "inconsistent target size: ", target.sizes(), " for input of size: ", self.sizes());
  }
  // The targets' range before the dtypes, in PyTorch's order (a target of
  // any dtype is range-checked), past a row's -1 too.
  if (target.numel() > 0) {
    TORCH_CHECK(target.min().item().toDouble() >= -1 && target.max().item().toDouble() < s.classes,
                "argument #2 'target' is out of range");
  }
  TORCH_CHECK_NOT_IMPLEMENTED(self.scalar_type() == ScalarType::Float || self.scalar_type() == ScalarType::Double,
                              "\"multilabel_margin_loss_forward_out_frame\" not implemented for '",
                              self.scalar_type(), "'");
  TORCH_CHECK(target.scalar_type() == ScalarType::Long, "expected scalar type Long but found ",
              target.scalar_type());
  TORCH_CHECK(self.device() == target.device(), "Expected all tensors to be on the same device, but found ",
              self.device(), " and ", target.device());
  return s;
}

// Each row's labels and a mask of them, from the target row t[0..classes).
int64_t row_labels(const int64_t* t, int64_t classes, std::vector<uint8_t>& is_label) {
  std::fill(is_label.begin(), is_label.end(), 0);
  int64_t count = 0;
  for (; count < classes && t[count] >= 0; ++count) is_label[t[count]] = 1;
  return count;
}

template <typename T>
void multilabel_rows(const T* x, const int64_t* t, int64_t rows, int64_t classes, T* loss, T* grad, T scale) {
  std::vector<uint8_t> is_label(classes);
  for (int64_t r = 0; r < rows; ++r, x += classes, t += classes) {
    const int64_t labels = row_labels(t, classes, is_label);
    T sum = 0;
    for (int64_t l = 0; l < labels; ++l) {
      const int64_t j = t[l];
      const T shifted = T(1) - x[j];
      for (int64_t k = 0; k < classes; ++k) {
        const T z = shifted + x[k];
        if (is_label[k] || !(z > 0)) continue;
        if (loss) sum += z;
        if (grad) {
          grad[r * classes + j] -= scale;
          grad[r * classes + k] += scale;
        }
      }
    }
    if (loss) loss[r] = sum / static_cast<T>(classes);
  }
}

}  // namespace

Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  const MultilabelShape s = multilabel_check(self, target);
  TORCH_CHECK(reduction >= 0 && reduction <= 2, reduction, " is not a valid value for reduction");
  const Tensor x = self.cpu().contiguous(), t = target.cpu().contiguous();
  Tensor losses = at::empty({s.rows}, x.scalar_type(), x.device());
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "multilabel_margin_loss_forward_out_frame", [&] {
    multilabel_rows<scalar_t>(x.data_ptr<scalar_t>(), t.data_ptr<int64_t>(), s.rows, s.classes,
                              losses.data_ptr<scalar_t>(), nullptr, scalar_t(0));
  });
  Tensor out;
  if (reduction == 0) {
    out = self.dim() == 2 ? losses : losses.reshape({});
  } else {
    // An empty batch's mean is NaN, as mean's of nothing (PyTorch's kernel
    // returns whatever its output's memory held).
    out = reduction == 2 ? losses.sum() : losses.mean();
  }
  return out.to(self.device(), std::nullopt);
}

Tensor multilabel_margin_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                       int64_t reduction) {
  const MultilabelShape s = multilabel_check(self, target);
  const Tensor x = self.cpu().contiguous(), t = target.cpu().contiguous();
  Tensor out = at::zeros({s.rows, s.classes}, x.scalar_type(), x.device());
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "multilabel_margin_loss_backward_out_frame", [&] {
    const double per = reduction == 1 && s.rows > 0 ? 1.0 / static_cast<double>(s.rows * s.classes)
                                                    : 1.0 / static_cast<double>(s.classes);
    multilabel_rows<scalar_t>(x.data_ptr<scalar_t>(), t.data_ptr<int64_t>(), s.rows, s.classes, nullptr,
                              out.data_ptr<scalar_t>(), static_cast<scalar_t>(per));
  });
  // The incoming gradient: one number, or one per row without a reduction.
  const Tensor g = grad.cpu().to(x.scalar_type());
  out = reduction == 0 && self.dim() == 2 ? out.mul(g.reshape({s.rows, 1})) : out.mul(g.reshape({}));
  return out.reshape(self.sizes()).to(self.device(), std::nullopt);
}

}  // namespace at::native
