#pragma once
#include <c10/util/Exception.h>

#include <cstdint>

namespace c10 {

// Turns a possibly negative dim into 0..ndim-1; a 0-d tensor accepts 0 and -1.
inline int64_t maybe_wrap_dim(int64_t dim, int64_t ndim, bool wrap_scalar = true) {
  if (ndim <= 0) {
    TORCH_CHECK_INDEX(wrap_scalar, "dimension specified as ", dim, " but tensor has no dimensions");
    ndim = 1;
  }
  const int64_t lo = -ndim, hi = ndim - 1;
  TORCH_CHECK_INDEX(dim >= lo && dim <= hi, "Dimension out of range (expected to be in range of [", lo, ", ",
                    hi, "], but got ", dim, ")");
  return dim < 0 ? dim + ndim : dim;
}

}  // namespace c10
