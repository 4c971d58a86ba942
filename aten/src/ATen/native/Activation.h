#pragma once
// The piecewise activations with scalar parameters (threshold, leaky_relu,
// hardshrink, softshrink, softplus, hardsigmoid, hardswish): one CPU kernel each (cpu/ActivationKernel.cpp),
// where their composition of comparisons and where() took three to five
// passes over memory. Other devices compose them (Activation.cpp). Their
// backward passes (autograd/FunctionsManual.cpp) likewise.
#include <ATen/TensorIterator.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

// (iter, first parameter, second parameter): threshold's (threshold, value),
// leaky_relu's (negative_slope, unused), the shrinks' (lambd, unused).
using activation_fn = void (*)(TensorIterator& iter, const Scalar& a, const Scalar& b);

DECLARE_DISPATCH(activation_fn, threshold_stub);
DECLARE_DISPATCH(activation_fn, leaky_relu_stub);
DECLARE_DISPATCH(activation_fn, hardshrink_stub);
DECLARE_DISPATCH(activation_fn, softshrink_stub);
// softplus's (beta, threshold): x * beta > threshold ? x : log1p(exp(x * beta)) / beta;
// hardsigmoid's min(max(x + 3, 0), 6) / 6 and hardswish's x times it (no parameters).
DECLARE_DISPATCH(activation_fn, softplus_stub);
DECLARE_DISPATCH(activation_fn, hardsigmoid_stub);
DECLARE_DISPATCH(activation_fn, hardswish_stub);
// prelu: out = x > 0 ? x : w * x over an iterator (out, x, w).
using prelu_fn = void (*)(TensorIterator& iter);
DECLARE_DISPATCH(prelu_fn, prelu_stub);
// glu: out = a * sigmoid(b) over (out, a, b), the halves of the input; its
// backward over (grad_a, grad_b, g, a, b): g s and g a s (1 - s), s = sigmoid(b).
DECLARE_DISPATCH(prelu_fn, glu_stub);
DECLARE_DISPATCH(prelu_fn, glu_backward_stub);
// glu's gradient, for derivatives.yaml (Activation.cpp): a CPU kernel, a
// composition elsewhere.
TORCH_API Tensor glu_backward(const Tensor& grad, const Tensor& self, int64_t dim);

// The backward passes, one pass over an iterator (out, g, x) with g the
// incoming gradient and x the op's input (relu's result, for threshold):
//   threshold_backward:  x <= a ? 0 : g
//   leaky_relu_backward: x > 0 ? g : g * a
//   shrink_backward:     -a <= x <= a ? 0 : g   (hardshrink, softshrink)
//   clamp_backward:      a <= x <= b ? g : 0    (clamp with number bounds, an
//                        absent one infinite; hardtanh, relu6)
//   elu_backward:        x > 0 ? g * b : g * a * exp(min(x, 0) * c)
//                        (a = alpha * scale * input_scale, b = scale, c = input_scale)
//   softplus_backward:   x * a > b ? g : g * z / (z + 1), z = exp(x * a)  (a = beta, b = threshold)
//   hardsigmoid_backward: -3 < x < 3 ? g / 6 : 0
//   hardswish_backward:  x <= -3 ? 0 : x >= 3 ? g : g * (x / 3 + 1/2)
//                        (a NaN x gives NaN, as PyTorch's vector loop does;
//                        its scalar tail gives g)
// A NaN x takes the branch its comparison gives it, as in PyTorch's kernels.
using activation_backward_fn = void (*)(TensorIterator& iter, double a, double b, double c);
// elu's forward takes the same signature, (alpha, scale, input_scale):
// x < 0 ? expm1(x * input_scale) * alpha * scale : x * scale, in float below double.
DECLARE_DISPATCH(activation_backward_fn, elu_stub);
DECLARE_DISPATCH(activation_backward_fn, threshold_backward_stub);
DECLARE_DISPATCH(activation_backward_fn, leaky_relu_backward_stub);
DECLARE_DISPATCH(activation_backward_fn, shrink_backward_stub);
DECLARE_DISPATCH(activation_backward_fn, clamp_backward_stub);
DECLARE_DISPATCH(activation_backward_fn, elu_backward_stub);
DECLARE_DISPATCH(activation_backward_fn, softplus_backward_stub);
DECLARE_DISPATCH(activation_backward_fn, hardsigmoid_backward_stub);
DECLARE_DISPATCH(activation_backward_fn, hardswish_backward_stub);

// One of the stubs above over (grad, x) in their common dtype, when both
// are floating CPU tensors; an undefined Tensor otherwise, and the caller
// composes the formula from other ops.
TORCH_API Tensor activation_backward(const DispatchStub<activation_backward_fn>& stub, const Tensor& grad,
                                     const Tensor& x, double a, double b = 0, double c = 0);

}  // namespace at::native
