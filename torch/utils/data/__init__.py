"""torch.utils.data: datasets, samplers and the DataLoader that batches them,
in worker processes when num_workers > 0 (each worker seeded from the
loader's generator, as PyTorch's are)."""
from torch.utils.data._collate import default_collate, default_convert
from torch.utils.data.dataloader import DataLoader, get_worker_info
from torch.utils.data.dataset import (
    ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset, random_split,
)
from torch.utils.data.distributed import DistributedSampler
from torch.utils.data.sampler import (
    BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler, WeightedRandomSampler,
)

__all__ = [
    "BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset", "DistributedSampler", "IterableDataset", "RandomSampler", "Sampler",
    "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler",
    "default_collate", "default_convert", "get_worker_info", "random_split",
]
