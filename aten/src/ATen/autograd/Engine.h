#pragma once
// The backward pass: from output tensors and their gradients, run the nodes
// of the graph in reverse creation order (each once all its gradients have
// arrived), then either accumulate into the leaves' .grad (backward) or
// return the gradients of given inputs (grad).
#include <ATen/autograd/Node.h>

namespace at::autograd {

// Tensor.backward / torch.autograd.backward. `grad_tensors[i]` undefined:
// implicit ones for a scalar output.
// create_graph: the pass itself is recorded (grad mode on, saved tensors
// unpacked with their history), so its gradients can be differentiated again.
TORCH_API void backward(const variable_list& tensors, const variable_list& grad_tensors, bool keep_graph,
                        bool create_graph = false);

// torch.autograd.grad: the gradients of `outputs` with respect to `inputs`
// (undefined for an unused input when allow_unused).
TORCH_API variable_list grad(const variable_list& outputs, const variable_list& inputs,
                             const variable_list& grad_outputs, bool keep_graph, bool allow_unused,
                             bool create_graph = false);

}  // namespace at::autograd
