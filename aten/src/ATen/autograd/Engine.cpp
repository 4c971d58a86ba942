#include <ATen/autograd/Engine.h>

#include <ATen/ATen.h>
#include <ATen/autograd/FunctionsManual.h>
#include <ATen/autograd/Variable.h>

#include <mutex>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace at::autograd {
namespace {

// True when this handle is the only way to reach the tensor's memory: no
// other Tensor, view or Python object holds it, so adding into it is unseen.
bool owns_its_memory(const Tensor& t) {
  const c10::TensorImpl* impl = t.unsafeGetTensorImpl();
  return t.use_count() == 1 && !impl->is_view() && impl->storage().unsafeGetStorageImpl()->use_count() == 1;
}

struct ByCreationOrder {
  bool operator()(const Node* a, const Node* b) const { return a->sequence_nr() < b->sequence_nr(); }
};

// Makes `g` fit input `i` of `node`: the input's dtype and device (a tensor
// moved to CUDA gets its gradient back on the CPU), and its shape when the
// forward op broadcast it.
Tensor validate(const Node& node, size_t i, Tensor g) {
  if (!g.defined() || i >= node.input_metadata().size()) return g;
  const InputMetadata& meta = node.input_metadata()[i];
  const IntArrayRef want(meta.sizes.data(), meta.sizes.size());
  if (!g.sizes().equals(want)) {
    TORCH_CHECK(is_expandable_to(want, g.sizes()), "Function ", node.name(), " returned an invalid gradient at index ",
                i, " - got ", g.sizes(), " but expected shape compatible with ", want);
    g = sum_to(g, want);
  }
  if (g.device() != meta.device) {
    g = g.to(meta.device, meta.dtype, /*non_blocking=*/false, /*copy=*/false);
  } else if (g.scalar_type() != meta.dtype) {
    g = g.to(meta.dtype);
  }
  return g;
}

struct Capture {
  Node* node;
  uint32_t nr;
};

variable_list run(const variable_list& outputs, const variable_list& grad_outputs, bool keep_graph,
                  const std::vector<Capture>& captures, bool accumulate, bool create_graph) {
  AutoGradMode grad_mode(create_graph);
  std::unordered_map<Node*, variable_list> buffers;
  std::unordered_map<Node*, int> deps;
  std::vector<std::shared_ptr<Node>> roots;

  auto add_grad = [&](Node* fn, uint32_t nr, Tensor g) {
    variable_list& buf = buffers[fn];
    if (buf.size() < fn->num_outputs()) buf.resize(fn->num_outputs());
    if (!g.defined()) return;
    Tensor& acc = buf[nr];
    if (!acc.defined()) {
      acc = std::move(g);
    } else if (!create_graph && owns_its_memory(acc) && acc.sizes().equals(g.sizes()) &&
               acc.scalar_type() == g.scalar_type() && acc.device() == g.device()) {
      acc.add_(g);  // nothing else can see acc: sum in place, as PyTorch's InputBuffer does
    } else {
      acc = acc.add(g);
    }
  };

  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    Edge e = gradient_edge(out);
    TORCH_CHECK(e.is_valid(), "element ", i, " of tensors does not require grad and does not have a grad_fn");
    Tensor g = grad_outputs.size() > i ? grad_outputs[i] : Tensor();
    if (!g.defined()) {
      TORCH_CHECK(out.numel() == 1, "grad can be implicitly created only for scalar outputs");
      g = at::ones_like(out);
    } else {
      TORCH_CHECK(g.sizes().equals(out.sizes()), "Mismatch in shape: grad_output[", i, "] has a shape of ",
                  g.sizes(), " and output[", i, "] has a shape of ", out.sizes(), ".");
    }
    add_grad(e.function.get(), e.input_nr, g);
    roots.push_back(e.function);
  }

  // Count, for every node reachable from the roots, how many edges lead to it.
  std::vector<Node*> stack;
  std::unordered_set<Node*> seen;
  for (auto& r : roots) {
    if (seen.insert(r.get()).second) stack.push_back(r.get());
  }
  while (!stack.empty()) {
    Node* fn = stack.back();
    stack.pop_back();
    for (const Edge& e : fn->next_edges()) {
      if (!e.is_valid()) continue;
      deps[e.function.get()]++;
      if (seen.insert(e.function.get()).second) stack.push_back(e.function.get());
    }
  }

  std::unordered_map<const Node*, std::vector<size_t>> capture_index;
  for (size_t k = 0; k < captures.size(); ++k) capture_index[captures[k].node].push_back(k);
  variable_list captured(captures.size());

  std::priority_queue<Node*, std::vector<Node*>, ByCreationOrder> ready;
  std::unordered_set<Node*> queued;
  for (auto& r : roots) {
    if (deps[r.get()] == 0 && queued.insert(r.get()).second) ready.push(r.get());
  }
  // Keeps every node alive until the pass ends (the graph may be freed meanwhile).
  std::vector<std::shared_ptr<Node>> alive(roots.begin(), roots.end());

  while (!ready.empty()) {
    Node* fn = ready.top();
    ready.pop();
    variable_list inputs = std::move(buffers[fn]);
    buffers.erase(fn);
    inputs.resize(fn->num_outputs());
    for (const auto* hooks : {&fn->pre_hooks(), &fn->retains_grad_hooks()}) {
      for (const auto& [nr, hook] : *hooks) {
        if (nr < inputs.size() && inputs[nr].defined()) {
          Tensor replaced = hook(inputs[nr]);
          if (replaced.defined()) inputs[nr] = replaced;
        }
      }
    }
    auto cap = capture_index.find(fn);
    if (cap != capture_index.end()) {
      for (size_t k : cap->second) captured[k] = inputs[captures[k].nr];
    }
    const bool is_leaf_acc = dynamic_cast<AccumulateGrad*>(fn) != nullptr;
    variable_list grads;
    bool any = false;
    for (const Tensor& t : inputs) any = any || t.defined();
    {
      std::lock_guard<std::mutex> lock(fn->mutex());
      if (any && !(is_leaf_acc && !accumulate)) grads = fn->apply(std::move(inputs));
      if (!keep_graph) fn->release_variables();
    }
    const auto& edges = fn->next_edges();
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& e = edges[i];
      if (!e.is_valid()) continue;
      alive.push_back(e.function);
      Tensor g = i < grads.size() ? validate(*fn, i, std::move(grads[i])) : Tensor();
      add_grad(e.function.get(), e.input_nr, std::move(g));
      if (--deps[e.function.get()] == 0 && queued.insert(e.function.get()).second) ready.push(e.function.get());
    }
  }
  return captured;
}

}  // namespace

void backward(const variable_list& tensors, const variable_list& grad_tensors, bool keep_graph, bool create_graph) {
  run(tensors, grad_tensors, keep_graph, {}, true, create_graph);
}

variable_list grad(const variable_list& outputs, const variable_list& inputs, const variable_list& grad_outputs,
                   bool keep_graph, bool allow_unused, bool create_graph) {
  std::vector<Capture> captures;
  std::vector<std::shared_ptr<Node>> keep;
  for (const Tensor& in : inputs) {
    TORCH_CHECK(requires_grad(in), "One of the differentiated Tensors does not require grad");
    Edge e = gradient_edge(in);
    keep.push_back(e.function);
    captures.push_back({e.function.get(), e.input_nr});
  }
  variable_list result = run(outputs, grad_outputs, keep_graph, captures, false, create_graph);
  for (size_t i = 0; i < result.size(); ++i) {
    TORCH_CHECK(result[i].defined() || allow_unused, "One of the differentiated Tensors appears to not have been used "
                "in the graph. Set allow_unused=True if this is the desired behavior.");
  }
  return result;
}

}  // namespace at::autograd
