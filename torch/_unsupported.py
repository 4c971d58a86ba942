"""Names of PyTorch features this build leaves out (docs/USING.md, "Out of scope"),
importable so that scripts which only import them, or take the branch that
does not use them, run; calling one raises a RuntimeError that names the
feature."""


def unsupported(qualname, feature):
    def refuse(*args, **kwargs):
        raise RuntimeError(f"{qualname}: {feature} is not part of this build of torch (see docs/USING.md, 'Out of scope')")

    refuse.__name__ = qualname.rsplit(".", 1)[-1]
    refuse.__qualname__ = refuse.__name__
    refuse.__doc__ = f"Not available: {feature} is not part of this build of torch."
    return refuse


def define(namespace, module_name, feature, names):
    """torch.<module>.<name> = a function raising for each of names."""
    for name in names:
        namespace[name] = unsupported(f"{module_name}.{name}", feature)


def identity_decorator(fn=None, *args, **kwargs):
    """Markers that eager PyTorch ignores (torch.jit.ignore, torch.compiler.disable):
    used bare (@ignore) or with arguments (@ignore(drop=True)), they return the function."""
    if callable(fn):
        return fn
    return lambda f: f
