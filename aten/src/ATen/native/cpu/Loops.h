#pragma once
// cpu_kernel(iter, op): runs a scalar lambda over a TensorIterator.
// op takes one argument per input and returns the output value; its argument
// and result types say how to read and write the operands. When every operand
// is contiguous (or a broadcast scalar) the loop is a plain indexed loop that
// the compiler vectorises, as wide as the capability this kernel file's copy
// is compiled for (cmake/CpuCapabilities.cmake).
#include <ATen/Dispatch.h>
#include <ATen/TensorIterator.h>
#include <ATen/native/FunctionTraits.h>
#include <c10/util/Half.h>

#include <tuple>
#include <type_traits>
#include <utility>

namespace at::native {

namespace detail {

// Operand k+1 (an input) at element i: either strided, or contiguous, or
// one value for the whole loop (stride 0).
template <typename traits, typename op_t, size_t... I>
inline void strided_loop(char** data, const int64_t* strides, int64_t n, const op_t& op,
                         std::index_sequence<I...>) {
  using out_t = typename traits::result_type;
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<out_t*>(data[0] + i * strides[0]) =
        op(*reinterpret_cast<const typename traits::template arg<I>*>(data[I + 1] + i * strides[I + 1])...);
  }
}

// `scalar_mask` bit k set: input k is the same value for every i.
template <typename traits, typename op_t, size_t... I>
inline void contiguous_loop(char** data, int64_t n, int scalar_mask,
                                                                const op_t& op, std::index_sequence<I...>) {
  using out_t = typename traits::result_type;
  out_t* out = reinterpret_cast<out_t*>(data[0]);
  if (scalar_mask == 0) {
    std::tuple<const typename traits::template arg<I>*...> in{
        reinterpret_cast<const typename traits::template arg<I>*>(data[I + 1])...};
    for (int64_t i = 0; i < n; ++i) out[i] = op(std::get<I>(in)[i]...);
    return;
  }
  if constexpr (sizeof...(I) == 2) {
    using a_t = typename traits::template arg<0>;
    using b_t = typename traits::template arg<1>;
    const a_t* a = reinterpret_cast<const a_t*>(data[1]);
    const b_t* b = reinterpret_cast<const b_t*>(data[2]);
    if (scalar_mask == 2) {
      const b_t bv = *b;
      for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], bv);
      return;
    }
    if (scalar_mask == 1) {
      const a_t av = *a;
      for (int64_t i = 0; i < n; ++i) out[i] = op(av, b[i]);
      return;
    }
  }
  int64_t strides[sizeof...(I) + 1] = {sizeof(out_t),
                                       ((scalar_mask >> I) & 1 ? 0 : int64_t(sizeof(typename traits::template arg<I>)))...};
  strided_loop<traits>(data, strides, n, op, std::index_sequence<I...>{});
}

// Whether the inner dimension is contiguous for every operand that moves,
// and which inputs do not move at all (bit k of *scalar_mask).
template <typename traits, size_t... I>
inline bool classify_inner_dim(const int64_t* strides, int* scalar_mask, std::index_sequence<I...>) {
  bool contiguous = strides[0] == static_cast<int64_t>(sizeof(typename traits::result_type));
  ((strides[I + 1] == 0
        ? static_cast<void>(*scalar_mask |= 1 << I)
        : static_cast<void>(contiguous = contiguous &&
                                         strides[I + 1] == int64_t(sizeof(typename traits::template arg<I>)))),
   ...);
  return contiguous;
}

}  // namespace detail

// Whether the loop reads and writes floating types only. The AVX2 and
// AVX512 copies of the kernel files compile only such loops, and only their
// contiguous rows: DispatchStub sends every other iterator to the DEFAULT
// copy (native/DispatchStub.h).
template <typename traits, size_t... I>
constexpr bool floating_loop(std::index_sequence<I...>) {
  return c10::is_floating_v<typename traits::result_type> && (c10::is_floating_v<typename traits::template arg<I>> && ...);
}

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
constexpr bool kWideCopy = true;
#else
constexpr bool kWideCopy = false;
#endif

namespace detail {

template <typename traits, typename op_t>
void run_loops(TensorIterator& iter, const op_t& op, int64_t grain_size) {
  constexpr size_t arity = traits::arity;
  using Indices = std::make_index_sequence<arity>;
  iter.for_each(
      [&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
        const int nt = static_cast<int>(arity) + 1;
        int scalar_mask = 0;
        const bool contiguous = classify_inner_dim<traits>(strides, &scalar_mask, Indices{});
        char* ptrs[arity + 1];
        for (int64_t j = 0; j < size1; ++j) {
          for (int k = 0; k < nt; ++k) ptrs[k] = data[k] + j * strides[nt + k];
          if (contiguous) {
            contiguous_loop<traits>(ptrs, size0, scalar_mask, op, Indices{});
          } else {
            if constexpr (kWideCopy) {
              wide_copy_reached("a strided row");
            } else {
              strided_loop<traits>(ptrs, strides, size0, op, Indices{});
            }
          }
        }
      },
      grain_size);
}

}  // namespace detail

template <typename op_t>
void cpu_kernel(TensorIterator& iter, const op_t& op, int64_t grain_size = 32768) {
  using traits = function_traits<op_t>;
  if constexpr (kWideCopy && !floating_loop<traits>(std::make_index_sequence<traits::arity>{})) {
    wide_copy_reached("a loop over non-floating types");
  } else {
    detail::run_loops<traits>(iter, op, grain_size);
  }
}

}  // namespace at::native
