"""Whether the CPU kernels run their threads on OpenMP (the Linux wheels) or
on ATen's own thread pool (the macOS and Windows wheels, built with zig,
which has no OpenMP): aten/src/ATen/Parallel.h."""
from torch import _C


def is_available():
    return bool(_C._has_openmp)
