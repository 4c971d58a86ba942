#include <ATen/autograd/Variable.h>

#include <ATen/ATen.h>
#include <ATen/autograd/FunctionsManual.h>

namespace at::autograd {

AutogradMeta* materialize_meta(const Tensor& t) {
  auto* impl = t.unsafeGetTensorImpl();
  if (!impl->autograd_meta()) impl->set_autograd_meta(std::make_unique<AutogradMeta>());
  return static_cast<AutogradMeta*>(impl->autograd_meta());
}

bool requires_grad(const Tensor& t) {
  const AutogradMeta* m = t.defined() ? get_meta(t) : nullptr;
  return m && (m->requires_grad || m->grad_fn);
}

bool is_leaf(const Tensor& t) {
  const AutogradMeta* m = get_meta(t);
  return !m || !m->grad_fn;
}

void set_requires_grad(const Tensor& t, bool value) {
  if (!is_leaf(t)) {
    TORCH_CHECK(value, "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    return;
  }
  TORCH_CHECK(!value || t.is_floating_point(),
              "only Tensors of floating point dtype can require gradients");
  if (!value && !get_meta(t)) return;
  materialize_meta(t)->requires_grad = value;
}

namespace {

// A view whose history was recorded before an in-place op on its base (or on
// a sibling view) would otherwise still point at the old graph, and the
// gradient would flow around the write. As PyTorch does, such a view's
// grad_fn becomes an as_strided view of the base's current history.
void refresh_view_history(const Tensor& t, AutogradMeta* m) {
  auto* impl = t.unsafeGetTensorImpl();
  if (!m || !m->grad_fn || !impl->is_view()) return;
  const uint32_t version = impl->version();
  if (m->view_version == version) return;
  std::lock_guard<std::mutex> lock(m->mutex);  // two threads reading one stale view
  if (m->view_version == version) return;
  const Tensor base(impl->view_base());
  const AutogradMeta* bm = get_meta(base);
  if (!bm || !(bm->grad_fn || bm->requires_grad)) return;
  m->grad_fn = std::make_shared<AsStridedBackward>(base, t);
  m->output_nr = 0;
  m->view_version = version;
}

}  // namespace

std::shared_ptr<Node> grad_fn(const Tensor& t) {
  AutogradMeta* m = get_meta(t);
  refresh_view_history(t, m);
  return m ? m->grad_fn : nullptr;
}

Tensor grad(const Tensor& t) {
  const AutogradMeta* m = get_meta(t);
  if (!m) return Tensor();
  std::lock_guard<std::mutex> lock(m->mutex);
  if (m->retained) return m->retained->grad;
  return m->grad;
}

void set_grad(const Tensor& t, const Tensor& g) {
  if (g.defined()) {
    TORCH_CHECK(g.sizes().equals(t.sizes()), "assigned grad has data of a different size");
    TORCH_CHECK(g.scalar_type() == t.scalar_type(), "assigned grad has data of a different type");
    TORCH_CHECK(g.device() == t.device(), "assigned grad has data located on a different device");
  }
  AutogradMeta* m = materialize_meta(t);
  std::lock_guard<std::mutex> lock(m->mutex);
  if (m->retained) {
    m->retained->grad = g;
  } else {
    m->grad = g;
  }
}

void retain_grad(const Tensor& t) {
  TORCH_CHECK(requires_grad(t), "can't retain_grad on Tensor that has requires_grad=False");
  if (is_leaf(t)) return;  // leaves keep their grad anyway
  AutogradMeta* m = materialize_meta(t);
  std::lock_guard<std::mutex> lock(m->mutex);
  if (m->retained) return;
  auto slot = std::make_shared<GradSlot>();
  m->retained = slot;
  m->grad_fn->add_retains_grad_hook(m->output_nr, [slot](const Tensor& g) -> Tensor {
    // Recorded only in a create_graph pass (the engine's grad mode), as PyTorch's.
    slot->grad = slot->grad.defined() ? slot->grad.add(g) : g.clone();
    return Tensor();
  });
}

bool retains_grad(const Tensor& t) {
  const AutogradMeta* m = get_meta(t);
  return m && m->retained != nullptr;
}

void register_hook(const Tensor& t, Hook hook) {
  TORCH_CHECK(requires_grad(t), "cannot register a hook on a tensor that doesn't require gradient");
  AutogradMeta* m = materialize_meta(t);
  std::lock_guard<std::mutex> lock(m->mutex);
  if (m->grad_fn) {
    m->grad_fn->add_pre_hook(m->output_nr, std::move(hook));
  } else {
    m->hooks.push_back(std::move(hook));
  }
}

Tensor detach(const Tensor& t) {
  auto impl = c10::make_intrusive<c10::TensorImpl>(t.storage(), t.scalar_type(), t.device());
  impl->set_sizes_and_strides(t.sizes(), t.strides(), t.storage_offset());
  impl->set_version_counter(t.unsafeGetTensorImpl()->version_counter());
  return Tensor(std::move(impl));
}

std::shared_ptr<Node> grad_accumulator(const Tensor& t) {
  AutogradMeta* m = materialize_meta(t);
  std::lock_guard<std::mutex> lock(m->mutex);
  if (auto acc = m->grad_accumulator.lock()) return acc;
  auto acc = std::make_shared<AccumulateGrad>(t);
  m->grad_accumulator = acc;
  return acc;
}

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* m = get_meta(t);
  if (!m) return Edge{};
  refresh_view_history(t, m);
  if (m->grad_fn) return Edge{m->grad_fn, m->output_nr};
  if (m->requires_grad) return Edge{grad_accumulator(t), 0};
  return Edge{};
}

bool any_requires_grad(std::initializer_list<const Tensor*> tensors) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor* t : tensors)
    if (t->defined() && requires_grad(*t)) return true;
  return false;
}

bool any_requires_grad(TensorList tensors) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor& t : tensors)
    if (t.defined() && requires_grad(t)) return true;
  return false;
}

void check_differentiable(const Tensor& result) {
  TORCH_CHECK(!result.defined() || c10::isFloatingType(result.scalar_type()), "Autograd not support dtype: ",
              result.scalar_type());
}

void set_history(const Tensor& result, const std::shared_ptr<Node>& fn, uint32_t output_nr) {
  if (!result.defined() || !c10::isFloatingType(result.scalar_type())) return;  // ints carry no gradient
  AutogradMeta* m = materialize_meta(result);
  m->grad_fn = fn;
  m->output_nr = output_nr;
  m->requires_grad = false;
  m->retained.reset();
  m->view_version = result.unsafeGetTensorImpl()->version();
}

void check_inplace(const Tensor& self, const char* op, bool metadata_only) {
  (void)op;
  if (!GradMode::is_enabled()) return;
  const AutogradMeta* m = get_meta(self);
  TORCH_CHECK(!(m && !m->grad_fn && m->requires_grad),
              "a leaf Variable that requires grad is being used in an in-place operation.");
  auto* impl = self.unsafeGetTensorImpl();
  if (impl->is_view()) {
    const Tensor base(impl->view_base());
    TORCH_CHECK(!(is_leaf(base) && requires_grad(base)),
                "a view of a leaf Variable that requires grad is being used in an in-place operation.");
    TORCH_CHECK(metadata_only || base.is_contiguous(), op, ": an in-place operation on a view of a non-contiguous tensor is not "
                "supported when autograd must record it; clone() the view first.");
  }
}

void rebase_history(const Tensor& self, const std::shared_ptr<Node>& fn) {
  auto* impl = self.unsafeGetTensorImpl();
  if (!impl->is_view()) {
    set_history(self, fn, 0);
    return;
  }
  const Tensor base(impl->view_base());
  auto copy_slices = std::make_shared<CopySlices>(base, self, fn);
  set_history(base, copy_slices, 0);
  auto view_fn = std::make_shared<AsStridedBackward>(base, self);
  set_history(self, view_fn, 0);
}

CopySlices::CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn)
    : sizes_(view.sizes().vec()),
      strides_(view.strides().vec()),
      offset_(view.storage_offset() - base.storage_offset()),
      fn_(std::move(fn)) {
  add_input(base);  // the base's history before the in-place op
  // The op's other inputs keep their edges; its first input (the view) is
  // accounted for by the base.
  for (size_t i = 1; i < fn_->next_edges().size(); ++i) {
    next_edges_.push_back(fn_->next_edges()[i]);
    input_metadata_.push_back(fn_->input_metadata()[i]);
  }
}

variable_list CopySlices::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  variable_list out(next_edges_.size());
  if (!grad.defined()) return out;
  if (GradMode::is_enabled()) {
    // A pass that records itself (create_graph): the same in ops that do not
    // write into a tensor another recorded op saved (as_strided saves its
    // input, so writing through an as_strided view would invalidate it). The
    // base is contiguous (check_inplace), so its flat index is the position.
    const Tensor flat = grad.reshape({-1});
    const Tensor positions = storage_positions(sizes_, strides_, offset_, grad.device()).reshape({-1});
    variable_list fn_grads = fn_->apply({flat.index_select(0, positions).view(sizes_)});
    const bool has = !fn_grads.empty() && fn_grads[0].defined();
    const Tensor values = has ? fn_grads[0].to(grad.scalar_type()).expand(sizes_).reshape({-1})
                              : at::zeros({positions.numel()}, grad.scalar_type(), grad.device());
    Tensor result = flat.clone();
    result.index_put_({std::optional<Tensor>(positions)}, values, false);
    out[0] = result.view(grad.sizes());
    for (size_t i = 1; i < fn_grads.size() && i < out.size(); ++i) out[i] = fn_grads[i];
    return out;
  }
  Tensor result = grad.clone();  // contiguous, with the base's shape
  Tensor region = result.as_strided(sizes_, strides_, offset_);
  variable_list fn_grads = fn_->apply({region.clone()});
  if (!fn_grads.empty() && fn_grads[0].defined()) {
    region.copy_(fn_grads[0]);
  } else {
    region.zero_();
  }
  out[0] = result;
  for (size_t i = 1; i < fn_grads.size() && i < out.size(); ++i) out[i] = fn_grads[i];
  return out;
}

AsStridedBackward::AsStridedBackward(const Tensor& base, const Tensor& view)
    : base_sizes_(base.sizes().vec()),
      sizes_(view.sizes().vec()),
      strides_(view.strides().vec()),
      offset_(view.storage_offset() - base.storage_offset()),
      dtype_(view.scalar_type()) {
  add_input(base);
}

variable_list AsStridedBackward::apply(variable_list&& grads) {
  const Tensor& grad = grads[0];
  if (!grad.defined()) return {Tensor()};
  Tensor result = at::zeros(base_sizes_, grad.scalar_type(), grad.device());
  result.as_strided(sizes_, strides_, offset_).copy_(grad);
  return {result};
}

AccumulateGrad::AccumulateGrad(Tensor v) : variable(std::move(v)) {
  InputMetadata meta;
  meta.sizes.assign(variable.sizes().begin(), variable.sizes().end());
  meta.dtype = variable.scalar_type();
  meta.device = variable.device();
  input_metadata_.push_back(std::move(meta));
}

variable_list AccumulateGrad::apply(variable_list&& grads) {
  Tensor g = std::move(grads[0]);
  if (!g.defined()) return {};
  AutogradMeta* m = materialize_meta(variable);
  std::vector<Hook> hooks;
  {
    std::lock_guard<std::mutex> lock(m->mutex);
    hooks = m->hooks;
  }
  // Hooks run unlocked: a Python hook may read .grad.
  for (const Hook& hook : hooks) {
    Tensor replaced = hook(g);
    if (replaced.defined()) g = replaced;
  }
  // Under create_graph the sum is recorded, so .grad can be differentiated.
  AutoGradMode mode(GradMode::is_enabled());
  std::lock_guard<std::mutex> lock(m->mutex);
  if (!m->grad.defined()) {
    // The engine's gradient may be shared with other uses: keep our own copy.
    m->grad = g.clone();
  } else {
    m->grad = m->grad.add(g);
  }
  return {};
}

}  // namespace at::autograd

// PyTorch's Tensor methods for the same (declared in TensorBody.h).
namespace at {

bool Tensor::requires_grad() const { return autograd::requires_grad(*this); }
const Tensor& Tensor::set_requires_grad(bool requires_grad) const {
  autograd::set_requires_grad(*this, requires_grad);
  return *this;
}
bool Tensor::is_leaf() const { return autograd::is_leaf(*this); }
Tensor Tensor::grad() const { return autograd::grad(*this); }

}  // namespace at
