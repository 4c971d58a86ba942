"""The CPU allocator's cache of freed large blocks (c10/core/CPUBlockCache):
a block from 64 KiB to 64 MiB comes back to the next request of its size, at
most 256 MiB are kept, and torch._C._cpu_empty_cache() gives them all back."""
import os

import pytest
import torch

MIB = 1 << 20


@pytest.fixture(autouse=True)
def empty_cache():
    torch._C._cpu_empty_cache()
    yield
    torch._C._cpu_empty_cache()


def test_a_freed_large_block_serves_the_next_request_of_its_size():
    a = torch.ones(MIB // 4)  # 1 MiB
    where = a.data_ptr()
    del a
    assert torch._C._cpu_cache_info() == (1, MIB)
    b = torch.zeros(MIB // 4)
    assert b.data_ptr() == where
    assert torch._C._cpu_cache_info() == (0, 0)
    assert b.sum().item() == 0  # the old ones were overwritten, not served


def test_sizes_are_rounded_up_to_pages():
    a = torch.empty(100_000, dtype=torch.uint8)
    where = a.data_ptr()
    del a
    assert torch._C._cpu_cache_info() == (1, 102_400)
    assert torch.empty(101_000, dtype=torch.uint8).data_ptr() == where


def test_small_and_huge_blocks_are_not_kept():
    del_small = torch.empty(1000)
    del del_small
    huge = torch.empty(65 * MIB, dtype=torch.uint8)
    del huge
    assert torch._C._cpu_cache_info() == (0, 0)


def test_alignment_survives_reuse():
    for nbytes, alignment in ((MIB, 64), (8 * MIB, 2 * MIB)):
        a = torch.empty(nbytes, dtype=torch.uint8)
        del a
        b = torch.empty(nbytes, dtype=torch.uint8)
        assert b.data_ptr() % alignment == 0


def test_the_cache_is_bounded():
    kept = [torch.empty(MIB * (1 + k % 8) + 4096 * k, dtype=torch.uint8) for k in range(80)]  # ~370 MiB
    del kept
    blocks, nbytes = torch._C._cpu_cache_info()
    assert 0 < nbytes <= 256 * MIB and blocks > 0


def test_empty_cache_gives_everything_back():
    tensors = [torch.empty(MIB) for _ in range(4)]
    del tensors
    assert torch._C._cpu_cache_info() == (4, 4 * 4 * MIB)
    torch._C._cpu_empty_cache()
    assert torch._C._cpu_cache_info() == (0, 0)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform (Windows)")
def test_a_forked_child_allocates():
    """A forked child allocates from the cache it inherited (DataLoader
    workers, which run on one thread: OpenMP itself cannot follow a fork, in
    PyTorch too). The atfork handlers that reset the cache's lock matter only
    when another thread holds it at the fork, which this cannot arrange."""
    cached = torch.empty(MIB)
    del cached
    pid = os.fork()
    if pid == 0:
        ok = False
        try:
            torch.set_num_threads(1)
            ok = torch.ones(MIB // 4).sum().item() == MIB // 4
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
