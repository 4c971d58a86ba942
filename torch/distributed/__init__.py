"""torch.distributed is not part of this build: is_available() is False, as
in PyTorch builds without distributed support, so scripts that check it run
on one process. The names scripts import at the top exist; calling a
collective or init_process_group raises a RuntimeError naming the feature."""
import enum

from torch._unsupported import define


def is_available():
    return False


def is_initialized():
    return False


def is_nccl_available():
    return False


def is_gloo_available():
    return False


def is_mpi_available():
    return False


def is_torchelastic_launched():
    return False


class ReduceOp(enum.Enum):
    """The reduction names collectives take (their default arguments are read at import)."""
    SUM = "sum"
    AVG = "avg"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"
    BAND = "band"
    BOR = "bor"
    BXOR = "bxor"
    PREMUL_SUM = "premul_sum"


class Backend(str):
    """Backend names as PyTorch spells them (dist.Backend.NCCL, ...)."""
    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    MPI = "mpi"
    UCC = "ucc"

    def __new__(cls, name):
        return str.__new__(cls, name.lower())


_FUNCTIONS = [
    "init_process_group", "destroy_process_group", "get_rank", "get_world_size", "get_backend", "new_group",
    "barrier", "monitored_barrier", "all_reduce", "all_gather", "all_gather_into_tensor", "all_gather_object",
    "all_to_all", "all_to_all_single", "broadcast", "broadcast_object_list", "reduce", "reduce_scatter",
    "reduce_scatter_tensor", "scatter", "scatter_object_list", "gather", "gather_object", "send", "recv", "isend",
    "irecv", "get_process_group_ranks", "get_global_rank", "init_device_mesh",
]
define(globals(), "torch.distributed", "distributed training (torch.distributed)", _FUNCTIONS)

__all__ = ["Backend", "ReduceOp", "is_available", "is_gloo_available", "is_initialized", "is_mpi_available",
           "is_nccl_available", "is_torchelastic_launched"] + _FUNCTIONS


def __getattr__(name):
    raise AttributeError(f"torch.distributed.{name}: this build of torch has no distributed support "
                         "(torch.distributed.is_available() is False)")
