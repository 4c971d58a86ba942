#pragma once
// Where a tensor's memory lives: a device type and, for accelerators, an index.
#include <c10/macros/Export.h>

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace c10 {

// Meta names the device of PyTorch's shape-only tensors: torch.device("meta")
// exists (libraries compare against it), but no kernel here makes a tensor
// there, so creating one fails naming the device.
enum class DeviceType : int8_t { CPU = 0, CUDA = 1, Meta = 2 };
constexpr int kNumDeviceTypes = 3;

C10_API const char* toString(DeviceType t);

// A field that reads both ways: `d.type` (this codebase) and `d.type()`
// (PyTorch's C++ API, which extensions use).
template <typename T>
struct DeviceField {
  T value;
  constexpr DeviceField(T v) : value(v) {}  // NOLINT: implicit on purpose
  constexpr operator T() const { return value; }  // NOLINT
  constexpr T operator()() const { return value; }
};

struct C10_API Device {
  DeviceField<DeviceType> type = DeviceType::CPU;
  DeviceField<int8_t> index = -1;  // -1: "the current device" of that type

  constexpr Device() = default;
  constexpr Device(DeviceType t, int8_t i = -1) : type(t), index(i) {}  // NOLINT
  // "cpu", "cuda", "cuda:1", "meta"; anything else raises RuntimeError.
  explicit Device(const std::string& spec);

  bool is_cpu() const { return type == DeviceType::CPU; }
  bool is_cuda() const { return type == DeviceType::CUDA; }
  bool is_meta() const { return type == DeviceType::Meta; }
  bool has_index() const { return index >= 0; }
  bool operator==(const Device& o) const { return type() == o.type() && index() == o.index(); }
  bool operator!=(const Device& o) const { return !(*this == o); }
  std::string str() const;
};

inline std::ostream& operator<<(std::ostream& out, const Device& d) { return out << d.str(); }

}  // namespace c10
