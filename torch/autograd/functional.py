"""torch.autograd.functional: derivatives of a whole function at a point.

vjp, jacobian and vhp are reverse-mode passes (torch.autograd.grad); jvp and
hvp are the double-backward trick (the vjp of a vjp, with create_graph);
hessian is the jacobian of the jacobian. Inputs and results follow PyTorch's
shapes: a Tensor for a Tensor, a tuple for a tuple, and (output, input)
nesting for a jacobian of several of each.

`vectorize=True` and `strategy="forward-mode"` (which PyTorch runs through
vmap and forward AD) give the same values here by the reverse-mode loop.
"""
import torch

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _as_tuple(inp, arg_name, fn_name):
    is_tuple = isinstance(inp, tuple)
    items = inp if is_tuple else (inp,)
    for i, item in enumerate(items):
        if not isinstance(item, torch.Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                                f"but the value at index {i} has type {type(item)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"the given {arg_name} has type {type(item)}.")
    return is_tuple, items


def _tuple_postprocess(res, to_unpack):
    """Undoes _as_tuple: unpacks the levels that were single Tensors."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(r[0] for r in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs, create_graph, need_graph):
    """Inputs that start a graph of their own: aliases keep the caller's graph under create_graph."""
    if create_graph:
        return tuple(t.view_as(t) if t.requires_grad else t.detach().requires_grad_(need_graph) for t in inputs)
    return tuple(t.detach().requires_grad_(need_graph) for t in inputs)


def _grad_postprocess(results, create_graph):
    if isinstance(results[0], torch.Tensor) or results[0] is None:
        return results if create_graph else tuple(r.detach() if r is not None else None for r in results)
    return tuple(_grad_postprocess(r, create_graph) for r in results)


def _finish(outputs, is_outputs_tuple, result, is_result_tuple, create_graph):
    """(func's output, the product), detached unless create_graph and unpacked as the caller passed them."""
    return (_tuple_postprocess(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(result, create_graph), is_result_tuple))


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
    for i, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {i} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}.")


def _prepare_v(v, refs, is_refs_tuple, create_graph, fn_name, refs_are_outputs):
    """v as a tuple shaped like refs; None only for a single one-element ref (then the vector is implied)."""
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _grad_preprocess(v, create_graph, need_graph=False)
        _validate_v(v, refs, is_refs_tuple)
        return v
    if len(refs) != 1 or refs[0].nelement() != 1:
        what = "the user-provided function returns" if refs_are_outputs else "the input to the user-provided function is"
        raise RuntimeError(f"The vector v can only be None if {what} a single Tensor with a single element.")
    return None


def _check_requires_grad(inputs, input_type, strict):
    if not strict:
        return
    if input_type not in ("outputs", "grad_inputs", "jacobian", "hessian"):
        raise RuntimeError("Invalid input_type to _check_requires_grad")
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode.")
        if not inp.requires_grad:
            if input_type == "hessian":
                raise RuntimeError(f"The hessian of the user-provided function with respect to input {i} is "
                                   "independent of the input. This is not allowed in strict mode. You should "
                                   "ensure that your function is thrice differentiable and that the hessian depends "
                                   "on the inputs.")
            if input_type == "jacobian":
                raise RuntimeError("While computing the hessian, found that the jacobian of the user-provided "
                                   f"function with respect to input {i} is independent of the input. This is not "
                                   "allowed in strict mode. You should ensure that your function is twice "
                                   "differentiable and that the jacobian depends on the inputs (this would be "
                                   "violated by a linear function for example).")
            if input_type == "grad_inputs":
                raise RuntimeError(f"The gradient with respect to input {i} is independent of the inputs of the "
                                   "user-provided function. This is not allowed in strict mode.")
            raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs "
                               "must be computed in a differentiable manner from the input when running in strict "
                               "mode.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """torch.autograd.grad over the outputs that require grad; None for inputs nothing reached."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return torch.autograd.grad([o for o, _ in pairs], inputs, [g for _, g in pairs], allow_unused=True,
                               create_graph=create_graph, retain_graph=retain_graph)


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    """Zeros where a gradient is None (strict mode refuses instead)."""
    out = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                if stage == "back":
                    raise RuntimeError(f"The output of the user-provided function is independent of input {i}. "
                                       "This is not allowed in strict mode.")
                if stage == "back_trick":
                    raise RuntimeError(f"The gradient with respect to the input is independent of entry {i} in the "
                                       "grad_outputs when using the double backward trick to compute forward mode "
                                       "gradients. This is not allowed in strict mode.")
                if stage == "double_back":
                    raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. "
                                       "This is not allowed in strict mode.")
                raise RuntimeError(f"The hessian of the user-provided function is independent of entry {i} in the "
                                   "grad_jacobian. This is not allowed in strict mode as it prevents from using the "
                                   "double backward trick to replace forward mode AD.")
            g = torch.zeros_like(ref)
        out.append(g)
    return tuple(out)


def _outputs_of(func, inputs, fn_name):
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn_name)
    return is_outputs_tuple, outputs


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product at `inputs`."""
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = _outputs_of(func, inputs, "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        v = _prepare_v(v, outputs, is_outputs_tuple, create_graph, "vjp", refs_are_outputs=True)
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        vjp_result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "back")
    return _finish(outputs, is_outputs_tuple, vjp_result, is_inputs_tuple, create_graph)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick."""
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, "jvp", refs_are_outputs=False)
        is_outputs_tuple, outputs = _outputs_of(func, inputs, "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        # vjp with placeholder grad_outputs u, then the vjp of that (linear in u) with respect to u.
        grad_outputs = tuple(torch.zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
        grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        jvp_result = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    return _finish(outputs, is_outputs_tuple, jvp_result, is_outputs_tuple, create_graph)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of func at inputs: for an output of shape O and an input of shape I, a tensor of shape
    O + I (a tuple per input and/or per output when they are tuples)."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError("torch.autograd.functional.jacobian: `create_graph=True` and "
                                      '`strategy="forward-mode"` are not supported together (yet). Please either '
                                      'set `create_graph=False` or `strategy="reverse-mode"`.')
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is only "
                                      "implemented for `vectorize=True`.")
    if strict and vectorize:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorize=True` are not supported "
                           "together. Please either set `strict=False` or `vectorize=False`.")
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = _outputs_of(func, inputs, "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        jacobians = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(flat.numel()):
                vj = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
                for k, (g, inp) in enumerate(zip(vj, inputs)):
                    if g is None:
                        if strict and create_graph and not inp.requires_grad:
                            raise RuntimeError("The jacobian of the user-provided function is independent of input "
                                               f"{i}. This is not allowed in strict mode when create_graph=True.")
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of input "
                                               f"{k}. This is not allowed in strict mode.")
                        g = torch.zeros_like(inp)
                    rows[k].append(g)
            per_input = []
            for k, inp in enumerate(inputs):
                if rows[k]:
                    per_input.append(torch.stack(rows[k]).view(out.size() + inp.size()))
                else:  # an empty output: an empty jacobian
                    per_input.append(torch.zeros(out.size() + inp.size(), dtype=inp.dtype, device=inp.device))
            jacobians.append(tuple(per_input))
        jacobians = _grad_postprocess(tuple(jacobians), create_graph)
        return _tuple_postprocess(jacobians, (is_outputs_tuple, is_inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: shape I + I for an input of shape I (a tuple of tuples for several)."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict)
        if is_out_tuple or not isinstance(out, torch.Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _scalar_function_vector_product(func, inputs, v, create_graph, strict, name, trick):
    with torch.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", name)
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, name, refs_are_outputs=False)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", name)
        _check_requires_grad(outputs, "outputs", strict)
        if is_outputs_tuple or not isinstance(outputs[0], torch.Tensor):
            raise RuntimeError(f"The function given to {name} should return a single Tensor")
        if outputs[0].nelement() != 1:
            raise RuntimeError(f"The Tensor returned by the function given to {name} should contain a single element")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        if not trick:  # vhp: v^T H, the gradient of (jac . v)
            grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
            result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back")
        else:  # hvp: H v, the double-backward trick through a placeholder
            grad_jac = tuple(torch.zeros_like(inp, requires_grad=True) for inp in inputs)
            double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
            _check_requires_grad(jac, "hessian", strict)
            grad_res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
            result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back_trick")
    return _finish(outputs, is_outputs_tuple, result, is_inputs_tuple, create_graph)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a scalar function."""
    return _scalar_function_vector_product(func, inputs, v, create_graph, strict, "vhp", trick=False)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a scalar function (equal to vhp's result, H being symmetric)."""
    return _scalar_function_vector_product(func, inputs, v, create_graph, strict, "hvp", trick=True)
