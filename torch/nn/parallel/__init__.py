"""torch.nn.parallel: the wrappers scripts import for multi-device training.

DataParallel on a machine with at most one device calls the module directly,
as PyTorch's does. DistributedDataParallel needs torch.distributed, which this
build does not have (torch.distributed.is_available() is False), so making
one raises, as PyTorch's does without an initialised process group."""
import torch
from torch.nn.modules.module import Module


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        if torch.cuda.is_available() and torch.cuda.device_count() > 1 and (device_ids is None or len(device_ids) > 1):
            raise NotImplementedError("DataParallel over more than one GPU is not supported; pass device_ids=[0] or "
                                      "train on one device")
        self.module = module
        self.device_ids = [] if device_ids is None else list(device_ids)
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


class DistributedDataParallel(Module):
    def __init__(self, module, *args, **kwargs):
        raise RuntimeError("DistributedDataParallel needs torch.distributed, which this build of torch does not "
                           "include (torch.distributed.is_available() is False)")


__all__ = ["DataParallel", "DistributedDataParallel"]
