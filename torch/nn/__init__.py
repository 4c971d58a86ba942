"""torch.nn: modules, parameters, losses, and their functional forms."""
from torch.nn import functional, init
from torch.nn.modules import *  # noqa: F401,F403  (the classes listed in modules/__init__.py)
from torch.nn.modules import __all__ as _module_classes
from torch.nn.parameter import Parameter
from torch.nn import parallel, utils  # noqa: E402

__all__ = sorted(_module_classes + ["Parameter", "functional", "init", "parallel", "utils"])
