import torch


def parameters_to_vector(parameters):
    """Every parameter flattened and concatenated into one vector."""
    return torch.cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """Copies consecutive slices of vec into the parameters (the inverse of parameters_to_vector)."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    offset = 0
    for p in parameters:
        n = p.numel()
        with torch.no_grad():
            p.copy_(vec[offset:offset + n].view(p.shape))
        offset += n
