#pragma once
// AT_DISPATCH_*(dtype, "op name", [&] { ... scalar_t ... }) runs the lambda
// with scalar_t bound to the C++ type of `dtype`, and raises
// NotImplementedError naming the op for a dtype outside the group.
#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>

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
#define AT_INTEGRAL_CASES_(...)                     \
  AT_DISPATCH_CASE_(Byte, uint8_t, __VA_ARGS__)     \
  AT_DISPATCH_CASE_(Char, int8_t, __VA_ARGS__)      \
  AT_DISPATCH_CASE_(Short, int16_t, __VA_ARGS__)    \
  AT_DISPATCH_CASE_(Int, int32_t, __VA_ARGS__)      \
  AT_DISPATCH_CASE_(Long, int64_t, __VA_ARGS__)
#define AT_BOOL_CASE_(...) AT_DISPATCH_CASE_(Bool, bool, __VA_ARGS__)

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

#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_FLOATING_CASES_(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_INTEGRAL_CASES_(__VA_ARGS__))
#define AT_DISPATCH_INTEGRAL_TYPES_AND_BOOL(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_INTEGRAL_CASES_(__VA_ARGS__) AT_BOOL_CASE_(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) \
  AT_DISPATCH_SWITCH_(TYPE, NAME, AT_FLOATING_CASES_(__VA_ARGS__) AT_INTEGRAL_CASES_(__VA_ARGS__))
#define AT_DISPATCH_ALL_TYPES_AND_BOOL(TYPE, NAME, ...)                                  \
  AT_DISPATCH_SWITCH_(TYPE, NAME,                                                        \
                      AT_FLOATING_CASES_(__VA_ARGS__) AT_INTEGRAL_CASES_(__VA_ARGS__)    \
                          AT_BOOL_CASE_(__VA_ARGS__))
