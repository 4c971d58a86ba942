# ${generated_comment}
# torch.return_types: the named tuples ops return, one class per op.
from torch import Tensor

${return_type_classes}
