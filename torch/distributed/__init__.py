"""torch.distributed is not part of this build: is_available() is False, as
in PyTorch builds without distributed support, and scripts that check it run
on one process."""


def is_available():
    return False


def is_initialized():
    return False


def __getattr__(name):
    raise AttributeError(f"torch.distributed.{name}: this build of torch has no distributed support "
                         "(torch.distributed.is_available() is False)")
