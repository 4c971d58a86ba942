"""torch.<name> functions written in Python on top of the generated ones."""
from torch import _C

_F = _C._VariableFunctions


def split(tensor, split_size_or_sections, dim=0):
    """Splits into chunks of `split_size_or_sections` (an int) or of the given sizes (a list)."""
    if isinstance(split_size_or_sections, int):
        return _F.split(tensor, split_size_or_sections, dim)
    return _F.split_with_sizes(tensor, list(split_size_or_sections), dim)
