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
// Box-Muller for float32 (cpu/BoxMullerKernel.cpp): pairs (u[2i], u[2i+1])
// of uniforms on [0, 1) become out[2i] = mean + std r cos t and out[2i+1] =
// mean + std r sin t, r = sqrt(-2 log(1 - u[2i])), t = 2 pi u[2i+1]; n may be
// odd (the last pair's sine unused). Plain pointers: the widest capability's
// copy runs it, with the vectorised log, sin and cos of VecMath.
using box_muller_float_fn = void (*)(const double* u, float* out, int64_t n, double mean, double std);
DECLARE_DISPATCH(box_muller_float_fn, box_muller_float_stub);
// Not random, but like the others it fills a fresh tensor element by element.
DECLARE_DISPATCH(arange_fn, arange_stub);

}  // namespace at::native
