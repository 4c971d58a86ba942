#pragma once
// Element types. The list below is the single place that names them; the
// dispatch macros (ATen/Dispatch.h) and the Python dtype objects derive from it.
#include <c10/macros/Export.h>
#include <c10/util/Exception.h>
#include <c10/util/Half.h>

#include <cstdint>
#include <ostream>

namespace c10 {

// _(C++ type, enum name, Python name)
#define C10_FORALL_SCALAR_TYPES_WITH_STORAGE(_) \
  _(uint8_t, Byte, uint8)                       \
  _(int8_t, Char, int8)                         \
  _(int16_t, Short, int16)                      \
  _(int32_t, Int, int32)                        \
  _(int64_t, Long, int64)                       \
  _(c10::Half, Half, float16)                   \
  _(float, Float, float32)                      \
  _(double, Double, float64)                    \
  _(bool, Bool, bool)                           \
  _(c10::BFloat16, BFloat16, bfloat16)

enum class ScalarType : int8_t {
  Byte,
  Char,
  Short,
  Int,
  Long,
  Half,
  Float,
  Double,
  Bool,
  BFloat16,
  // Complex numbers: stored, viewed, copied and saved; no kernel computes
  // with them (the generated at:: functions refuse them outside the ops
  // tagged `complex` in native_functions.yaml).
  ComplexHalf,
  ComplexFloat,
  ComplexDouble,
  Undefined,
  NumOptions = Undefined,
};

constexpr int kNumScalarTypes = static_cast<int>(ScalarType::NumOptions);

C10_API const char* toString(ScalarType t);
// "float32", "int64", ...: the name after "torch." in Python.
C10_API const char* pythonName(ScalarType t);
C10_API size_t elementSize(ScalarType t);
// The C++ type's name ("float", "long int"), which some PyTorch messages use.
C10_API const char* cppTypeName(ScalarType t);

inline bool isIntegralType(ScalarType t, bool includeBool) {
  switch (t) {
    case ScalarType::Byte: case ScalarType::Char: case ScalarType::Short:
    case ScalarType::Int: case ScalarType::Long:
      return true;
    case ScalarType::Bool:
      return includeBool;
    default:
      return false;
  }
}
inline bool isFloatingType(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half ||
         t == ScalarType::BFloat16;
}
inline bool isComplexType(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble;
}
inline bool isSignedType(ScalarType t) { return t != ScalarType::Byte && t != ScalarType::Bool; }
// complex64 -> float32 (the type of each half); any other type is itself.
C10_API ScalarType toRealValueType(ScalarType t);
// float32 -> complex64; a type with no complex counterpart is refused.
C10_API ScalarType toComplexType(ScalarType t);

// The smallest type both a and b convert to without losing their category
// (bool < integer < floating point < complex), as torch.promote_types.
C10_API ScalarType promoteTypes(ScalarType a, ScalarType b);

// The dtype of Python floats turned into tensors (torch.get_default_dtype()).
C10_API ScalarType get_default_dtype();
C10_API void set_default_dtype(ScalarType t);

template <typename T>
struct CppTypeToScalarType;
#define C10_DEFINE_CPP_TO_SCALAR(cpp, name, py) \
  template <>                                   \
  struct CppTypeToScalarType<cpp> {             \
    static constexpr ScalarType value = ScalarType::name; \
  };
C10_FORALL_SCALAR_TYPES_WITH_STORAGE(C10_DEFINE_CPP_TO_SCALAR)
#undef C10_DEFINE_CPP_TO_SCALAR

inline std::ostream& operator<<(std::ostream& out, ScalarType t) { return out << toString(t); }

}  // namespace c10
