#pragma once
// The piecewise activations with scalar parameters (threshold, leaky_relu,
// hardshrink, softshrink): one CPU kernel each (cpu/ActivationKernel.cpp),
// where their composition of comparisons and where() took three to five
// passes over memory. Other devices compose them (Activation.cpp).
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
// prelu: out = x > 0 ? x : w * x over an iterator (out, x, w).
using prelu_fn = void (*)(TensorIterator& iter);
DECLARE_DISPATCH(prelu_fn, prelu_stub);

}  // namespace at::native
