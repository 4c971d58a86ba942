#include <ATen/native/Distributions.h>

namespace at::native {

DEFINE_DISPATCH(uniform_stub);
DEFINE_DISPATCH(normal_stub);
DEFINE_DISPATCH(random_stub);
DEFINE_DISPATCH(arange_stub);

}  // namespace at::native
