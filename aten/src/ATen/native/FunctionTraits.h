#pragma once
// function_traits<F>: the result and argument types of a kernel's scalar
// lambda, which tell cpu_kernel and gpu_kernel how to read and write the
// operands of a TensorIterator.
#include <cstddef>
#include <tuple>
#include <type_traits>

namespace at::native {

template <typename T>
struct function_traits : function_traits<decltype(&T::operator())> {};
template <typename C, typename R, typename... Args>
struct function_traits<R (C::*)(Args...) const> {
  using result_type = R;
  static constexpr size_t arity = sizeof...(Args);
  template <size_t i>
  using arg = std::decay_t<std::tuple_element_t<i, std::tuple<Args...>>>;
};

}  // namespace at::native
