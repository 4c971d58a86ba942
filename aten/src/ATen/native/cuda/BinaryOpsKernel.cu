// CUDA loops of the binary pointwise ops: the CPU file's structure, the
// shared scalar math of native/BinaryFunctors.h, gpu_kernel for the loop.
#include <ATen/Dispatch.h>
#include <ATen/native/BinaryFunctors.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

void add_kernel_cuda(TensorIterator& iter, const Scalar& alpha) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "add_cuda", [&] {
    (void)alpha.to<scalar_t>();  // must fit the dtype, as on the CPU
    const c10::opmath_t<scalar_t> a = alpha.to<c10::opmath_t<scalar_t>>();
    gpu_kernel(iter, [a] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return add_scaled(x, y, a); });
  });
}

void mul_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "mul_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return multiply(x, y); });
  });
}

void div_true_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "div_true_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t {
      using M = c10::opmath_t<scalar_t>;
      return M(x) / M(y);
    });
  });
}

void div_trunc_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "div_trunc_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return trunc_divide(x, y); });
  });
}

void div_floor_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "div_floor_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return floor_divide(x, y); });
  });
}

void pow_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "pow_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t b, scalar_t e) -> scalar_t { return power(b, e); });
  });
}

void remainder_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "remainder_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return remainder_of(x, y); });
  });
}

void clamp_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "clamp_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t lo, scalar_t hi) -> scalar_t { return clamp_value(x, lo, hi); });
  });
}

void minimum_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "minimum_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return extremum<scalar_t, false>(x, y); });
  });
}

void maximum_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "maximum_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return extremum<scalar_t, true>(x, y); });
  });
}

#define BITWISE_KERNEL(name, op)                                                                        \
  void name##_kernel_cuda(TensorIterator& iter) {                                                      \
    AT_DISPATCH_INTEGRAL_TYPES_AND_BOOL(iter.common_dtype(), #name "_cuda", [&] {                      \
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return bitwise(x, y, op{}); }); \
    });                                                                                                \
  }

BITWISE_KERNEL(bitwise_and, BitAnd)
BITWISE_KERNEL(bitwise_or, BitOr)
BITWISE_KERNEL(bitwise_xor, BitXor)
#undef BITWISE_KERNEL

#define INTEGER_KERNEL(name, label, fn)                                                      \
  void name##_kernel_cuda(TensorIterator& iter) {                                           \
    AT_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), label, [&] {                            \
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return fn(x, y); }); \
    });                                                                                     \
  }

INTEGER_KERNEL(bitwise_left_shift, "lshift_cuda", shift_left)
INTEGER_KERNEL(bitwise_right_shift, "rshift_cuda", shift_right)
INTEGER_KERNEL(gcd, "gcd_cuda", gcd_of)
INTEGER_KERNEL(lcm, "lcm_cuda", lcm_of)
#undef INTEGER_KERNEL

// Bool results computed on the promoted inputs (native/BinaryFunctors.h).
template <typename Formula>
void predicate_loop(TensorIterator& iter, const char* name) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), name, [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> bool { return apply_predicate<Formula>(x, y); });
  });
}

void eq_kernel_cuda(TensorIterator& iter) { predicate_loop<eq_formula>(iter, "eq_cuda"); }
void ne_kernel_cuda(TensorIterator& iter) { predicate_loop<ne_formula>(iter, "ne_cuda"); }
void lt_kernel_cuda(TensorIterator& iter) { predicate_loop<lt_formula>(iter, "lt_cuda"); }
void le_kernel_cuda(TensorIterator& iter) { predicate_loop<le_formula>(iter, "le_cuda"); }
void gt_kernel_cuda(TensorIterator& iter) { predicate_loop<gt_formula>(iter, "gt_cuda"); }
void ge_kernel_cuda(TensorIterator& iter) { predicate_loop<ge_formula>(iter, "ge_cuda"); }
void logical_and_kernel_cuda(TensorIterator& iter) { predicate_loop<logical_and_formula>(iter, "logical_and_cuda"); }
void logical_or_kernel_cuda(TensorIterator& iter) { predicate_loop<logical_or_formula>(iter, "logical_or_cuda"); }
void logical_xor_kernel_cuda(TensorIterator& iter) { predicate_loop<logical_xor_formula>(iter, "logical_xor_cuda"); }

void gelu_backward_kernel_cuda(TensorIterator& iter, bool tanh_form) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "gelu_backward_cuda", [&] {
    gpu_kernel(iter, [tanh_form] GPU_LAMBDA(scalar_t g, scalar_t x) -> scalar_t { return gelu_grad(g, x, tanh_form); });
  });
}

void where_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.dtype(1), "where_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b, bool c) -> scalar_t { return c ? a : b; });
  });
}

void masked_fill_kernel_cuda(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.dtype(0), "masked_fill_cuda", [&] {
    const scalar_t v = value.to<scalar_t>();
    gpu_kernel(iter, [v] GPU_LAMBDA(scalar_t x, bool m) -> scalar_t { return m ? v : x; });
  });
}

void fmod_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "fmod_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return fmod_of(x, y); });
  });
}

void hypot_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "hypot_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return hypot_of(x, y); });
  });
}

void copysign_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "copysign_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return copysign_of(x, y); });
  });
}

void fmax_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "fmax_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return fextremum<scalar_t, true>(x, y); });
  });
}

void fmin_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "fmin_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return fextremum<scalar_t, false>(x, y); });
  });
}

void logaddexp_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "logaddexp_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return logaddexp_of<false>(x, y); });
  });
}

void logaddexp2_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "logaddexp2_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return logaddexp_of<true>(x, y); });
  });
}

void xlogy_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "xlogy_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return xlogy_of(x, y); });
  });
}

void nextafter_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "nextafter_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return nextafter_of(x, y); });
  });
}

void heaviside_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "heaviside_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t y) -> scalar_t { return heaviside_of(x, y); });
  });
}

void special_zeta_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "zeta_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t s, scalar_t q) -> scalar_t { return zeta_of(s, q); });
  });
}

void atan2_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "atan2_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t y, scalar_t x) -> scalar_t { return atan2_of(y, x); });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(add_stub, &add_kernel_cuda);
REGISTER_CUDA_DISPATCH(gelu_backward_stub, &gelu_backward_kernel_cuda);
REGISTER_CUDA_DISPATCH(mul_stub, &mul_kernel_cuda);
REGISTER_CUDA_DISPATCH(div_true_stub, &div_true_kernel_cuda);
REGISTER_CUDA_DISPATCH(div_trunc_stub, &div_trunc_kernel_cuda);
REGISTER_CUDA_DISPATCH(div_floor_stub, &div_floor_kernel_cuda);
REGISTER_CUDA_DISPATCH(pow_stub, &pow_kernel_cuda);
REGISTER_CUDA_DISPATCH(remainder_stub, &remainder_kernel_cuda);
REGISTER_CUDA_DISPATCH(atan2_stub, &atan2_kernel_cuda);
REGISTER_CUDA_DISPATCH(special_zeta_stub, &special_zeta_kernel_cuda);
REGISTER_CUDA_DISPATCH(fmod_stub, &fmod_kernel_cuda);
REGISTER_CUDA_DISPATCH(hypot_stub, &hypot_kernel_cuda);
REGISTER_CUDA_DISPATCH(copysign_stub, &copysign_kernel_cuda);
REGISTER_CUDA_DISPATCH(fmax_stub, &fmax_kernel_cuda);
REGISTER_CUDA_DISPATCH(fmin_stub, &fmin_kernel_cuda);
REGISTER_CUDA_DISPATCH(logaddexp_stub, &logaddexp_kernel_cuda);
REGISTER_CUDA_DISPATCH(logaddexp2_stub, &logaddexp2_kernel_cuda);
REGISTER_CUDA_DISPATCH(xlogy_stub, &xlogy_kernel_cuda);
REGISTER_CUDA_DISPATCH(nextafter_stub, &nextafter_kernel_cuda);
REGISTER_CUDA_DISPATCH(heaviside_stub, &heaviside_kernel_cuda);
REGISTER_CUDA_DISPATCH(minimum_stub, &minimum_kernel_cuda);
REGISTER_CUDA_DISPATCH(clamp_stub, &clamp_kernel_cuda);
REGISTER_CUDA_DISPATCH(maximum_stub, &maximum_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_and_stub, &bitwise_and_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_left_shift_stub, &bitwise_left_shift_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_right_shift_stub, &bitwise_right_shift_kernel_cuda);
REGISTER_CUDA_DISPATCH(gcd_stub, &gcd_kernel_cuda);
REGISTER_CUDA_DISPATCH(lcm_stub, &lcm_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_or_stub, &bitwise_or_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_xor_stub, &bitwise_xor_kernel_cuda);
REGISTER_CUDA_DISPATCH(eq_stub, &eq_kernel_cuda);
REGISTER_CUDA_DISPATCH(ne_stub, &ne_kernel_cuda);
REGISTER_CUDA_DISPATCH(lt_stub, &lt_kernel_cuda);
REGISTER_CUDA_DISPATCH(le_stub, &le_kernel_cuda);
REGISTER_CUDA_DISPATCH(gt_stub, &gt_kernel_cuda);
REGISTER_CUDA_DISPATCH(ge_stub, &ge_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_and_stub, &logical_and_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_or_stub, &logical_or_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_xor_stub, &logical_xor_kernel_cuda);
REGISTER_CUDA_DISPATCH(where_stub, &where_kernel_cuda);
REGISTER_CUDA_DISPATCH(masked_fill_stub, &masked_fill_kernel_cuda);

}  // namespace at::native
