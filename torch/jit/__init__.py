"""torch.jit: TorchScript is not part of this build. What model code calls in
eager mode works as in eager PyTorch (is_scripting() and is_tracing() are
False; ignore, unused, export and interface return what they decorate;
annotate returns its value); script, trace, save and load raise a
RuntimeError naming the feature."""
from torch._unsupported import define, identity_decorator

ignore = unused = export = interface = identity_decorator


def is_scripting():
    return False


def is_tracing():
    return False


def annotate(the_type, the_value):
    return the_value


define(globals(), "torch.jit", "TorchScript (torch.jit)", ["script", "trace", "trace_module", "save", "load", "freeze",
                                                           "optimize_for_inference", "fork", "wait",
                                                           "script_if_tracing"])
