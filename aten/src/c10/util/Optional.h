#pragma once
// c10::optional and c10::nullopt: PyTorch's older names for std::optional,
// which extension code still spells.
#include <optional>

namespace c10 {
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::optional;
}  // namespace c10
