"""torch.nn.functional: the stateless forms of the nn modules, gathered from
the core (torch/nn/_functional_core.py) and the activations, layers and
losses built on it."""
from torch.nn._functional_core import *  # noqa: F401,F403
from torch.nn._functional_core import (  # noqa: F401  (names programs reach through F)
    _F, _REDUCTIONS, _adaptive_avg_pool2d_divisible, _broadcast_target, _legacy_reduction, _nn, _reduction)
from torch.nn._activations import *  # noqa: F401,F403
from torch.nn._activations import relu_, threshold  # noqa: F401
from torch.nn._layers import *  # noqa: F401,F403
from torch.nn._layers import pad, pad_modes  # noqa: F401
from torch.nn._losses import *  # noqa: F401,F403
from torch.nn._unpooling import _unpool_output_size, max_unpool1d, max_unpool2d, max_unpool3d  # noqa: F401

_general_adaptive_avg_pool2d = adaptive_avg_pool2d  # noqa: F405


def adaptive_avg_pool2d(input, output_size):  # noqa: F811
    """Equal windows go through avg_pool2d (one kernel); other sizes through the general bins."""
    out = _adaptive_avg_pool2d_divisible(input, output_size)
    return _general_adaptive_avg_pool2d(input, output_size) if out is None else out
