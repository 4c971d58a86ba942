#pragma once
// AT_DISPATCH_*(dtype, "op name", [&] { ... scalar_t ... }) runs the lambda
// with scalar_t bound to the C++ type of `dtype`, and raises
// NotImplementedError naming the op for a dtype outside the group.
#include <c10/core/ScalarType.h>
#include <c10/macros/Export.h>
#include <c10/util/Exception.h>

namespace at::native {
// Raises an internal error: a non-floating case ran in a wide kernel copy.
[[noreturn]] TORCH_API void wide_copy_reached(const char* what);
}  // namespace at::native

#define AT_DISPATCH_CASE_(enum_name, cpp_type, ...) \
  case ::c10::ScalarType::enum_name: {              \
    using scalar_t = cpp_type;                      \
    return __VA_ARGS__();                           \
  }

// float16 and bfloat16 are in every floating group: kernels compute them in
// float through their implicit conversions (c10/util/Half.h).
#define AT_FLOATING_CASES_(...)                          \
  AT_DISPATCH_CASE_(Float, float, __VA_ARGS__)           \
  AT_DISPATCH_CASE_(Double, double, __VA_ARGS__)         \
  AT_DISPATCH_CASE_(Half, ::c10::Half, __VA_ARGS__)      \
  AT_DISPATCH_CASE_(BFloat16, ::c10::BFloat16, __VA_ARGS__)
#if (defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)) && !defined(TORCH_WIDE_COPY_ANY_DTYPE)
// In the wide copies of the CPU kernels (cmake/CpuCapabilities.cmake) the
// integer and bool cases are not compiled: native/DispatchStub.h sends every
// call with a non-floating tensor to the DEFAULT copy. A kernel file that
// defines TORCH_WIDE_COPY_ANY_DTYPE before its includes compiles them all
// (its stubs: DEFINE_DISPATCH_FOR_ANY_OPERANDS).
#define AT_NONFLOATING_CASE_(enum_name, cpp_type, ...) \
  case ::c10::ScalarType::enum_name:                   \
    ::at::native::wide_copy_reached("a " #enum_name " dispatch case");
#else
#define AT_NONFLOATING_CASE_(enum_name, cpp_type, ...) AT_DISPATCH_CASE_(enum_name, cpp_type, __VA_ARGS__)
#endif
#define AT_INTEGRAL_CASES_(...)                        \
  AT_NONFLOATING_CASE_(Byte, uint8_t, __VA_ARGS__)     \
  AT_NONFLOATING_CASE_(Char, int8_t, __VA_ARGS__)      \
  AT_NONFLOATING_CASE_(Short, int16_t, __VA_ARGS__)    \
  AT_NONFLOATING_CASE_(Int, int32_t, __VA_ARGS__)      \
  AT_NONFLOATING_CASE_(Long, int64_t, __VA_ARGS__)
#define AT_BOOL_CASE_(...) AT_NONFLOATING_CASE_(Bool, bool, __VA_ARGS__)

#define AT_DISPATCH_SWITCH_(TYPE, NAME, CASES)                                            \
  [&] {                                                                                   \
    const ::c10::ScalarType the_type_ = TYPE;                                             \
    switch (the_type_) {                                                                  \
      CASES                                                                               \
      default:                                                                            \
        TORCH_CHECK_NOT_IMPLEMENTED(false, '"', NAME, "\" not implemented for '",         \
                                    ::c10::toString(the_type_), "'");                     \
    }                                                                                     \
  }()

// The groups torch's own kernels dispatch over: every floating group here
// includes float16 and bfloat16.
#define AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_FLOATING_CASES_(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_INTEGRAL_CASES_(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES_AND_BOOL(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_INTEGRAL_CASES_(__VA_ARGS__) AT_BOOL_CASE_(__VA_ARGS__))
#define AT_DISPATCH_ALL_AND_REDUCED_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_FLOATING_CASES_(__VA_ARGS__) AT_INTEGRAL_CASES_(__VA_ARGS__))
#define AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(TYPE, NAME, ...)                      \
  AT_DISPATCH_SWITCH_(TYPE, NAME,                                                        \
                      AT_FLOATING_CASES_(__VA_ARGS__) AT_INTEGRAL_CASES_(__VA_ARGS__)    \
                          AT_BOOL_CASE_(__VA_ARGS__))

// PyTorch's groups, for extensions: AT_DISPATCH_FLOATING_TYPES is float and
// double only, and the _AND variants add the dtypes they name
// (AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, dtype, "op", [&] {...})).
namespace at::detail {
template <::c10::ScalarType>
struct ScalarTypeToCPPType;
#define AT_DEFINE_SCALAR_TYPE_TO_CPP_(cpp_type, name, python_name) \
  template <>                                                     \
  struct ScalarTypeToCPPType<::c10::ScalarType::name> {           \
    using type = cpp_type;                                        \
  };
C10_FORALL_SCALAR_TYPES_WITH_STORAGE(AT_DEFINE_SCALAR_TYPE_TO_CPP_)
#undef AT_DEFINE_SCALAR_TYPE_TO_CPP_
}  // namespace at::detail

#define AT_DISPATCH_CASE(enum_type, ...)                                              \
  case enum_type: {                                                                   \
    using scalar_t = typename ::at::detail::ScalarTypeToCPPType<enum_type>::type;                 \
    return __VA_ARGS__();                                                             \
  }
#define AT_PYTORCH_FLOATING_CASES_(...)                  \
  AT_DISPATCH_CASE_(Float, float, __VA_ARGS__)           \
  AT_DISPATCH_CASE_(Double, double, __VA_ARGS__)
#define AT_PYTORCH_INTEGRAL_CASES_(...)               \
  AT_DISPATCH_CASE_(Byte, uint8_t, __VA_ARGS__)       \
  AT_DISPATCH_CASE_(Char, int8_t, __VA_ARGS__)        \
  AT_DISPATCH_CASE_(Short, int16_t, __VA_ARGS__)      \
  AT_DISPATCH_CASE_(Int, int32_t, __VA_ARGS__)        \
  AT_DISPATCH_CASE_(Long, int64_t, __VA_ARGS__)

#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_FLOATING_CASES_(__VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_FLOATING_CASES_(__VA_ARGS__) AT_DISPATCH_CASE_(Half, ::c10::Half, __VA_ARGS__))
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_DISPATCH_CASE_(Half, ::c10::Half, __VA_ARGS__) \
                                      AT_DISPATCH_CASE_(BFloat16, ::c10::BFloat16, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_FLOATING_CASES_(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND2(T1, T2, TYPE, NAME, ...)                                    \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_FLOATING_CASES_(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__) \
                                      AT_DISPATCH_CASE(T2, __VA_ARGS__))
#define AT_DISPATCH_FLOATING_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...)                                 \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_FLOATING_CASES_(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__) \
                                      AT_DISPATCH_CASE(T2, __VA_ARGS__) AT_DISPATCH_CASE(T3, __VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES_AND(T1, TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_INTEGRAL_CASES_(__VA_ARGS__) AT_DISPATCH_CASE(T1, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_FLOATING_CASES_(__VA_ARGS__) AT_PYTORCH_INTEGRAL_CASES_(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND(T1, TYPE, NAME, ...)                                                   \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_FLOATING_CASES_(__VA_ARGS__) AT_PYTORCH_INTEGRAL_CASES_(__VA_ARGS__) \
                                      AT_DISPATCH_CASE(T1, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND2(T1, T2, TYPE, NAME, ...)                                              \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_FLOATING_CASES_(__VA_ARGS__) AT_PYTORCH_INTEGRAL_CASES_(__VA_ARGS__) \
                                      AT_DISPATCH_CASE(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND3(T1, T2, T3, TYPE, NAME, ...)                                          \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_PYTORCH_FLOATING_CASES_(__VA_ARGS__) AT_PYTORCH_INTEGRAL_CASES_(__VA_ARGS__) \
                                      AT_DISPATCH_CASE(T1, __VA_ARGS__) AT_DISPATCH_CASE(T2, __VA_ARGS__)        \
                                          AT_DISPATCH_CASE(T3, __VA_ARGS__))
