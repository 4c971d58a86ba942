"""What the optimizers share: argument checks with PyTorch's messages, the
gradient a step follows, and scalar state kept as PyTorch keeps it."""
import torch


def check_betas(betas):
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
    return tuple(betas)


def check_range(label, value, low, high):
    if not low <= value <= high:
        raise ValueError(f"Invalid {label} value: {value}")


def gradient(p, group):
    """The gradient a step follows: negated under maximize."""
    return -p.grad if group["maximize"] else p.grad


def with_weight_decay(grad, p, weight_decay):
    """L2 weight decay folded into the gradient (the non-decoupled form)."""
    return grad.add(p, alpha=weight_decay) if weight_decay != 0 else grad


def scalar_state(value):
    """A 0-d tensor in PyTorch's dtype for optimizer scalars kept as tensors
    (float64 under a float64 default, else float32), so a value that PyTorch
    rounds to float32 between steps is rounded here too."""
    dtype = torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32
    return torch.tensor(value, dtype=dtype)
