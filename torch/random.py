"""Seeds, generator state and torch.Generator.

The CPU core has one generator (a 64-bit Mersenne Twister, ATen/core/
Generator.h). A torch.Generator object keeps its own stream as a saved state;
a random function given generator=g runs with g's state swapped into the core
and saves the advanced state back, so draws from g never disturb the global
stream and the same seed gives the same numbers. The swap holds a lock, so
Python threads drawing from different generators do not interleave; threads
drawing from the global generator meanwhile are not serialised with it.
"""
import functools
import os
import threading

import torch
from torch import _C

__all__ = ["Generator", "default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state"]

_swap_lock = threading.RLock()


def _state_tensor(raw):
    return torch.tensor(list(raw), dtype=torch.uint8)


def _state_bytes(state, who):
    if not isinstance(state, torch.Tensor) or state.dtype != torch.uint8:
        raise TypeError(f"{who} expects a torch.uint8 tensor (as get_rng_state returns), got "
                        f"{state.dtype if isinstance(state, torch.Tensor) else type(state).__name__}")
    return bytes(state.cpu().tolist())


def get_rng_state():
    """The default CPU generator's state, as a uint8 tensor."""
    return _state_tensor(_C._get_rng_state())


def set_rng_state(new_state):
    """Restores a state get_rng_state returned; anything else raises RuntimeError."""
    _C._set_rng_state(_state_bytes(new_state, "set_rng_state"))


def manual_seed(seed):
    """Seeds every generator of the default device set and returns torch.default_generator."""
    _C.manual_seed(int(seed))
    return default_generator


def seed():
    """Seeds the default generator from the operating system's entropy and returns the seed."""
    s = int.from_bytes(os.urandom(8), "little") & ((1 << 63) - 1)
    _C.manual_seed(s)
    return s


def initial_seed():
    return _C.initial_seed()


class Generator:
    """An independent random stream: pass it as generator= to random functions and to DataLoader."""

    def __init__(self, device="cpu"):
        self.device = torch.device(device)
        if self.device.type != "cpu":
            raise NotImplementedError(f"torch.Generator(device={str(self.device)!r}): only CPU generators are "
                                      "supported; CUDA draws use the device's default generator")
        self._state = self._fresh_state(67280421310721)  # PyTorch's default seed, as the core's

    @staticmethod
    def _fresh_state(seed_value):
        with _swap_lock:
            saved = _C._get_rng_state()
            try:
                _C.manual_seed(seed_value)
                return _C._get_rng_state()
            finally:
                _C._set_rng_state(saved)

    def manual_seed(self, seed):
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"manual_seed expected an int, got {type(seed).__name__}")
        self._state = self._fresh_state(seed)
        return self

    def seed(self):
        s = int.from_bytes(os.urandom(8), "little") & ((1 << 63) - 1)
        self.manual_seed(s)
        return s

    def initial_seed(self):
        return int(self._state.split(b" ")[1])

    def get_state(self):
        return _state_tensor(self._state)

    def set_state(self, new_state):
        raw = _state_bytes(new_state, "Generator.set_state")
        self._fresh_check(raw)
        self._state = raw
        return self

    @staticmethod
    def _fresh_check(raw):
        with _swap_lock:
            saved = _C._get_rng_state()
            try:
                _C._set_rng_state(raw)  # raises for bytes that are not a state
            finally:
                _C._set_rng_state(saved)

    def __repr__(self):
        return f"<torch.Generator object at {hex(id(self))}>"

    def _run(self, fn, *args, **kwargs):
        with _swap_lock:
            saved = _C._get_rng_state()
            _C._set_rng_state(self._state)
            try:
                return fn(*args, **kwargs)
            finally:
                self._state = _C._get_rng_state()
                _C._set_rng_state(saved)


class _DefaultGenerator(Generator):
    """torch.default_generator: the core's own stream, read and written in place."""

    def __init__(self):
        self.device = torch.device("cpu")

    @property
    def _state(self):
        return _C._get_rng_state()

    @_state.setter
    def _state(self, raw):
        _C._set_rng_state(raw)

    def manual_seed(self, seed):
        _C.manual_seed(seed)
        return self

    def _run(self, fn, *args, **kwargs):
        return fn(*args, **kwargs)


default_generator = _DefaultGenerator()


def with_generator(fn):
    """fn with a generator= keyword, as PyTorch's random functions take."""

    @functools.wraps(fn)
    def wrapper(*args, generator=None, **kwargs):
        if generator is None:
            return fn(*args, **kwargs)
        if not isinstance(generator, Generator):
            raise TypeError(f"{fn.__name__}(): argument 'generator' must be torch.Generator, not "
                            f"{type(generator).__name__}")
        return generator._run(fn, *args, **kwargs)

    return wrapper
