# ${generated_comment}
# torch.<op>: one `def` per overload of each function in native_functions.yaml.
from typing import Any, Sequence, overload

from torch._C import _return_types

from builtins import bool as _bool

from torch import Tensor
from torch._C import Number, device, dtype

def tensor(data: Any, *, dtype: dtype | None = ..., device: device | str | int | None = ...,
           requires_grad: _bool = ...) -> Tensor: ...

${function_stubs}
