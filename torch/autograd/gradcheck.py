"""gradcheck: compares the analytical Jacobian of a function (one backward
pass per output element) with central finite differences (two forward passes
per input element), in float64. gradgradcheck does the same for the function
that computes the first gradients (with create_graph), which checks second
derivatives."""
import torch

__all__ = ["gradcheck", "gradgradcheck"]


# PyTorch's further checks: accepted when off, refused when asked for (they are not implemented here).
_UNSUPPORTED_CHECKS = ("check_batched_grad", "check_batched_forward_grad", "check_forward_ad", "fast_mode")


def gradcheck(fn, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_backward_ad=True, masked=None, **checks):
    """True when every input's gradient of every output matches its numerical estimate."""
    for name, value in checks.items():
        if name not in _UNSUPPORTED_CHECKS:
            raise TypeError(f"gradcheck() got an unexpected keyword argument '{name}'")
        if value:
            raise NotImplementedError(f"gradcheck: {name}=True is not supported by this torch")
    inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
    diff_inputs = [x for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]
    for x in diff_inputs:
        if x.dtype != torch.float64:
            raise ValueError(f"gradcheck expects float64 inputs, got {x.dtype}")
    outputs = _outputs(fn, inputs)
    # Every analytical Jacobian first: the numerical ones perturb the inputs in
    # place, which (rightly) invalidates the graph the outputs were built with.
    analyticals = {}
    for k, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        flat = out.reshape(-1)
        analytical = [torch.zeros(flat.numel(), x.numel(), dtype=torch.float64) for x in diff_inputs]
        for j in range(flat.numel()):
            grads = torch.autograd.grad([flat[j]], diff_inputs, retain_graph=True, allow_unused=True)
            for a, g in zip(analytical, grads):
                if g is not None:
                    a[j] = g.reshape(-1)
        analyticals[k] = analytical
    if not check_backward_ad:
        return True
    for k, analytical in analyticals.items():
        for i, x in enumerate(diff_inputs):
            numerical = _numerical_jacobian(fn, inputs, x, k, eps, analytical[i].shape[0])
            bad = (analytical[i] - numerical).abs() > (numerical.abs() * rtol + atol)
            if bad.any().item():
                if raise_exception:
                    raise RuntimeError(f"Jacobian mismatch for output {k} with respect to input {i}:\n"
                                       f"analytical:\n{analytical[i]}\nnumerical:\n{numerical}")
                return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0, check_undefined_grad=True,
                  check_grad_dtypes=False, check_batched_grad=False, check_fwd_over_rev=False, check_rev_over_rev=True,
                  fast_mode=False, masked=False):
    """gradcheck of (inputs, grad_outputs) -> the gradients of func's outputs with respect to its inputs,
    computed with create_graph=True. grad_outputs default to random ones that require grad."""
    for name, value in (("check_batched_grad", check_batched_grad), ("check_fwd_over_rev", check_fwd_over_rev),
                        ("fast_mode", fast_mode)):
        if value:
            raise NotImplementedError(f"gradgradcheck: {name}=True is not supported by this torch")
    inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
    if grad_outputs is None:
        generator = torch.Generator().manual_seed(0)
        grad_outputs = tuple(torch.randn(o.shape, dtype=torch.float64, generator=generator).requires_grad_()
                             for o in _outputs(func, inputs) if o.requires_grad)
    grad_outputs = tuple(grad_outputs) if isinstance(grad_outputs, (list, tuple)) else (grad_outputs,)
    count = len(inputs)

    def first_gradients(*args):
        ins, outs_grads = args[:count], args[count:]
        with torch.enable_grad():  # the numerical side calls this under no_grad
            outs = [o for o in _outputs(func, ins) if o.requires_grad]
            diff_inputs = [x for x in ins if isinstance(x, torch.Tensor) and x.requires_grad]
            grads = torch.autograd.grad(outs, diff_inputs, list(outs_grads)[:len(outs)], create_graph=True,
                                        allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_gradients, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol)


def _outputs(fn, inputs):
    out = fn(*inputs)
    out = out if isinstance(out, (list, tuple)) else (out,)
    return [o for o in out if isinstance(o, torch.Tensor) and o.dtype.is_floating_point]


def _numerical_jacobian(fn, inputs, x, k, eps, n_out):
    """Column i: d output_k / d x_i by central differences (x is perturbed in place, then restored)."""
    columns = []
    flat = x.detach().reshape(-1)
    with torch.no_grad():
        for i in range(flat.numel()):
            orig = flat[i].item()
            flat[i] = orig + eps
            plus = _outputs(fn, inputs)[k].reshape(-1).clone()
            flat[i] = orig - eps
            minus = _outputs(fn, inputs)[k].reshape(-1).clone()
            flat[i] = orig
            columns.append((plus - minus) / (2 * eps))
    if not columns:
        return torch.zeros(n_out, 0, dtype=torch.float64)
    return torch.stack(columns, 1)
