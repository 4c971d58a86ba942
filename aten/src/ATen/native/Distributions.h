#pragma once
#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

// The Box-Muller angle's 2 pi. M_PI is POSIX, not C++: Windows' headers lack it.
constexpr double kTwoPi = 6.283185307179586476925286766559;

using uniform_fn = void (*)(const Tensor& self, double from, double to);
using normal_fn = void (*)(const Tensor& self, double mean, double std);
using arange_fn = void (*)(const Tensor& result, const Scalar& start, const Scalar& step);
using random_fn = void (*)(const Tensor& self, int64_t from, int64_t to);
using bernoulli_scalar_fn = void (*)(const Tensor& self, double p);

DECLARE_DISPATCH(uniform_fn, uniform_stub);
DECLARE_DISPATCH(normal_fn, normal_stub);
// Integers uniform on [from, to).
DECLARE_DISPATCH(random_fn, random_stub);
// 1 with probability p, else 0 (CPU only: elsewhere bernoulli_ compares uniforms).
DECLARE_DISPATCH(bernoulli_scalar_fn, bernoulli_scalar_stub);
// Not random, but like the others it fills a fresh tensor element by element.
DECLARE_DISPATCH(arange_fn, arange_stub);

}  // namespace at::native
