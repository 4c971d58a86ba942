"""The at:: function of each op (Functions.cpp): the device it dispatches on,
the check that every tensor is on that device, the switch over the backends'
kernels, and, for a differentiable op, the autograd recording around the
kernel call (autograd.py). Signatures come from cpp.py."""
from __future__ import annotations

from . import autograd, cpp
from .context import CodegenContext
from .model import FunctionSchema, NativeFunction


def _result_exprs(s: FunctionSchema) -> list[str]:
    """C++ expressions of the tensor outputs of `result_` (none for Scalar returns; a
    single Tensor[] return is `result_`, a vector, which autograd.recording handles)."""
    rets = s.returns
    if autograd.returns_list(s):
        return ["result_"]
    if any(r.type.base != "Tensor" or r.type.is_list for r in rets):
        return []
    if len(rets) == 1:
        return ["result_"]
    return [f"std::get<{i}>(result_)" for i in range(len(rets))]


def _tensor_checks(f: NativeFunction, check: str, *leading: str) -> list[str]:
    """`check("op", <leading args>, {&t1, &t2, ...})` over the op's single tensor
    arguments (an absent optional one as nullptr), and once per tensor list."""
    s = f.func
    singles, lists = [], []
    for a in s.arguments:
        if a.type.base != "Tensor":
            continue
        if a.type.is_list:
            lists.append(a.name)
        elif a.type.optional:
            singles.append(f"{a.name} ? &*{a.name} : nullptr")
        else:
            singles.append(f"&{a.name}")
    prefix = ", ".join((f'"{s.name}"',) + leading)
    checks = [f'{check}({prefix}, {{{", ".join(singles)}}});'] if singles else []
    return checks + [f"{check}({prefix}, {name});" for name in lists]


def device_checks(f: NativeFunction) -> list[str]:
    """Checks that every tensor argument is on the dispatch device (PyTorch's
    "Expected all tensors to be on the same device"): a kernel never reads
    memory of another device. `device_check: NoCheck` ops move data themselves."""
    if f.device_check == "NoCheck":
        return []
    tensors = [a for a in f.func.arguments if a.type.base == "Tensor"]
    if len(tensors) < 2 and not any(a.type.is_list for a in tensors):
        return []
    return _tensor_checks(f, "check_same_device", "device_")


def complex_checks(f: NativeFunction) -> list[str]:
    """Refusals of complex tensors for the ops not tagged `complex`: their
    kernels compute with numbers, and none has a complex case."""
    return [] if f.takes_complex else _tensor_checks(f, "check_not_complex")


def function_definition(ctx: CodegenContext, f: NativeFunction) -> str:
    s = f.func
    args = cpp.ordered_arguments(s)
    names = ", ".join(a.name for a in args)
    ret = cpp.return_type(s.returns)
    head = f"{ret} {cpp.cpp_name(s)}({cpp.params(args, False)})"
    kernels = f.kernels()
    if "CompositeImplicitAutograd" in kernels:
        # Differentiated through the ops it calls: nothing to record here.
        return f"{head} {{\n  return native::{kernels['CompositeImplicitAutograd']}({names});\n}}\n"
    cases = [f"      case at::DeviceType::{key}:\n        return native::{kernels[key]}({names});"
             for key in ctx.backends if key in kernels]
    kernel_call = (
        f"[&]() -> {ret} {{\n"
        "    autograd::AutoGradMode no_grad_(false);  // what the kernel calls is not recorded\n"
        f"    const at::Device device_ = {cpp.dispatch_expression(f)};\n"
        + "".join(f"    {c}\n" for c in device_checks(f) + complex_checks(f)) +
        "    switch (device_.type) {\n" + "\n".join(cases) + "\n      default:\n        break;\n    }\n"
        f'    no_kernel("{s.full_name}", device_);\n'
        "  }()"
    )
    results = _result_exprs(s)
    before: list[str] = []
    after: list[str] = []
    if s.is_out_fn:
        # Every tensor argument counts, the out= tensors too, as in PyTorch.
        singles = [a for a in s.arguments if a.type.is_tensor and not a.type.optional]
        checks = ["autograd::any_requires_grad({" + ", ".join(f"&{a.name}" for a in singles) + "})"] if singles else []
        checks += [f"autograd::any_requires_grad({a.name})" for a in s.arguments
                   if a.type.base == "Tensor" and a.type.is_list and not a.type.elem_optional]
        checks += [f"({a.name} && autograd::any_requires_grad({{&*{a.name}}}))" for a in s.arguments
                   if a.type.is_tensor and a.type.optional]
        before.append(f"TORCH_CHECK(!({' || '.join(checks)}), \"{s.name}(): functions with out=... arguments don't "
                      "support automatic differentiation, but one of the arguments requires grad.\");")
    elif results:
        d = ctx.derivatives.get(s.full_name)
        if d is not None:
            before, after = autograd.recording(d, f, results)
        elif not autograd.returns_list(s):
            before, after = autograd.not_implemented_recording(f, results)
    bumps = [f"{a.name}.unsafeGetTensorImpl()->bump_version();" for a in s.arguments if a.type.mutable]
    body = before + [f"{ret} result_ = {kernel_call};"] + bumps + after + ["return result_;"]
    return f"{head} {{\n" + "\n".join("  " + line for line in "\n".join(body).split("\n")) + "\n}\n"
