#pragma once
// ${generated_comment}
//
// at::_ops::<op>::call(...): every operator as a struct, named by its schema
// (add.Tensor is at::_ops::add_Tensor), with the arguments in schema order.
// PyTorch's extension template calls operators this way.
#include <ATen/Functions.h>

namespace at::_ops {

${operator_structs}

}  // namespace at::_ops
