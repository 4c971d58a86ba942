// Dense dtype conversions (x.float(), x.half(), mask.to(x.dtype), a
// comparison written in place into a float tensor): one plain loop per
// (dst, src) pair, compiled in every capability's copy so the wide ones
// vectorise them. The switch below stands in for AT_DISPATCH, whose
// non-floating cases the wide copies leave out (ATen/Dispatch.h).
#include <ATen/native/Copy.h>
#include <ATen/native/UnaryFunctors.h>
#include <c10/util/Half.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
#include <immintrin.h>
#endif

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// Reads bool storage as its bytes, 0 or 1 as every writer of a bool tensor
// leaves them: the byte loop vectorises where the compiler keeps a loop
// over C++ bools scalar.
template <typename S>
struct Load {
  using type = S;
  static S at(const S* in, int64_t i) { return in[i]; }
};
template <>
struct Load<bool> {
  using type = uint8_t;
  static uint8_t at(const uint8_t* in, int64_t i) { return in[i]; }
};

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
// float16 goes through float with F16C, eight at a time (rounding to
// nearest even, as c10::Half does): src -> float block -> float16, and
// float16 -> float block -> dst. The same values as converting one by one.
constexpr int64_t kBlock = 256;

inline void floats_to_half(const float* x, uint16_t* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  for (; i < n; ++i) y[i] = c10::Half(x[i]).x;
}

inline void half_to_floats(const uint16_t* x, float* y, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(y + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i))));
  for (; i < n; ++i) y[i] = static_cast<float>(c10::Half::from_bits(x[i]));
}
#endif

template <typename D, typename S>
void convert_loop(void* out, const void* in, int64_t n) {
  D* y = static_cast<D*>(out);
  const auto* x = static_cast<const typename Load<S>::type*>(in);
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
  if constexpr (std::is_same_v<D, c10::Half> && std::is_same_v<S, float>) {
    floats_to_half(x, reinterpret_cast<uint16_t*>(y), n);
    return;
  } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, c10::Half>) {
    half_to_floats(reinterpret_cast<const uint16_t*>(x), y, n);
    return;
  } else if constexpr (std::is_same_v<D, c10::Half>) {
    float block[kBlock];
    for (int64_t start = 0; start < n; start += kBlock) {
      const int64_t len = std::min(kBlock, n - start);
      for (int64_t k = 0; k < len; ++k) block[k] = convert<float>(Load<S>::at(x, start + k));
      floats_to_half(block, reinterpret_cast<uint16_t*>(y + start), len);
    }
    return;
  } else if constexpr (std::is_same_v<S, c10::Half>) {
    float block[kBlock];
    for (int64_t start = 0; start < n; start += kBlock) {
      const int64_t len = std::min(kBlock, n - start);
      half_to_floats(reinterpret_cast<const uint16_t*>(x + start), block, len);
      for (int64_t k = 0; k < len; ++k) y[start + k] = convert<D>(block[k]);
    }
    return;
  }
#endif
  if constexpr (std::is_same_v<D, uint8_t> && c10::is_floating_v<S>) {
    // A float to uint8 goes through int64, as PyTorch's cast does: -3.0 is
    // 253, the same in every capability's copy. The direct cast is undefined
    // for a negative value, and clang's vector and scalar code disagree on it.
    // A tile whose values all lie strictly within int32's range truncates
    // through int32 instead: the same low byte, and a packed conversion (x86
    // has no packed float to int64 before AVX-512DQ, so the int64 loop stays
    // scalar: 7x slower). NaN or a larger value sends its tile to int64's loop.
    using F = std::conditional_t<std::is_same_v<S, double>, double, float>;
    constexpr int64_t kTile = 256;
    const F lo = F(-2147483648.0), hi = F(2147483648.0);
    for (int64_t start = 0; start < n; start += kTile) {
      const int64_t len = std::min(kTile, n - start);
      const auto* xs = x + start;
      D* ys = y + start;
      int in_range = 1;
      for (int64_t k = 0; k < len; ++k) {
        const F v = static_cast<F>(xs[k]);
        in_range &= static_cast<int>(v > lo) & static_cast<int>(v < hi);
      }
      if (in_range) {
        for (int64_t k = 0; k < len; ++k) ys[k] = static_cast<D>(static_cast<int32_t>(static_cast<F>(xs[k])));
      } else {
        for (int64_t k = 0; k < len; ++k) ys[k] = static_cast<D>(static_cast<int64_t>(static_cast<F>(xs[k])));
      }
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) y[i] = convert<D>(Load<S>::at(x, i));
}

using loop_fn = void (*)(void*, const void*, int64_t);

template <typename D>
loop_fn loop_from(ScalarType src) {
  switch (src) {
    case ScalarType::Bool: return &convert_loop<D, bool>;
    case ScalarType::Byte: return &convert_loop<D, uint8_t>;
    case ScalarType::Char: return &convert_loop<D, int8_t>;
    case ScalarType::Short: return &convert_loop<D, int16_t>;
    case ScalarType::Int: return &convert_loop<D, int32_t>;
    case ScalarType::Long: return &convert_loop<D, int64_t>;
    case ScalarType::Half: return &convert_loop<D, c10::Half>;
    case ScalarType::BFloat16: return &convert_loop<D, c10::BFloat16>;
    case ScalarType::Float: return &convert_loop<D, float>;
    case ScalarType::Double: return &convert_loop<D, double>;
    default: return nullptr;
  }
}

loop_fn loop_for(ScalarType dst, ScalarType src) {
  switch (dst) {
    case ScalarType::Bool: return loop_from<bool>(src);
    case ScalarType::Byte: return loop_from<uint8_t>(src);
    case ScalarType::Char: return loop_from<int8_t>(src);
    case ScalarType::Short: return loop_from<int16_t>(src);
    case ScalarType::Int: return loop_from<int32_t>(src);
    case ScalarType::Long: return loop_from<int64_t>(src);
    case ScalarType::Half: return loop_from<c10::Half>(src);
    case ScalarType::BFloat16: return loop_from<c10::BFloat16>(src);
    case ScalarType::Float: return loop_from<float>(src);
    case ScalarType::Double: return loop_from<double>(src);
    default: return nullptr;
  }
}

bool convert_contiguous(ScalarType dst, ScalarType src, void* out, const void* in, int64_t n) {
  const loop_fn loop = loop_for(dst, src);
  if (loop == nullptr) return false;
  loop(out, in, n);
  return true;
}

}  // namespace

REGISTER_CPU_DISPATCH(convert_contiguous_stub, &convert_contiguous);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
