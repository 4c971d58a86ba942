"""Reads the public API of the importable torch: for each module of MODULES,
its public callables and classes (no leading underscore, not a submodule,
not re-exported from outside torch), with parameter names where a signature
can be read."""
import importlib
import inspect
import types

# The modules the coverage measure counts, in report order. "torch.Tensor"
# stands for the Tensor class's methods.
MODULES = [
    "torch", "torch.Tensor", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.optim",
    "torch.optim.lr_scheduler", "torch.utils.data", "torch.linalg", "torch.autograd", "torch.fft",
    "torch.special", "torch.distributions", "torch.testing", "torch.library",
]

# Names defined by these packages are not counted at all (the measure
# leaves JIT, compile, fx, export, onnx, distributed, sparse, quantization
# and nested out of the total).
UNCOUNTED_ORIGINS = (
    "torch.jit", "torch._dynamo", "torch.compiler", "torch._inductor", "torch.fx", "torch.export",
    "torch.onnx", "torch.distributed", "torch.sparse", "torch.ao", "torch.quantization", "torch.nested",
)


def _resolve(module_name):
    if module_name == "torch.Tensor":
        import torch
        return torch.Tensor
    try:
        return importlib.import_module(module_name)
    except ImportError:
        return None


def _counted(value):
    if isinstance(value, types.ModuleType) or not callable(value):
        return False
    origin = getattr(value, "__module__", None) or ""
    if not isinstance(origin, str):
        return True
    if origin.startswith(UNCOUNTED_ORIGINS):
        return False
    # Re-exports of typing, functools, collections... are not torch's API.
    return origin == "" or origin.startswith("torch") or origin == "builtins"


def _parameters(value):
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return None
    return [name for name, p in signature.parameters.items()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and name != "self"]


def read_module(module_name):
    """{name: {"kind": "class" | "function", "params": [...] | None}}, or None if the module is absent."""
    obj = _resolve(module_name)
    if obj is None:
        return None
    names = {}
    for name in dir(obj):
        if name.startswith("_"):
            continue
        try:
            value = getattr(obj, name)
        except Exception:  # a lazy attribute that fails to load is as good as absent
            continue
        if not _counted(value):
            continue
        if name == "Tensor" and module_name != "torch":  # torch.Tensor seen again through an import
            continue
        names[name] = {"kind": "class" if isinstance(value, type) else "function", "params": _parameters(value)}
    return names


def read_api():
    import torch
    return {"torch_version": torch.__version__.split("+")[0],
            "modules": {m: read_module(m) for m in MODULES}}
