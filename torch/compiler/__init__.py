"""torch.compiler: compilation is not part of this build, so code never runs
compiled: is_compiling() and is_dynamo_compiling() are False, disable returns
what it decorates (eager code is what it asks for), and torch.compile raises
a RuntimeError naming the feature."""
from torch._unsupported import define, identity_decorator

disable = assume_constant_result = allow_in_graph = identity_decorator


def is_compiling():
    return False


def is_dynamo_compiling():
    return False


define(globals(), "torch.compiler", "torch.compile", ["compile", "reset"])
