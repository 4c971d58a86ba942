#include <c10/core/ScalarType.h>

#include <atomic>

namespace c10 {

const char* toString(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "Byte";
    case ScalarType::Char: return "Char";
    case ScalarType::Short: return "Short";
    case ScalarType::Int: return "Int";
    case ScalarType::Long: return "Long";
    case ScalarType::Half: return "Half";
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::Bool: return "Bool";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::ComplexHalf: return "ComplexHalf";
    case ScalarType::ComplexFloat: return "ComplexFloat";
    case ScalarType::ComplexDouble: return "ComplexDouble";
    default: return "Undefined";
  }
}

const char* pythonName(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "uint8";
    case ScalarType::Char: return "int8";
    case ScalarType::Short: return "int16";
    case ScalarType::Int: return "int32";
    case ScalarType::Long: return "int64";
    case ScalarType::Half: return "float16";
    case ScalarType::Float: return "float32";
    case ScalarType::Double: return "float64";
    case ScalarType::Bool: return "bool";
    case ScalarType::BFloat16: return "bfloat16";
    case ScalarType::ComplexHalf: return "complex32";
    case ScalarType::ComplexFloat: return "complex64";
    case ScalarType::ComplexDouble: return "complex128";
    default: return "undefined";
  }
}

const char* cppTypeName(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "unsigned char";
    case ScalarType::Char: return "signed char";
    case ScalarType::Short: return "short int";
    case ScalarType::Int: return "int";
    case ScalarType::Long: return "long int";
    case ScalarType::Half: return "c10::Half";
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Bool: return "bool";
    case ScalarType::BFloat16: return "c10::BFloat16";
    case ScalarType::ComplexHalf: return "c10::complex<c10::Half>";
    case ScalarType::ComplexFloat: return "c10::complex<float>";
    case ScalarType::ComplexDouble: return "c10::complex<double>";
    default: return "undefined";
  }
}

size_t elementSize(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: case ScalarType::Char: case ScalarType::Bool: return 1;
    case ScalarType::Short: case ScalarType::Half: case ScalarType::BFloat16: return 2;
    case ScalarType::Int: case ScalarType::Float: case ScalarType::ComplexHalf: return 4;
    case ScalarType::Long: case ScalarType::Double: case ScalarType::ComplexFloat: return 8;
    case ScalarType::ComplexDouble: return 16;
    default: TORCH_CHECK(false, "elementSize: undefined dtype");
  }
}

ScalarType toRealValueType(ScalarType t) {
  switch (t) {
    case ScalarType::ComplexHalf: return ScalarType::Half;
    case ScalarType::ComplexFloat: return ScalarType::Float;
    case ScalarType::ComplexDouble: return ScalarType::Double;
    default: return t;
  }
}

ScalarType toComplexType(ScalarType t) {
  switch (t) {
    case ScalarType::Half: case ScalarType::ComplexHalf: return ScalarType::ComplexHalf;
    case ScalarType::Float: case ScalarType::ComplexFloat: return ScalarType::ComplexFloat;
    case ScalarType::Double: case ScalarType::ComplexDouble: return ScalarType::ComplexDouble;
    default: TORCH_CHECK(false, "Unknown Complex ScalarType for ", toString(t));
  }
}

ScalarType promoteTypes(ScalarType a, ScalarType b) {
  TORCH_CHECK(a != ScalarType::Undefined && b != ScalarType::Undefined,
              "promoteTypes with an undefined dtype");
  if (a == b) return a;
  if (isComplexType(a) || isComplexType(b)) {
    // The parts' type is the promotion of the floating types involved (a
    // complex type counting as its parts'); integers and bool add nothing.
    // complex32 with bfloat16 gives complex64, as float16 with bfloat16 gives float32.
    const ScalarType ra = toRealValueType(a), rb = toRealValueType(b);
    ScalarType parts = isFloatingType(ra) && isFloatingType(rb) ? promoteTypes(ra, rb)
                       : isComplexType(a) ? ra : rb;
    return toComplexType(parts);
  }
  if (a == ScalarType::Bool) return b;
  if (b == ScalarType::Bool) return a;
  const bool af = isFloatingType(a), bf = isFloatingType(b);
  if (af != bf) return af ? a : b;
  if (af) {
    // float16 and bfloat16 have no common 16-bit type.
    if (elementSize(a) == 2 && elementSize(b) == 2) return ScalarType::Float;
    return elementSize(a) >= elementSize(b) ? a : b;
  }
  // Two integer types. uint8 is the only unsigned one: with a signed type it
  // needs one that holds 0..255.
  if (a == ScalarType::Byte || b == ScalarType::Byte) {
    ScalarType other = a == ScalarType::Byte ? b : a;
    return other == ScalarType::Char ? ScalarType::Short : other;
  }
  return elementSize(a) >= elementSize(b) ? a : b;
}

namespace {
std::atomic<ScalarType> default_dtype{ScalarType::Float};
}

ScalarType get_default_dtype() { return default_dtype.load(std::memory_order_relaxed); }

void set_default_dtype(ScalarType t) {
  TORCH_CHECK_TYPE(t == ScalarType::Float || t == ScalarType::Double,
                   "only floating-point types are supported as the default type, got ",
                   toString(t));
  default_dtype.store(t, std::memory_order_relaxed);
}

}  // namespace c10
