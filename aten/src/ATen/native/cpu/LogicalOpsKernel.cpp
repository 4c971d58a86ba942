// CPU loops of the binary ops with bool or integer operands: comparisons,
// logical and bitwise ops, where and masked_fill (native/BinaryFunctors.h
// has their scalar math, shared with the CUDA kernels). Kept apart from the
// arithmetic in BinaryOpsKernel.cpp so that either file rebuilds quickly.
// Its wide copies hold every dtype (ATen/Dispatch.h): SSE2 has no 64-bit
// integer compare, and a bool result only vectorises with AVX2.
#define TORCH_WIDE_COPY_ANY_DTYPE
#include <ATen/Dispatch.h>
#include <ATen/native/BinaryFunctors.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/Select.h>  // where and masked_fill select without a branch

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

#define BITWISE_KERNEL(name, op)                                                     \
  void name##_kernel(TensorIterator& iter) {                                         \
    AT_DISPATCH_INTEGRAL_TYPES_AND_BOOL(iter.common_dtype(), #name "_cpu", [&] {     \
      cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return bitwise(x, y, op{}); }); \
    });                                                                              \
  }

BITWISE_KERNEL(bitwise_and, BitAnd)
BITWISE_KERNEL(bitwise_or, BitOr)
BITWISE_KERNEL(bitwise_xor, BitXor)
#undef BITWISE_KERNEL

// Integers only, as PyTorch's kernels (the names in their errors are PyTorch's).
#define INTEGER_KERNEL(name, label, fn)                                               \
  void name##_kernel(TensorIterator& iter) {                                         \
    AT_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), label, [&] {                     \
      cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return fn(x, y); }); \
    });                                                                              \
  }

INTEGER_KERNEL(bitwise_left_shift, "lshift_cpu", shift_left)
INTEGER_KERNEL(bitwise_right_shift, "rshift_cpu", shift_right)
INTEGER_KERNEL(gcd, "gcd_cpu", gcd_of)
INTEGER_KERNEL(lcm, "lcm_cpu", lcm_of)
#undef INTEGER_KERNEL

// Bool results computed on the promoted inputs (native/BinaryFunctors.h);
// or 0 and 1 in the inputs' dtype where an in-place form writes into a
// tensor of that dtype (BinaryOps.cpp predicate_inplace).
template <typename Formula>
void predicate_loop(TensorIterator& iter, const char* name) {
  if (iter.dtype(0) != ScalarType::Bool) {
    AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), name, [&] {
      cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t {
        return static_cast<scalar_t>(apply_predicate<Formula>(x, y) ? 1 : 0);
      });
    });
    return;
  }
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), name, [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> bool { return apply_predicate<Formula>(x, y); });
  });
}

void eq_kernel(TensorIterator& iter) { predicate_loop<eq_formula>(iter, "eq"); }
void ne_kernel(TensorIterator& iter) { predicate_loop<ne_formula>(iter, "ne"); }
void lt_kernel(TensorIterator& iter) { predicate_loop<lt_formula>(iter, "lt"); }
void le_kernel(TensorIterator& iter) { predicate_loop<le_formula>(iter, "le"); }
void gt_kernel(TensorIterator& iter) { predicate_loop<gt_formula>(iter, "gt"); }
void ge_kernel(TensorIterator& iter) { predicate_loop<ge_formula>(iter, "ge"); }
void logical_and_kernel(TensorIterator& iter) { predicate_loop<logical_and_formula>(iter, "logical_and"); }
void logical_or_kernel(TensorIterator& iter) { predicate_loop<logical_or_formula>(iter, "logical_or"); }
void logical_xor_kernel(TensorIterator& iter) { predicate_loop<logical_xor_formula>(iter, "logical_xor"); }

void where_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.dtype(1), "where", [&] {
    cpu_kernel(iter, [](scalar_t a, scalar_t b, bool c) -> scalar_t { return select_bits(c, a, b); });
  });
}

void masked_fill_kernel(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.dtype(0), "masked_fill", [&] {
    const scalar_t v = value.to<scalar_t>();
    cpu_kernel(iter, [v](scalar_t x, bool m) -> scalar_t { return select_bits(m, v, x); });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(bitwise_and_stub, &bitwise_and_kernel);
REGISTER_CPU_DISPATCH(bitwise_left_shift_stub, &bitwise_left_shift_kernel);
REGISTER_CPU_DISPATCH(bitwise_right_shift_stub, &bitwise_right_shift_kernel);
REGISTER_CPU_DISPATCH(gcd_stub, &gcd_kernel);
REGISTER_CPU_DISPATCH(lcm_stub, &lcm_kernel);
REGISTER_CPU_DISPATCH(bitwise_or_stub, &bitwise_or_kernel);
REGISTER_CPU_DISPATCH(bitwise_xor_stub, &bitwise_xor_kernel);
REGISTER_CPU_DISPATCH(eq_stub, &eq_kernel);
REGISTER_CPU_DISPATCH(ne_stub, &ne_kernel);
REGISTER_CPU_DISPATCH(lt_stub, &lt_kernel);
REGISTER_CPU_DISPATCH(le_stub, &le_kernel);
REGISTER_CPU_DISPATCH(gt_stub, &gt_kernel);
REGISTER_CPU_DISPATCH(ge_stub, &ge_kernel);
REGISTER_CPU_DISPATCH(logical_and_stub, &logical_and_kernel);
REGISTER_CPU_DISPATCH(logical_or_stub, &logical_or_kernel);
REGISTER_CPU_DISPATCH(logical_xor_stub, &logical_xor_kernel);
REGISTER_CPU_DISPATCH(where_stub, &where_kernel);
REGISTER_CPU_DISPATCH(masked_fill_stub, &masked_fill_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
