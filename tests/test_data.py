"""torch.utils.data: datasets, samplers, collation and DataLoader, in this process and in workers."""
import multiprocessing

import pytest

WORKERS = [0, pytest.param(2, marks=pytest.mark.workers)]

import torch
from torch.utils.data import (
    BatchSampler, ConcatDataset, DataLoader, Dataset, IterableDataset, RandomSampler, SequentialSampler, Subset,
    TensorDataset, WeightedRandomSampler, default_collate, get_worker_info, random_split,
)

X = torch.arange(20.0).reshape(10, 2)
Y = torch.arange(10)


class Squares(Dataset):
    def __len__(self):
        return 7

    def __getitem__(self, i):
        if not 0 <= i < 7:
            raise IndexError(i)
        return {"x": torch.tensor([float(i * i)]), "i": i, "name": f"n{i}"}


class Failing(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise KeyError("sample 2 is missing")
        return torch.tensor(i)


class Strided(IterableDataset):
    """Splits its range between workers by get_worker_info(), as PyTorch's docs show."""

    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        return iter(range(start, 10, step))


class WorkerSeed(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        info = get_worker_info()
        return torch.tensor([info.id if info else -1, info.seed % 1000 if info else -1, float(torch.rand(1))])


def test_tensor_dataset_batches_in_order():
    loader = DataLoader(TensorDataset(X, Y), batch_size=3)
    batches = list(loader)
    assert len(loader) == 4 and [b[1].tolist() for b in batches] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert isinstance(batches[0], list) and batches[0][0].shape == (3, 2)  # a tuple sample collates to a list


def test_drop_last_and_len():
    loader = DataLoader(TensorDataset(X, Y), batch_size=4, drop_last=True)
    assert len(loader) == 2 and [len(b[1]) for b in loader] == [4, 4]


@pytest.mark.parametrize("workers", WORKERS)
def test_shuffle_with_a_generator_repeats_and_covers(workers):
    def order(seed):
        g = torch.Generator().manual_seed(seed)
        return [i for b in DataLoader(TensorDataset(X, Y), batch_size=3, shuffle=True, generator=g,
                                      num_workers=workers) for i in b[1].tolist()]

    assert order(1) == order(1)
    assert order(1) != order(2)
    assert sorted(order(1)) == list(range(10))


def test_shuffle_follows_manual_seed():
    def order():
        torch.manual_seed(3)
        return [b.tolist() for b in DataLoader(Y, batch_size=5, shuffle=True)]

    assert order() == order()


@pytest.mark.parametrize("workers", WORKERS)
def test_workers_give_the_same_batches(workers):
    batches = list(DataLoader(Squares(), batch_size=3, num_workers=workers))
    assert [b["i"].tolist() for b in batches] == [[0, 1, 2], [3, 4, 5], [6]]
    assert batches[1]["x"].tolist() == [[9.0], [16.0], [25.0]]
    assert batches[0]["name"] == ["n0", "n1", "n2"]


@pytest.mark.parametrize("workers", WORKERS)
def test_a_failing_sample_raises_its_exception(workers):
    with pytest.raises(KeyError, match="sample 2 is missing"):
        list(DataLoader(Failing(), batch_size=1, num_workers=workers))


@pytest.mark.workers
def test_worker_error_names_the_worker():
    with pytest.raises(KeyError, match="DataLoader worker process"):
        list(DataLoader(Failing(), batch_size=2, num_workers=2))


@pytest.mark.workers
def test_iterable_dataset_split_between_workers():
    assert [b.tolist() for b in DataLoader(Strided(), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    got = [b.tolist() for b in DataLoader(Strided(), batch_size=3, num_workers=2)]
    assert got == [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]


@pytest.mark.workers
def test_workers_are_seeded_from_the_generator():
    def draws(seed):
        return torch.cat(list(DataLoader(WorkerSeed(), batch_size=2, num_workers=2,
                                         generator=torch.Generator().manual_seed(seed))))

    a, b = draws(5), draws(5)
    assert torch.equal(a, b)
    assert a[:, 0].tolist() == [0, 0, 1, 1]
    assert a[0, 1] != a[2, 1]  # base_seed + worker id


@pytest.mark.workers
@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform (Windows)")
def test_worker_init_fn_runs_in_each_worker(tmp_path):
    def init(worker_id):
        (tmp_path / f"w{worker_id}").write_text(str(get_worker_info().id))

    # A closure pickles only under fork (Python 3.14 defaults to forkserver), as with PyTorch.
    list(DataLoader(TensorDataset(X), batch_size=2, num_workers=2, worker_init_fn=init, multiprocessing_context="fork"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w0", "w1"]


def test_custom_collate_fn_and_batch_sampler():
    loader = DataLoader(TensorDataset(X, Y), batch_sampler=BatchSampler(SequentialSampler(Y), 4, False),
                        collate_fn=lambda samples: len(samples))
    assert list(loader) == [4, 4, 2]


def test_batch_size_none_gives_samples():
    assert [t.item() for t in DataLoader(Y[:3], batch_size=None)] == [0, 1, 2]


def test_random_split_by_lengths_and_fractions():
    ds = TensorDataset(X, Y)
    a, b = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(0))
    assert len(a) == 7 and len(b) == 3 and sorted(a.indices + b.indices) == list(range(10))
    c, d = random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(0))
    assert (len(c), len(d)) == (8, 2)
    with pytest.raises(ValueError, match="Sum of input lengths"):
        random_split(ds, [5, 6])


def test_samplers():
    g = torch.Generator().manual_seed(0)
    assert sorted(RandomSampler(range(6), generator=g)) == list(range(6))
    assert len(list(RandomSampler(range(6), replacement=True, num_samples=20, generator=g))) == 20
    weighted = list(WeightedRandomSampler([0.0, 1.0, 0.0], 5, generator=g))
    assert weighted == [1] * 5
    assert list(BatchSampler(range(5), 2, drop_last=True)) == [[0, 1], [2, 3]]
    with pytest.raises(ValueError, match="batch_size should be a positive integer"):
        BatchSampler(range(5), 0, False)


def test_concat_and_subset():
    ds = ConcatDataset([TensorDataset(X[:3]), TensorDataset(X[3:5])])
    assert len(ds) == 5 and ds[4][0].tolist() == X[4].tolist() and ds[-1][0].tolist() == X[4].tolist()
    assert Subset(Y, [3, 1])[1].item() == 1


def test_default_collate_structures():
    import numpy as np

    batch = default_collate([(1, 2.0, np.ones(2)), (3, 4.0, np.zeros(2))])
    assert batch[0].dtype == torch.int64 and batch[1].dtype == torch.float64 and batch[2].shape == (2, 2)
    with pytest.raises(RuntimeError, match="equal size"):
        default_collate([torch.zeros(2), torch.zeros(3)])


def test_bad_arguments():
    with pytest.raises(ValueError, match="num_workers"):
        DataLoader(Y, num_workers=-1)
    with pytest.raises(ValueError, match="mutually exclusive"):
        DataLoader(Y, sampler=SequentialSampler(Y), shuffle=True)
    with pytest.raises(ValueError, match="IterableDataset"):
        DataLoader(Strided(), shuffle=True)


def test_tensors_pickle_for_workers():
    import pickle

    t = torch.tensor([[1.5, -2.0]], dtype=torch.bfloat16)
    back = pickle.loads(pickle.dumps(t))
    assert back.dtype == torch.bfloat16 and back.tolist() == t.tolist()
    p = pickle.loads(pickle.dumps(torch.nn.Parameter(torch.ones(2))))
    assert isinstance(p, torch.nn.Parameter) and p.requires_grad


@pytest.mark.workers
def test_an_epoch_with_workers_leaves_no_queue_thread_running():
    # The next epoch forks new workers at once: a feeder thread still exiting
    # then could hold a lock of an allocator that does not guard fork
    # (AddressSanitizer's), deadlocking the child. Shutdown joins them.
    import threading

    loader = DataLoader(TensorDataset(torch.arange(40.0)), batch_size=4, num_workers=2)
    for _ in range(2):
        assert len(list(loader)) == 10
        feeders = [t for t in threading.enumerate() if t.name == "QueueFeederThread" and t.is_alive()]
        assert feeders == []


def test_an_endless_sampler_with_replacement_draws_lazily():
    """Training loops ask for RandomSampler(replacement=True, num_samples=int(1e10)):
    drawn at once that is an 80 GB tensor. It streams, as in PyTorch."""
    data = TensorDataset(torch.arange(10.0))
    sampler = RandomSampler(data, replacement=True, num_samples=int(1e10), generator=torch.Generator().manual_seed(0))
    assert len(sampler) == int(1e10)
    loader = DataLoader(data, batch_size=4, sampler=sampler)
    assert len(loader) == int(1e10) // 4
    batches = [b for _, b in zip(range(25), loader)]  # more than one chunk of draws
    assert len(batches) == 25 and all(b[0].shape == (4,) for b in batches)
    assert all(0 <= v < 10 for b in batches for v in b[0].tolist())
    # A count that is not a multiple of the chunk: every index drawn, no more.
    assert len(list(RandomSampler(data, replacement=True, num_samples=70))) == 70


@pytest.mark.parametrize("kw,expected", [
    # PyTorch 2.13's indices for these arguments over range(10) (and range(2)).
    (dict(num_replicas=3, rank=1, shuffle=False), [1, 4, 7, 0]),
    (dict(num_replicas=3, rank=2, shuffle=False, drop_last=True), [2, 5, 8]),
    (dict(num_replicas=4, rank=3, shuffle=False), [3, 7, 1]),
])
def test_distributed_sampler_shards_as_pytorch(kw, expected):
    sampler = torch.utils.data.DistributedSampler(range(10), **kw)
    assert list(sampler) == expected and len(sampler) == len(expected)


def test_distributed_sampler_shuffles_the_same_on_every_replica():
    def shards(epoch):
        out = []
        for rank in range(3):
            s = torch.utils.data.DistributedSampler(range(9), num_replicas=3, rank=rank, seed=4)
            s.set_epoch(epoch)
            out.append(list(s))
        return out

    first = shards(0)
    assert sorted(i for shard in first for i in shard) == list(range(9))  # a partition of the dataset
    assert shards(0) == first and shards(1) != first
    assert list(torch.utils.data.DistributedSampler(range(2), num_replicas=5, rank=4, shuffle=False)) == [0]
    with pytest.raises(ValueError, match=r"Invalid rank 2, rank should be in the interval \[0, 1\]"):
        torch.utils.data.DistributedSampler(range(3), num_replicas=2, rank=2)
    with pytest.raises(RuntimeError, match="Requires distributed package to be available"):
        torch.utils.data.DistributedSampler(range(3))


def test_stack_and_chain_datasets():
    from torch.utils.data import ChainDataset, IterableDataset, StackDataset

    pairs = StackDataset(torch.arange(3), torch.arange(3) * 2)
    assert len(pairs) == 3 and [v.item() for v in pairs[1]] == [1, 2]
    named = StackDataset(a=torch.arange(3), b=torch.arange(3) * 2)
    batch = next(iter(DataLoader(named, batch_size=2)))
    assert batch["a"].tolist() == [0, 1] and batch["b"].tolist() == [0, 2]
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        StackDataset(torch.arange(3), torch.arange(2))
    with pytest.raises(ValueError, match="but both types are given"):
        StackDataset(torch.arange(3), b=torch.arange(3))

    class Count(IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(self.n))

        def __len__(self):
            return self.n

    chained = ChainDataset([Count(2), Count(3)])
    assert list(chained) == [0, 1, 0, 1, 2] and len(chained) == 5
    with pytest.raises(AssertionError, match="ChainDataset only supports IterableDataset"):
        list(ChainDataset([Count(1), [5]]))
