#pragma once
// IValue: one argument or result of a registered operator, as the boxed
// calling convention of torch::Library kernels passes it (a Stack of these).
// It holds exactly the types an operator schema can name.
#include <ATen/core/TensorBody.h>
#include <c10/core/Scalar.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace c10 {

class IValue {
 public:
  using Payload = std::variant<std::monostate, at::Tensor, int64_t, double, bool, std::string,
                               c10::Scalar, std::vector<at::Tensor>, std::vector<int64_t>, std::vector<double>>;

  IValue() = default;  // None
  IValue(at::Tensor v) : v_(std::move(v)) {}  // NOLINT: implicit, as a stack entry is built from its value
  IValue(int64_t v) : v_(v) {}                // NOLINT
  IValue(double v) : v_(v) {}                 // NOLINT
  IValue(bool v) : v_(v) {}                   // NOLINT
  IValue(std::string v) : v_(std::move(v)) {}  // NOLINT
  IValue(c10::Scalar v) : v_(v) {}            // NOLINT
  IValue(std::vector<at::Tensor> v) : v_(std::move(v)) {}  // NOLINT
  IValue(std::vector<int64_t> v) : v_(std::move(v)) {}     // NOLINT
  IValue(std::vector<double> v) : v_(std::move(v)) {}      // NOLINT

  bool isNone() const { return std::holds_alternative<std::monostate>(v_); }
  template <typename T>
  bool is() const { return std::holds_alternative<T>(v_); }
  // The value as a T; a mismatch is a bug in the caller (the schema was checked before).
  template <typename T>
  T& get() {
    T* p = std::get_if<T>(&v_);
    TORCH_INTERNAL_ASSERT(p != nullptr, "IValue holds another type");
    return *p;
  }
  const Payload& payload() const { return v_; }

 private:
  Payload v_;
};

using Stack = std::vector<IValue>;

}  // namespace c10
