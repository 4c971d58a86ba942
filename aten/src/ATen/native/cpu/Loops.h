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

// Inputs whose bit is set in Mask hold one value for the whole row (stride
// 0), read once before the loop; the others are contiguous. Mask is a
// template argument so that the loop body has no per-element choice and the
// compiler vectorises it.
template <typename traits, int Mask, typename op_t, size_t... I>
inline void broadcast_loop(char** data, int64_t n, const op_t& op, std::index_sequence<I...>) {
  using out_t = typename traits::result_type;
  out_t* out = reinterpret_cast<out_t*>(data[0]);
  const std::tuple<const typename traits::template arg<I>*...> in{
      reinterpret_cast<const typename traits::template arg<I>*>(data[I + 1])...};
  const std::tuple<typename traits::template arg<I>...> held{
      ((Mask >> I) & 1 ? *std::get<I>(in) : typename traits::template arg<I>{})...};
  for (int64_t i = 0; i < n; ++i) out[i] = op(((Mask >> I) & 1 ? std::get<I>(held) : std::get<I>(in)[i])...);
}

// Runs broadcast_loop with the Mask equal to `scalar_mask`.
template <typename traits, typename op_t, size_t... I, int... M>
inline void broadcast_loop_for(int scalar_mask, char** data, int64_t n, const op_t& op,
                               std::index_sequence<I...> inputs, std::integer_sequence<int, M...>) {
  static_cast<void>(((scalar_mask == M && (broadcast_loop<traits, M>(data, n, op, inputs), true)) || ...));
}

// `scalar_mask` bit k set: input k is the same value for every i. Loops of
// up to three inputs get a compiled loop per mask (at most 8); wider ones
// with a broadcast input take the strided loop.
template <typename traits, typename op_t, size_t... I>
inline void contiguous_loop(char** data, int64_t n, int scalar_mask,
                                                                const op_t& op, std::index_sequence<I...> inputs) {
  if (n <= 0) return;
  if constexpr (sizeof...(I) <= 3) {
    broadcast_loop_for<traits>(scalar_mask, data, n, op, inputs, std::make_integer_sequence<int, (1 << sizeof...(I))>{});
  } else {
    using out_t = typename traits::result_type;
    int64_t strides[sizeof...(I) + 1] = {sizeof(out_t),
                                         ((scalar_mask >> I) & 1 ? 0 : int64_t(sizeof(typename traits::template arg<I>)))...};
    strided_loop<traits>(data, strides, n, op, inputs);
  }
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

// Whether the loop reads and writes floating types, or bools beside at least
// one floating input (comparisons, where, masked_fill). The AVX2 and AVX512
// copies of the kernel files compile only such loops, and only their
// contiguous rows: DispatchStub sends every other iterator to the DEFAULT
// copy (native/DispatchStub.h).
template <typename T>
constexpr bool floating_or_bool_v = c10::is_floating_v<T> || std::is_same_v<T, bool>;
template <typename traits, size_t... I>
constexpr bool floating_loop(std::index_sequence<I...>) {
  return floating_or_bool_v<typename traits::result_type> &&
         (floating_or_bool_v<typename traits::template arg<I>> && ...) &&
         (c10::is_floating_v<typename traits::result_type> || (c10::is_floating_v<typename traits::template arg<I>> || ...));
}

#if (defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)) && !defined(TORCH_WIDE_COPY_ANY_DTYPE)
constexpr bool kWideCopy = true;  // floating loops only: the file's other cases are not compiled here
#else
constexpr bool kWideCopy = false;
#endif
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
constexpr bool kWideRowsOnly = true;  // contiguous rows only (wide_copy_applies)
#else
constexpr bool kWideRowsOnly = false;
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
            if constexpr (kWideRowsOnly) {
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
