"""gradcheck: compares the analytical gradients of a function with central
finite differences, in float64."""
import torch


def _flat_inputs(inputs):
    return [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]


def gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    """True when every input gradient of every output matches its numerical estimate."""
    inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
    diff_inputs = _flat_inputs(inputs)
    for x in diff_inputs:
        if x.dtype != torch.float64:
            raise ValueError(f"gradcheck expects float64 inputs, got {x.dtype}")
    outputs = fn(*inputs)
    outputs = outputs if isinstance(outputs, (list, tuple)) else (outputs,)
    for k, out in enumerate(outputs):
        if not isinstance(out, torch.Tensor) or not out.requires_grad or not out.dtype.is_floating_point:
            continue
        flat_out = out.reshape(-1)
        for j in range(flat_out.numel()):
            analytical = torch.autograd.grad([flat_out[j]], diff_inputs, retain_graph=True, allow_unused=True)
            for i, x in enumerate(diff_inputs):
                numerical = _numerical(fn, inputs, x, k, j, eps)
                got = analytical[i] if analytical[i] is not None else torch.zeros_like(x)
                bad = (got - numerical).abs() > (numerical.abs() * rtol + atol)
                if bad.any().item():
                    if raise_exception:
                        raise RuntimeError(f"Jacobian mismatch for output {k} element {j} w.r.t. input {i}:\n"
                                           f"analytical {got}\nnumerical {numerical}")
                    return False
    return True


def _numerical(fn, inputs, x, k, j, eps):
    grad = torch.zeros_like(x).reshape(-1)
    flat = x.detach().reshape(-1)
    with torch.no_grad():
        for i in range(flat.numel()):
            orig = flat[i].item()
            flat[i] = orig + eps
            plus = _output(fn, inputs, k).reshape(-1)[j].item()
            flat[i] = orig - eps
            minus = _output(fn, inputs, k).reshape(-1)[j].item()
            flat[i] = orig
            grad[i] = (plus - minus) / (2 * eps)
    return grad.reshape(x.shape)


def _output(fn, inputs, k):
    out = fn(*inputs)
    return out[k] if isinstance(out, (list, tuple)) else out
