"""no_grad, enable_grad and set_grad_enabled: context managers and decorators
over the thread-local grad mode of the C++ core."""
import functools

from torch import _C

is_grad_enabled = _C.is_grad_enabled


class _GradModeBase:
    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._args):
                return fn(*args, **kwargs)

        return wrapper

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False


class no_grad(_GradModeBase):
    """Ops inside do not record the backward graph."""

    _args = ()

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(False)
        return self


class enable_grad(_GradModeBase):
    """Turns recording back on inside a no_grad block."""

    _args = ()

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(True)
        return self


class set_grad_enabled(_GradModeBase):
    """Turns recording on or off; takes effect at once, and undoes itself as a context manager."""

    def __init__(self, mode):
        self._args = (mode,)
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(bool(mode))

    def __enter__(self):
        return self


class inference_mode(_GradModeBase):
    """No graph recording, like no_grad (PyTorch also skips version counting
    inside; here tensors made inside are ordinary tensors). inference_mode(False)
    leaves the grad mode as it is."""

    def __new__(cls, mode=True):
        if callable(mode) and not isinstance(mode, bool):  # @inference_mode without parentheses
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode=True):
        self._args = (mode,)
        self._mode = bool(mode)

    depth = 0  # how many inference_mode(True) blocks are open (torch.is_inference_mode_enabled)

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        if self._mode:
            _C._set_grad_enabled(False)
            inference_mode.depth += 1
        return self

    def __exit__(self, *exc):
        if self._mode:
            inference_mode.depth -= 1
        return super().__exit__(*exc)
