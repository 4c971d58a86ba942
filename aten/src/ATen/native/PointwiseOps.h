#pragma once
// The three-input pointwise ops that optimizers are written in: addcmul,
// addcdiv and lerp. Checks and type promotion in PointwiseOps.cpp, loops in
// cpu/PointwiseOpsKernel.cpp and cuda/PointwiseOpsKernel.cu, the scalar math
// (shared by both) below.
#include <ATen/TensorIterator.h>
#include <ATen/native/DispatchStub.h>
#include <c10/util/Half.h>

#include <cmath>
#include <type_traits>

namespace at::native {

// iter: output, self, tensor1, tensor2; the Scalar is `value`.
using pointwise_value_fn = void (*)(TensorIterator& iter, const Scalar& value);
DECLARE_DISPATCH(pointwise_value_fn, addcmul_stub);
DECLARE_DISPATCH(pointwise_value_fn, addcdiv_stub);
// iter: output, self, end; the Scalar is the weight.
DECLARE_DISPATCH(pointwise_value_fn, lerp_scalar_stub);
// iter: output, self, end, weight.
using pointwise_fn = void (*)(TensorIterator& iter);
DECLARE_DISPATCH(pointwise_fn, lerp_tensor_stub);

// self + value * t1 * t2, in that order, as PyTorch's kernels write it: in
// float for float16/bfloat16 (one rounding at the end), wrapping for integers.
// Not fused, as add's alpha is not (see cpu/Loops.h).
template <typename T, typename M>
C10_HOST_DEVICE T addcmul_formula(T self, T t1, T t2, M value) {
  if constexpr (c10::is_floating_v<T>) {
    return T(M(self) + value * M(t1) * M(t2));
  } else if constexpr (std::is_same_v<T, bool>) {
    return self;  // not dispatched: PyTorch has no bool addcmul
  } else {
    using U = std::make_unsigned_t<T>;  // two's complement wrap, no signed overflow
    return static_cast<T>(static_cast<U>(static_cast<U>(self) +
                                         static_cast<U>(static_cast<U>(value) * static_cast<U>(t1)) *
                                             static_cast<U>(t2)));
  }
}

// self + value * t1 / t2 (floating results only: integer operands are refused).
template <typename T, typename M>
C10_HOST_DEVICE T addcdiv_formula(T self, T t1, T t2, M value) {
  return T(M(self) + value * M(t1) / M(t2));
}

// PyTorch's lerp, as its vectorised kernel defines it: one fused multiply-add
// from whichever end is nearer the weight, so that weight 1 gives `end`
// exactly and the error stays small across [0, 1]. std::fma rounds once on
// every CPU and GPU (an instruction where the loop's target has FMA).
template <typename T, typename M>
C10_HOST_DEVICE T lerp_formula(T self, T end, M weight) {
  const M s = M(self), e = M(end);
  const M w_abs = weight < M(0) ? -weight : weight;
  return T(w_abs < M(0.5) ? std::fma(weight, e - s, s) : std::fma(weight - M(1), e - s, e));
}

}  // namespace at::native
