"""Declarative records of every operator, one file per op family.

Each OpInfo says how to call the op, its numpy reference, the dtypes it
supports, what dtype it returns, which variants exist (method, in-place, out=)
and which inputs must be rejected with which error. test_ops.py runs the same
checks over all of them.
"""
from .binary import BINARY_OPS
from .linalg import LINALG_OPS
from .nn_ops import NN_OPS
from .reduction import REDUCTION_OPS
from .shape import SHAPE_OPS
from .shape_composites import SHAPE_COMPOSITE_OPS
from .special import SPECIAL_OPS
from .ternary import TERNARY_OPS
from .unary import UNARY_OPS

ALL_OPS = UNARY_OPS + BINARY_OPS + TERNARY_OPS + REDUCTION_OPS + LINALG_OPS + SHAPE_OPS + SHAPE_COMPOSITE_OPS + NN_OPS + SPECIAL_OPS
