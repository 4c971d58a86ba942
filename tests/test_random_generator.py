"""The CPU generator (ATen/core/MersenneTwister.h) and the kernels that
draw from it in blocks: the standard MT19937-64 sequence (checked against
the reference algorithm written out here), block boundaries that fall
inside a twist, saved states, and the ranges of rand/randint/random_."""
import pytest

import torch

MASK = (1 << 64) - 1


def reference_mt19937_64(seed, count):
    """Matsumoto and Nishimura's MT19937-64, as published."""
    n, m = 312, 156
    state = [seed & MASK]
    for i in range(1, n):
        state.append((6364136223846793005 * (state[-1] ^ (state[-1] >> 62)) + i) & MASK)
    upper, lower = (MASK << 31) & MASK, (1 << 31) - 1
    out, index = [], n
    while len(out) < count:
        if index >= n:
            for i in range(n):
                y = (state[i] & upper) | (state[(i + 1) % n] & lower)
                state[i] = state[(i + m) % n] ^ (y >> 1) ^ (0xB5026F5AA96619E9 if y & 1 else 0)
            index = 0
        z = state[index]
        index += 1
        z ^= (z >> 29) & 0x5555555555555555
        z ^= (z << 17) & 0x71D67FFFEDA60000 & MASK
        z ^= (z << 37) & 0xFFF7EEE000000000 & MASK
        z ^= z >> 43
        out.append(z)
    return out


def draws(count):
    """The next `count` raw draws, through random_'s full int64 range (a draw modulo 2^63 - 1)."""
    return torch.empty(count, dtype=torch.int64).random_().tolist()


def test_the_reference_is_the_standard_sequence():
    # The C++ standard's check for std::mt19937_64: the 10000th number from seed 5489.
    assert reference_mt19937_64(5489, 10000)[-1] == 9981545732273789042


@pytest.mark.parametrize("seed", [5489, 0, 2**64 - 1])
def test_draws_follow_mt19937_64_across_blocks_and_twists(seed):
    torch.manual_seed(seed)
    # Sizes that end mid-twist (312 words) and mid-block (1024 draws), then single draws.
    sizes = [1, 311, 2, 1023, 1025, 3000, 1, 1]
    got = [v for size in sizes for v in draws(size)]
    want = [v % (2**63 - 1) for v in reference_mt19937_64(seed, sum(sizes))]
    assert got == want


def test_saved_state_resumes_the_same_sequence():
    torch.manual_seed(7)
    draws(500)
    state = torch.get_rng_state()
    first = torch.rand(1000)
    torch.set_rng_state(state)
    assert torch.equal(torch.rand(1000), first)
    g = torch.Generator().manual_seed(3)
    a = torch.randn(777, generator=g)
    assert torch.equal(torch.randn(777, generator=torch.Generator().manual_seed(3)), a)


def test_uniform_ranges_are_half_open_for_every_float_type():
    torch.manual_seed(0)
    for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        x = torch.empty(200_000, dtype=dtype).uniform_(-2.0, 3.0)
        assert float(x.min()) >= -2.0 and float(x.max()) < 3.0
        assert abs(float(x.double().mean()) - 0.5) < 0.02
    x = torch.rand(100_000, dtype=torch.float32)
    assert 0.0 <= float(x.min()) and float(x.max()) < 1.0
    assert len(set(x[:1000].tolist())) > 990  # 24 random bits each, not a handful


def test_randint_covers_its_range_evenly():
    torch.manual_seed(1)
    x = torch.randint(-5, 95, (200_000,))
    assert int(x.min()) == -5 and int(x.max()) == 94
    counts = torch.bincount(x + 5, minlength=100).double()
    assert float((counts / counts.mean() - 1).abs().max()) < 0.1
    wide = torch.randint(-(2**62), 2**62, (10_000,))  # past 2^32: the modulo path
    assert float(wide.double().abs().mean()) > 2**60
    extreme = torch.empty(1000, dtype=torch.int64).random_(-(2**63), 2**63 - 1)
    assert int(extreme.min()) < -(2**61) and int(extreme.max()) > 2**61
    small = torch.empty(1000, dtype=torch.uint8).random_()
    assert int(small.max()) > 200


def test_normal_moments_and_threads_do_not_change_values():
    torch.manual_seed(2)
    x = torch.randn(300_001, dtype=torch.float64)
    assert abs(float(x.mean())) < 0.01 and abs(float(x.std()) - 1) < 0.01
    threads = torch.get_num_threads()
    try:
        torch.manual_seed(4)
        many = torch.randn(50_001)
        torch.set_num_threads(1)
        torch.manual_seed(4)
        assert torch.equal(torch.randn(50_001), many)
    finally:
        torch.set_num_threads(threads)
