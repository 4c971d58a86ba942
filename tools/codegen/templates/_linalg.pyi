# ${generated_comment}
# torch._C._linalg.<op>: the functions native_functions.yaml binds there (python_module: linalg).
from typing import Sequence, overload

from torch._C import _return_types

from builtins import bool as _bool

from torch import Tensor
from torch._C import Number, device, dtype

${function_stubs}
