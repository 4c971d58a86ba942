"""nn.Module hooks: forward (pre) hooks, full backward (pre) hooks, state_dict and
load_state_dict hooks, the global register_module_* hooks, and their handles,
with the semantics PyTorch documents."""
import pytest
import torch
import torch.nn as nn
from torch.nn.modules import module as module_mod


def mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))


def test_forward_pre_hook_replaces_args_and_handle_removes_it():
    m = mlp()
    x = torch.randn(5, 3)
    plain = m(x)
    handle = m[0].register_forward_pre_hook(lambda mod, args: args[0] * 2)  # a bare tensor is wrapped in a tuple
    doubled = m(x)
    handle.remove()
    assert torch.allclose(doubled, m[2](m[1](m[0](x * 2))))
    assert torch.equal(m(x), plain)


def test_forward_hook_sees_args_and_replaces_output():
    m = mlp()
    x = torch.randn(5, 3)
    seen = []

    def hook(mod, args, out):
        seen.append((mod, args[0], out.shape))
        return out * 0

    with m[0].register_forward_hook(hook):
        y = m(x)
    assert seen[0][0] is m[0] and seen[0][1] is x and seen[0][2] == (5, 4)
    assert torch.allclose(y, m[2](m[1](torch.zeros(5, 4))))
    assert not m[0]._forward_hooks  # the with block removed it


def test_hooks_with_kwargs_prepend_and_always_call():
    class Scale(nn.Module):
        def forward(self, x, factor=1.0):
            if factor < 0:
                raise ValueError("negative")
            return x * factor

    m = Scale()
    order = []
    m.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": 3.0}), with_kwargs=True)
    m.register_forward_hook(lambda mod, args, out: order.append("second"))
    m.register_forward_hook(lambda mod, args, out: order.append("first"), prepend=True)
    m.register_forward_hook(lambda mod, args, kwargs, out: order.append(kwargs["factor"]), with_kwargs=True)
    assert torch.equal(m(torch.ones(2)), torch.full((2,), 3.0))
    assert order == ["first", "second", 3.0]

    calls = []
    bad = Scale()
    bad.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": -1.0}), with_kwargs=True)
    bad.register_forward_hook(lambda mod, args, out: calls.append(out), always_call=True)
    bad.register_forward_hook(lambda mod, args, out: calls.append("never"))
    with pytest.raises(ValueError, match="negative"):
        bad(torch.ones(2))
    assert calls == [None]

    wrong = Scale()
    wrong.register_forward_pre_hook(lambda mod, args, kwargs: "x", with_kwargs=True)
    with pytest.raises(RuntimeError, match=r"forward pre-hook must return None or a tuple of \(new_args, new_kwargs\)"):
        wrong(torch.ones(2))


def test_full_backward_hook_sees_and_replaces_gradients():
    m = mlp()
    x = torch.randn(5, 3, requires_grad=True)
    m(x).sum().backward()
    reference = x.grad.clone()
    x.grad = None

    seen = {}

    def last(mod, grad_input, grad_output):
        seen["last"] = (grad_input[0].clone(), grad_output[0].clone())

    m[2].register_full_backward_hook(last)
    m[0].register_full_backward_hook(lambda mod, grad_input, grad_output: (grad_input[0] * 2,))
    out = m(x)
    out.sum().backward()
    assert torch.allclose(x.grad, reference * 2)
    grad_in, grad_out = seen["last"]
    assert torch.equal(grad_out, torch.ones(5, 2))
    assert torch.allclose(grad_in, torch.ones(5, 2) @ m[2].weight)


def test_backward_pre_hook_replaces_grad_output():
    m = mlp()
    x = torch.randn(5, 3, requires_grad=True)
    m(x).sum().backward()
    reference = x.grad.clone()
    x.grad = None
    m[2].register_full_backward_pre_hook(lambda mod, grad_output: (grad_output[0] * -1,))
    m(x).sum().backward()
    assert torch.allclose(x.grad, -reference)


def test_backward_hook_when_no_input_requires_grad():
    m = mlp()
    seen = []
    m[0].register_full_backward_hook(lambda mod, gi, go: seen.append((gi, go[0].shape)))
    m(torch.randn(5, 3)).sum().backward()
    assert seen == [((None,), (5, 4))]
    assert m[0].weight.grad is not None

    first = nn.Linear(3, 4)
    first.register_full_backward_hook(lambda mod, gi, go: (torch.ones(5, 3),))
    with pytest.raises(RuntimeError, match="no input requires gradient should always return None"):
        first(torch.randn(5, 3)).sum().backward()


def test_backward_hook_checks_the_count_and_the_kinds_do_not_mix():
    lin = nn.Linear(3, 3)
    lin.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
    with pytest.raises(RuntimeError, match="invalid number of grad_input, got 2, but expected 1"):
        lin(torch.randn(2, 3, requires_grad=True)).sum().backward()
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks and full backward hooks"):
        lin.register_backward_hook(lambda *a: None)


def test_no_backward_hook_work_under_no_grad():
    lin = nn.Linear(3, 3)
    lin.register_full_backward_hook(lambda mod, gi, go: None)
    with torch.no_grad():
        y = lin(torch.randn(2, 3))
    assert y.grad_fn is None


def test_global_hooks_run_for_every_module_and_before_its_own():
    m = mlp()
    order = []
    m[0].register_forward_hook(lambda mod, args, out: order.append("own"))
    handles = [module_mod.register_module_forward_pre_hook(lambda mod, args: order.append(("pre", type(mod).__name__))),
               module_mod.register_module_forward_hook(lambda mod, args, out: order.append("global"))]
    try:
        m(torch.randn(1, 3))
    finally:
        for h in handles:
            h.remove()
    assert order[:3] == [("pre", "Sequential"), ("pre", "Linear"), "global"] and order[3] == "own"
    assert sum(1 for o in order if o == "global") == 4
    order.clear()
    m(torch.randn(1, 3))
    assert order == ["own"]

    grads = []
    h = module_mod.register_module_full_backward_hook(lambda mod, gi, go: grads.append(type(mod).__name__))
    try:
        m(torch.randn(1, 3, requires_grad=True)).sum().backward()
    finally:
        h.remove()
    assert sorted(grads) == ["Linear", "Linear", "Sequential", "Tanh"]


def test_registration_hooks():
    seen = []
    h = module_mod.register_module_parameter_registration_hook(lambda mod, name, p: seen.append(name))
    h2 = module_mod.register_module_buffer_registration_hook(lambda mod, name, b: b * 0)
    try:
        lin = nn.Linear(2, 2)
        lin.register_buffer("running", torch.ones(2))
    finally:
        h.remove()
        h2.remove()
    assert seen == ["weight", "bias"]
    assert torch.equal(lin.running, torch.zeros(2))


def test_state_dict_hooks_and_metadata():
    m = mlp()
    calls = []
    m[0].register_state_dict_pre_hook(lambda mod, prefix, keep_vars: calls.append(("pre", prefix)))

    def post(mod, sd, prefix, local_metadata):
        calls.append(("post", prefix, local_metadata["version"]))
        sd[prefix + "extra"] = torch.zeros(1)

    m[0].register_state_dict_post_hook(post)
    sd = m.state_dict()
    assert calls == [("pre", "0."), ("post", "0.", 1)]
    assert "0.extra" in sd and list(sd._metadata) == ["", "0", "1", "2"]

    m[2].register_state_dict_post_hook(lambda *a: {})
    with pytest.raises(RuntimeError, match="state_dict post-hook must return None"):
        m.state_dict()


def test_load_state_dict_hooks_rename_keys_and_clear_errors():
    m = mlp()
    source = {k.replace("weight", "w"): v + 1 for k, v in m.state_dict().items()}

    def rename(mod, sd, prefix, local_metadata, strict, missing, unexpected, errors):
        for name in ("w",):
            if prefix + name in sd:
                sd[prefix + "weight"] = sd.pop(prefix + name)

    for lin in (m[0], m[2]):
        lin.register_load_state_dict_pre_hook(rename)
    before = m[0].weight.detach().clone()
    assert repr(m.load_state_dict(source)) == "<All keys matched successfully>"
    assert torch.equal(m[0].weight.detach(), before + 1)

    seen = []
    m.register_load_state_dict_post_hook(lambda mod, keys: (seen.append(list(keys.missing_keys)),
                                                            keys.missing_keys.clear()) and None)
    partial = {k: v for k, v in m.state_dict().items() if k != "2.bias"}
    missing, unexpected = m.load_state_dict(partial)  # the hook cleared the missing key: no error
    assert seen == [["2.bias"]] and missing == [] and unexpected == []


def test_load_state_dict_errors_list_missing_first():
    m = nn.Linear(2, 2)
    with pytest.raises(RuntimeError) as info:
        m.load_state_dict({"weight": torch.zeros(2, 2), "extra": torch.zeros(1)} | {})
    text = str(info.value)
    assert text.index("Missing key(s) in state_dict: \"bias\"") < text.index("Unexpected key(s) in state_dict: \"extra\"")
    with pytest.raises(RuntimeError, match="expected torch.Tensor or Tensor-like object from checkpoint"):
        m.load_state_dict({"weight": 1.0, "bias": torch.zeros(2)})
    result = m.load_state_dict({"weight": torch.ones(2, 2)}, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == []


def test_load_state_dict_assign_takes_the_checkpoint_tensors():
    m = nn.Linear(2, 3)
    weight = torch.ones(3, 2)
    m.load_state_dict({"weight": weight, "bias": torch.zeros(3)}, assign=True)
    assert isinstance(m.weight, nn.Parameter) and m.weight.requires_grad
    assert m.weight.data_ptr() == weight.data_ptr()
    assert "_assign_on_load" not in vars(m)


def test_removable_handle_ids_and_extra_dicts():
    lin = nn.Linear(2, 2)
    h = lin.register_forward_hook(lambda *a: None, with_kwargs=True)
    assert h.id in lin._forward_hooks and h.id in lin._forward_hooks_with_kwargs
    h.remove()
    h.remove()  # twice is harmless
    assert not lin._forward_hooks and not lin._forward_hooks_with_kwargs
