// CPU loops of the binary arithmetic ops (comparisons, logical and bitwise
// ops are in LogicalOpsKernel.cpp); the scalar math is in
// native/BinaryFunctors.h, shared with the CUDA kernels. Operands arrive in
// one dtype (TensorIterator promoted them), so each kernel is one dispatch.
#include <ATen/Dispatch.h>
#include <ATen/native/BinaryFunctors.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/VecMath.h>

#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

void add_kernel(TensorIterator& iter, const Scalar& alpha) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "add", [&] {
    // alpha must fit the dtype (float16 refuses 70000, as PyTorch does) but
    // is applied in opmath_t: float16/bfloat16 round once, as PyTorch's
    // vectorised loop does (its scalar loop rounds alpha * b first).
    using M = c10::opmath_t<scalar_t>;
    (void)alpha.to<scalar_t>();
    const M a = alpha.to<M>();
    if (a == M(1)) {
      cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return x + y; });
    } else {
      cpu_kernel(iter, [a](scalar_t x, scalar_t y) -> scalar_t { return add_scaled(x, y, a); });
    }
  });
}

// A float16/bfloat16 tensor times or over one value: as in PyTorch, the value
// is taken in float as the caller gave it, not rounded to the tensor's dtype
// first (float16 `h * 70000` is not `h * inf`, `h / 70000` not `h / inf`).
// False when the iterator is not such a case.
template <typename Op>
bool reduced_float_by_scalar(TensorIterator& iter, const Op& op) {
  const ScalarType t = iter.common_dtype();
  if ((t != ScalarType::Half && t != ScalarType::BFloat16) || !iter.is_scalar(2) || iter.numel() == 0) return false;
  const float b = iter.original_scalar_value(2).to_unchecked<float>();
  auto run = [&](auto tag) {
    using scalar_t = decltype(tag);
    cpu_kernel(iter, [b, op](scalar_t a, scalar_t) -> scalar_t { return scalar_t(op(float(a), b)); });
  };
  if (t == ScalarType::Half) run(c10::Half());
  else run(c10::BFloat16());
  return true;
}

void mul_kernel(TensorIterator& iter) {
  if (reduced_float_by_scalar(iter, [](float a, float b) { return a * b; })) return;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "mul", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return multiply(x, y); });
  });
}

void div_true_kernel(TensorIterator& iter) {
  if (reduced_float_by_scalar(iter, [](float a, float b) { return a / b; })) return;
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "div_true", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return x / y; });
  });
}

void div_trunc_kernel(TensorIterator& iter) {
  if (reduced_float_by_scalar(iter, [](float a, float b) { return std::trunc(a / b); })) return;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "div_trunc", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return trunc_divide(x, y); });
  });
}

// float32 rows with a dense output and operands that are dense or one number
// (stride 0) go to VecMath's loop `dense`; other float32 rows to the scalar
// `op`. False (nothing done) unless all three tensors are float32.
using float32_binary_loop = void (*)(const float*, int64_t, const float*, int64_t, float*, int64_t);

template <typename Op>
bool float32_rows(TensorIterator& iter, float32_binary_loop dense, const Op& op) {
  if (iter.dtype(0) != ScalarType::Float || iter.dtype(1) != ScalarType::Float || iter.dtype(2) != ScalarType::Float) {
    return false;
  }
  iter.for_each([&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    constexpr int64_t f = sizeof(float);
    for (int64_t j = 0; j < size1; ++j) {
      char* out = data[0] + j * strides[3];
      const char* a = data[1] + j * strides[4];
      const char* b = data[2] + j * strides[5];
      if (strides[0] == f && (strides[1] == f || strides[1] == 0) && (strides[2] == f || strides[2] == 0)) {
        dense(reinterpret_cast<const float*>(a), strides[1] / f, reinterpret_cast<const float*>(b), strides[2] / f,
              reinterpret_cast<float*>(out), size0);
        continue;
      }
      for (int64_t i = 0; i < size0; ++i) {
        *reinterpret_cast<float*>(out + i * strides[0]) = op(*reinterpret_cast<const float*>(a + i * strides[1]),
                                                             *reinterpret_cast<const float*>(b + i * strides[2]));
      }
    }
  });
  return true;
}

void div_floor_kernel(TensorIterator& iter) {
  if (reduced_float_by_scalar(iter, [](float a, float b) { return floor_divide(a, b); })) return;
  if (float32_rows(iter, &vec::floor_divide, [](float a, float b) { return floor_divide(a, b); })) return;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "div_floor", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return floor_divide(x, y); });
  });
}

// float32 and float64 rows with a contiguous base and output and a
// contiguous or single exponent go to VecMath's pow; other rows and types take power().
template <typename T>
bool vectorised_pow(TensorIterator& iter) {
  constexpr ScalarType kType = std::is_same_v<T, float> ? ScalarType::Float : ScalarType::Double;
  if (iter.dtype(0) != kType || iter.dtype(1) != kType || iter.dtype(2) != kType) return false;
  iter.for_each([](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    constexpr int64_t f = sizeof(T);
    for (int64_t j = 0; j < size1; ++j) {
      auto* out = reinterpret_cast<T*>(data[0] + j * strides[3]);
      const auto* base = reinterpret_cast<const T*>(data[1] + j * strides[4]);
      const auto* exp = reinterpret_cast<const T*>(data[2] + j * strides[5]);
      if (strides[0] == f && strides[1] == f && (strides[2] == f || strides[2] == 0)) {
        vec::pow(base, exp, strides[2] == 0 ? 0 : 1, out, size0);
        continue;
      }
      for (int64_t i = 0; i < size0; ++i) {
        *reinterpret_cast<T*>(reinterpret_cast<char*>(out) + i * strides[0]) =
            power(*reinterpret_cast<const T*>(reinterpret_cast<const char*>(base) + i * strides[1]),
                  *reinterpret_cast<const T*>(reinterpret_cast<const char*>(exp) + i * strides[2]));
      }
    }
  });
  return true;
}

void pow_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "pow", [&] {
    // A number exponent of 2 or +-0.5 is a square or a root, as in PyTorch
    // ((-inf) ** 0.5 is then NaN, where std::pow gives inf); float16 takes
    // std::pow throughout, as PyTorch's kernel for it does.
    using M = c10::opmath_t<scalar_t>;
    const bool number = iter.is_scalar(2) && c10::is_floating_v<scalar_t> && !std::is_same_v<scalar_t, c10::Half>;
    const M e = number ? M(*static_cast<const scalar_t*>(iter.input(1).data_ptr())) : M(0);
    // 3, -1 and -2 are products and a reciprocal, as PyTorch's optimised
    // scalar pow computes them (libm's pow per element was 17-19x slower).
    if (number && e == M(2)) {
      cpu_kernel(iter, [](scalar_t b, scalar_t) -> scalar_t { return b * b; });
    } else if (number && e == M(3)) {
      cpu_kernel(iter, [](scalar_t b, scalar_t) -> scalar_t { return M(b) * M(b) * M(b); });
    } else if (number && e == M(-1)) {
      cpu_kernel(iter, [](scalar_t b, scalar_t) -> scalar_t { return M(1) / M(b); });
    } else if (number && e == M(-2)) {
      cpu_kernel(iter, [](scalar_t b, scalar_t) -> scalar_t { return M(1) / (M(b) * M(b)); });
    } else if (number && e == M(0.5)) {
      cpu_kernel(iter, [](scalar_t b, scalar_t) -> scalar_t { return std::sqrt(M(b)); });
    } else if (number && e == M(-0.5)) {
      cpu_kernel(iter, [](scalar_t b, scalar_t) -> scalar_t { return M(1) / std::sqrt(M(b)); });
    } else if (!((std::is_same_v<scalar_t, float> || std::is_same_v<scalar_t, double>) &&
                 vectorised_pow<std::conditional_t<std::is_same_v<scalar_t, float>, float, double>>(iter))) {
      cpu_kernel(iter, [](scalar_t b, scalar_t e) -> scalar_t { return power(b, e); });
    }
  });
}

void remainder_kernel(TensorIterator& iter) {
  if (float32_rows(iter, &vec::remainder, [](float a, float b) { return remainder_of(a, b); })) return;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "remainder", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return remainder_of(x, y); });
  });
}

void fmod_kernel(TensorIterator& iter) {
  if (float32_rows(iter, &vec::fmod, [](float a, float b) { return fmod_of(a, b); })) return;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "fmod_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return fmod_of(x, y); });
  });
}

void hypot_kernel(TensorIterator& iter) {
  if (float32_rows(iter, &vec::hypot, [](float a, float b) { return hypot_of(a, b); })) return;
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "hypot_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return hypot_of(x, y); });
  });
}

void copysign_kernel(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "copysign_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return copysign_of(x, y); });
  });
}

void fmax_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "fmax_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return fextremum<scalar_t, true>(x, y); });
  });
}

void fmin_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "fmin_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return fextremum<scalar_t, false>(x, y); });
  });
}

void logaddexp_kernel(TensorIterator& iter) {
  if (float32_rows(iter, &vec::logaddexp, [](float a, float b) { return logaddexp_of<false>(a, b); })) return;
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "logaddexp_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return logaddexp_of<false>(x, y); });
  });
}

void logaddexp2_kernel(TensorIterator& iter) {
  if (float32_rows(iter, &vec::logaddexp2, [](float a, float b) { return logaddexp_of<true>(a, b); })) return;
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "logaddexp2_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return logaddexp_of<true>(x, y); });
  });
}

void xlogy_kernel(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "xlogy_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return xlogy_of(x, y); });
  });
}

void nextafter_kernel(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "nextafter_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return nextafter_of(x, y); });
  });
}

void heaviside_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "heaviside_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return heaviside_of(x, y); });
  });
}

void special_zeta_kernel(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "zeta_cpu", [&] {
    cpu_kernel(iter, [](scalar_t s, scalar_t q) -> scalar_t { return zeta_of(s, q); });
  });
}

void atan2_kernel(TensorIterator& iter) {
  // Dense float32 goes through VecMath's vectorised loop.
  if (iter.common_dtype() == ScalarType::Float && iter.is_contiguous() && iter.dtype(0) == ScalarType::Float &&
      iter.dtype(1) == ScalarType::Float && iter.dtype(2) == ScalarType::Float) {
    iter.for_each([](char** data, const int64_t*, int64_t n, int64_t) {
      vec::atan2(reinterpret_cast<const float*>(data[1]), reinterpret_cast<const float*>(data[2]),
                 reinterpret_cast<float*>(data[0]), n);
    });
    return;
  }
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "atan2_cpu", [&] {
    cpu_kernel(iter, [](scalar_t y, scalar_t x) -> scalar_t { return atan2_of(y, x); });
  });
}

void gelu_backward_kernel(TensorIterator& iter, bool tanh_form) {
  // Dense float32 goes through VecMath's vectorised loops.
  if (iter.common_dtype() == ScalarType::Float && iter.is_contiguous() && iter.dtype(0) == ScalarType::Float &&
      iter.dtype(1) == ScalarType::Float && iter.dtype(2) == ScalarType::Float) {
    auto* loop = tanh_form ? &vec::gelu_tanh_backward : &vec::gelu_backward;
    iter.for_each([loop](char** data, const int64_t*, int64_t n, int64_t) {
      loop(reinterpret_cast<const float*>(data[1]), reinterpret_cast<const float*>(data[2]),
           reinterpret_cast<float*>(data[0]), n);
    });
    return;
  }
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "gelu_backward", [&] {
    cpu_kernel(iter, [tanh_form](scalar_t g, scalar_t x) -> scalar_t { return gelu_grad(g, x, tanh_form); });
  });
}

// float32 and float64 with number bounds (stride 0) and a dense input and
// output: the bounds read once and a branch-free loop the compiler widens.
// A NaN bound is the result everywhere but where x is NaN (clamp_value).
template <typename T>
bool clamp_with_fixed_bounds(TensorIterator& iter) {
  bool done = true;
  iter.for_each([&](char** data, const int64_t* strides, int64_t n, int64_t rows) {
    if (!done) return;
    if (rows != 1 || strides[0] != sizeof(T) || strides[1] != sizeof(T) || strides[2] != 0 || strides[3] != 0) {
      done = false;
      return;
    }
    const T lo = *reinterpret_cast<const T*>(data[2]), hi = *reinterpret_cast<const T*>(data[3]);
    if (std::isnan(lo) || std::isnan(hi)) {
      done = false;
      return;
    }
    const T* x = reinterpret_cast<const T*>(data[1]);
    T* y = reinterpret_cast<T*>(data[0]);
    for (int64_t i = 0; i < n; ++i) {
      const T a = x[i];
      const T up = a < lo ? lo : a;
      const T c = up > hi ? hi : up;
      y[i] = a != a ? a : c;
    }
  });
  return done;
}

void clamp_kernel(TensorIterator& iter) {
  // Tried only when every chunk will take it (a dense 1-D walk with both
  // bounds broadcast); a NaN bound, refused in the first chunk, falls back.
  const ScalarType t = iter.common_dtype();
  const int64_t size = t == ScalarType::Float ? 4 : 8;
  if ((t == ScalarType::Float || t == ScalarType::Double) && iter.ndim() == 1 && iter.dtype(0) == t &&
      iter.dtype(1) == t && iter.dtype(2) == t && iter.dtype(3) == t && iter.strides(0)[0] == size &&
      iter.strides(1)[0] == size && iter.strides(2)[0] == 0 && iter.strides(3)[0] == 0) {
    const bool done = t == ScalarType::Float ? clamp_with_fixed_bounds<float>(iter)
                                             : clamp_with_fixed_bounds<double>(iter);
    if (done) return;
  }
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "clamp_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t lo, scalar_t hi) -> scalar_t { return clamp_value(x, lo, hi); });
  });
}

void minimum_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "minimum", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return extremum<scalar_t, false>(x, y); });
  });
}

void maximum_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "maximum", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return extremum<scalar_t, true>(x, y); });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(remainder_stub, &remainder_kernel);
REGISTER_CPU_DISPATCH(atan2_stub, &atan2_kernel);
REGISTER_CPU_DISPATCH(special_zeta_stub, &special_zeta_kernel);
REGISTER_CPU_DISPATCH(fmod_stub, &fmod_kernel);
REGISTER_CPU_DISPATCH(hypot_stub, &hypot_kernel);
REGISTER_CPU_DISPATCH(copysign_stub, &copysign_kernel);
REGISTER_CPU_DISPATCH(fmax_stub, &fmax_kernel);
REGISTER_CPU_DISPATCH(fmin_stub, &fmin_kernel);
REGISTER_CPU_DISPATCH(logaddexp_stub, &logaddexp_kernel);
REGISTER_CPU_DISPATCH(logaddexp2_stub, &logaddexp2_kernel);
REGISTER_CPU_DISPATCH(xlogy_stub, &xlogy_kernel);
REGISTER_CPU_DISPATCH(nextafter_stub, &nextafter_kernel);
REGISTER_CPU_DISPATCH(heaviside_stub, &heaviside_kernel);
REGISTER_CPU_DISPATCH(minimum_stub, &minimum_kernel);
REGISTER_CPU_DISPATCH(clamp_stub, &clamp_kernel);
REGISTER_CPU_DISPATCH(maximum_stub, &maximum_kernel);
REGISTER_CPU_DISPATCH(gelu_backward_stub, &gelu_backward_kernel);
REGISTER_CPU_DISPATCH(add_stub, &add_kernel);
REGISTER_CPU_DISPATCH(mul_stub, &mul_kernel);
REGISTER_CPU_DISPATCH(div_true_stub, &div_true_kernel);
REGISTER_CPU_DISPATCH(div_trunc_stub, &div_trunc_kernel);
REGISTER_CPU_DISPATCH(div_floor_stub, &div_floor_kernel);
REGISTER_CPU_DISPATCH(pow_stub, &pow_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
