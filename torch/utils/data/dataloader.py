"""DataLoader: batches from a dataset, in this process or in worker processes.

With num_workers > 0, each worker process gets batches of indices on its own
queue (round-robin, prefetch_factor batches ahead per worker), loads and
collates them, and sends the batch back; the loader hands batches out in
order. Workers are seeded base_seed + worker_id, where base_seed comes from
the loader's generator (or the global stream), so a seeded run repeats. An
exception in a worker is raised again in the main process, naming the worker.
"""
import itertools
import multiprocessing
import queue
import random
import traceback
import warnings

import torch
from torch.utils.data._collate import default_collate, default_convert
from torch.utils.data.dataset import IterableDataset
from torch.utils.data.sampler import BatchSampler, RandomSampler, SequentialSampler


class WorkerInfo:
    def __init__(self, id, num_workers, seed, dataset):
        self.id, self.num_workers, self.seed, self.dataset = id, num_workers, seed, dataset

    def __repr__(self):
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed})"


_worker_info = None


def get_worker_info():
    """In a worker process, its WorkerInfo (id, num_workers, seed, dataset); None in the main process."""
    return _worker_info


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing, otherwise set prefetch_factor to None.")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset, self.num_workers, self.timeout = dataset, num_workers, timeout
        self.worker_init_fn, self.multiprocessing_context, self.generator = (worker_init_fn, multiprocessing_context,
                                                                             generator)
        self.prefetch_factor = 2 if prefetch_factor is None and num_workers > 0 else prefetch_factor
        self.persistent_workers, self.drop_last = persistent_workers, drop_last
        if pin_memory and not torch.cuda.is_available():
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.")
        self.pin_memory = False  # page-locked memory is not implemented (see Tensor.pin_memory)
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (None, False):
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None or batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler/batch_sampler option")
        else:
            if sampler is not None and shuffle:
                raise ValueError("sampler option is mutually exclusive with shuffle")
            if batch_sampler is not None and (batch_size != 1 or shuffle or sampler is not None or drop_last):
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            if sampler is None:
                sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
            if batch_sampler is None and batch_size is not None:
                batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.sampler, self.batch_sampler = batch_size, sampler, batch_sampler
        if collate_fn is None:
            collate_fn = default_collate if batch_size is not None or batch_sampler is not None else default_convert
        self.collate_fn = collate_fn

    def __len__(self):
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        return len(self.batch_sampler) if self.batch_sampler is not None else len(self.sampler)

    def __iter__(self):
        if self.num_workers == 0:
            return _single_process(self)
        return _MultiProcessIter(self)

    # The work items: lists of indices (map-style) or worker-local batch counts (iterable).
    def _index_batches(self):
        return iter(self.batch_sampler) if self.batch_sampler is not None else ([i] for i in self.sampler)


def _fetch(loader, dataset, indices):
    if loader.batch_sampler is None:
        return loader.collate_fn(dataset[indices[0]])
    return loader.collate_fn([dataset[i] for i in indices])


def _iterable_batches(loader, dataset):
    it = iter(dataset)
    if loader.batch_size is None:
        for sample in it:
            yield loader.collate_fn(sample)
        return
    while True:
        batch = list(itertools.islice(it, loader.batch_size))
        if not batch or (loader.drop_last and len(batch) < loader.batch_size):
            return
        yield loader.collate_fn(batch)


def _single_process(loader):
    if loader._iterable:
        yield from _iterable_batches(loader, loader.dataset)
        return
    for indices in loader._index_batches():
        yield _fetch(loader, loader.dataset, indices)


def _worker_loop(loader, worker_id, seed, index_queue, result_queue):
    global _worker_info
    torch.set_num_threads(1)  # as PyTorch's workers: no OpenMP pools forked into every worker
    torch.manual_seed(seed)
    random.seed(seed)
    _worker_info = WorkerInfo(worker_id, loader.num_workers, seed, loader.dataset)
    try:
        if loader.worker_init_fn is not None:
            loader.worker_init_fn(worker_id)
        batches = _iterable_batches(loader, loader.dataset) if loader._iterable else None
    except Exception as e:  # noqa: BLE001  (sent back and raised in the main process)
        result_queue.put((None, _WorkerError(worker_id, e)))
        return
    while True:
        task = index_queue.get()
        if task is None:
            return
        number, indices = task
        try:
            data = next(batches, _Exhausted) if loader._iterable else _fetch(loader, loader.dataset, indices)
        except Exception as e:  # noqa: BLE001
            data = _WorkerError(worker_id, e)
        result_queue.put((number, data))


class _Exhausted:
    """Sent by a worker whose copy of an IterableDataset has no more batches."""


class _WorkerError:
    def __init__(self, worker_id, exc):
        self.worker_id, self.exc_type = worker_id, type(exc)
        self.message = (f"Caught {type(exc).__name__} in DataLoader worker process {worker_id}.\nOriginal "
                        + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))

    def reraise(self):
        try:
            error = self.exc_type(self.message)
        except Exception:  # noqa: BLE001  (an exception type whose constructor takes other arguments)
            error = RuntimeError(self.message)
        raise error


class _MultiProcessIter:
    def __init__(self, loader):
        self.loader = loader
        self.shut, self.workers, self.index_queues, self.result_queue = False, [], [], None
        ctx = loader.multiprocessing_context
        ctx = multiprocessing.get_context(ctx) if isinstance(ctx, str) or ctx is None else ctx
        base_seed = int(torch.randint(0, 2**62, (), dtype=torch.int64, generator=loader.generator))
        self.result_queue = ctx.Queue()
        for wid in range(loader.num_workers):
            iq = ctx.Queue()
            w = ctx.Process(target=_worker_loop, args=(loader, wid, base_seed + wid, iq, self.result_queue),
                            daemon=True)
            w.start()
            self.index_queues.append(iq)
            self.workers.append(w)
        self.tasks = loader._index_batches() if not loader._iterable else None
        self.sent = self.next_number = 0
        self.buffer, self.task_worker = {}, {}
        self.active = set(range(loader.num_workers))  # iterable workers not yet exhausted
        for _ in range(loader.prefetch_factor * loader.num_workers):
            if not self._send():
                break

    def _send(self):
        if self.loader._iterable:
            if not self.active:
                return False
            worker = sorted(self.active)[self.sent % len(self.active)]
            self.task_worker[self.sent] = worker
            self.index_queues[worker].put((self.sent, None))
        else:
            indices = next(self.tasks, None)
            if indices is None:
                return False
            self.index_queues[self.sent % self.loader.num_workers].put((self.sent, indices))
        self.sent += 1
        return True

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            if self.next_number >= self.sent:
                self._shutdown()
                raise StopIteration
            while self.next_number not in self.buffer:
                number, data = self._get()
                if number is None or isinstance(data, _WorkerError):
                    self._shutdown()
                    data.reraise()
                self.buffer[number] = data
            number = self.next_number
            data = self.buffer.pop(number)
            self.next_number += 1
            if data is _Exhausted:
                # That worker's copy of the dataset is done; the others go on.
                self.active.discard(self.task_worker.pop(number))
                self._send()
                continue
            self.task_worker.pop(number, None)
            self._send()
            return data

    def _get(self):
        waited = 0.0
        while True:
            try:
                return self.result_queue.get(timeout=1.0)
            except queue.Empty:
                waited += 1.0
                dead = [w for w in self.workers if not w.is_alive()]
                if dead:
                    self._shutdown()
                    raise RuntimeError(f"DataLoader worker (pid(s) {', '.join(str(w.pid) for w in dead)}) exited "
                                       f"unexpectedly with exit code {dead[0].exitcode}")
                if self.loader.timeout and waited >= self.loader.timeout:
                    self._shutdown()
                    raise RuntimeError(f"DataLoader timed out after {self.loader.timeout} seconds")

    def _shutdown(self):
        if self.shut:
            return
        self.shut = True
        for iq in self.index_queues:
            iq.put(None)
        for w in self.workers:
            w.join(timeout=5)
            if w.is_alive():
                w.terminate()
        for q in self.index_queues + ([self.result_queue] if self.result_queue is not None else []):
            q.cancel_join_thread()
            q.close()
            # Wait for the queue's feeder thread to exit: a thread still tearing
            # down while the next iterator forks its workers could hold a lock
            # of an allocator that does not guard fork (AddressSanitizer's),
            # and the child would deadlock on it.
            feeder = getattr(q, "_thread", None)
            if feeder is not None:
                feeder.join(timeout=5)

    def __del__(self):
        self._shutdown()

    def __len__(self):
        return len(self.loader)
