#pragma once
// What a factory function is asked for, in PyTorch's C++ spelling:
//   at::empty(x.sizes(), x.options())
//   torch::zeros({2, 3}, torch::dtype(torch::kFloat64).requires_grad(true))
//   torch::TensorOptions().dtype(torch::kFloat32).device(torch::kCUDA, 0)
// Only strided, unpinned tensors exist here: asking for another layout or for
// pinned memory is an error that says so.
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>
#include <c10/util/Optional.h>

#include <optional>

namespace c10 {

enum class Layout : int8_t { Strided };
constexpr Layout kStrided = Layout::Strided;

constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;

#define C10_DEFINE_SCALAR_TYPE_CONSTANT_(cpp_type, name, python_name) constexpr ScalarType k##name = ScalarType::name;
C10_FORALL_SCALAR_TYPES_WITH_STORAGE(C10_DEFINE_SCALAR_TYPE_CONSTANT_)
#undef C10_DEFINE_SCALAR_TYPE_CONSTANT_
constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;

class TensorOptions {
 public:
  TensorOptions() = default;
  // Implicit, as in PyTorch: torch::zeros(size, torch::kFloat64), torch::ones(size, torch::kCUDA).
  TensorOptions(ScalarType dtype) : dtype_(dtype) {}            // NOLINT
  TensorOptions(Device device) : device_(device) {}             // NOLINT
  TensorOptions(DeviceType type) : device_(Device(type)) {}     // NOLINT
  TensorOptions(Layout layout) { check_layout(layout); }        // NOLINT

  TensorOptions dtype(std::optional<ScalarType> dtype) const {
    TensorOptions o = *this;
    o.dtype_ = dtype;
    return o;
  }
  TensorOptions device(std::optional<Device> device) const {
    TensorOptions o = *this;
    o.device_ = device;
    return o;
  }
  TensorOptions device(DeviceType type, int8_t index = -1) const { return device(Device(type, index)); }
  TensorOptions device_index(int8_t index) const { return device(Device(DeviceType::CUDA, index)); }
  TensorOptions requires_grad(std::optional<bool> requires_grad) const {
    TensorOptions o = *this;
    o.requires_grad_ = requires_grad;
    return o;
  }
  TensorOptions layout(std::optional<Layout> layout) const {
    if (layout) check_layout(*layout);
    return *this;
  }
  TensorOptions pinned_memory(std::optional<bool> pinned) const {
    TORCH_CHECK(!pinned.value_or(false), "TensorOptions: pinned memory is not supported by this build of torch");
    return *this;
  }

  // The defaults PyTorch fills in: float32 (the default dtype), the CPU, no gradient.
  ScalarType dtype() const { return dtype_.value_or(ScalarType::Float); }
  Device device() const { return device_.value_or(Device(DeviceType::CPU)); }
  bool requires_grad() const { return requires_grad_.value_or(false); }
  Layout layout() const { return Layout::Strided; }
  bool pinned_memory() const { return false; }

  bool has_dtype() const { return dtype_.has_value(); }
  bool has_device() const { return device_.has_value(); }
  bool has_requires_grad() const { return requires_grad_.has_value(); }
  std::optional<ScalarType> dtype_opt() const { return dtype_; }
  std::optional<Device> device_opt() const { return device_; }
  std::optional<bool> requires_grad_opt() const { return requires_grad_; }

 private:
  static void check_layout(Layout layout) {
    TORCH_CHECK(layout == Layout::Strided, "TensorOptions: only the strided layout exists in this build of torch");
  }

  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
  std::optional<bool> requires_grad_;
};

// The builders PyTorch has as free functions: at::dtype(at::kFloat).device(at::kCUDA).
inline TensorOptions dtype(ScalarType dtype) { return TensorOptions().dtype(dtype); }
inline TensorOptions device(Device device) { return TensorOptions().device(device); }
inline TensorOptions device_index(int8_t index) { return TensorOptions().device_index(index); }
inline TensorOptions requires_grad(bool requires_grad = true) { return TensorOptions().requires_grad(requires_grad); }
inline TensorOptions layout(Layout layout) { return TensorOptions().layout(layout); }

}  // namespace c10
