"""Coverage-guided fuzzing of the binding (atheris): every builtin function of
`torch`, every method of `torch.Tensor` and the constructors called with
hostile arguments (tests/fuzz/hostile.py). Each call must return or raise a
Python exception; a crash, a hang (-timeout) or memory past the address-space
limit set below is a finding.

    python tests/fuzz/fuzz_binding.py -runs=20000 -seed=1 [corpus_dir]   # see ci/fuzz.sh
"""
import os
import resource
import sys
import warnings

import atheris

with atheris.instrument_imports(include=["torch"]):
    import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile  # noqa: E402

# Calls that change process-wide state the fuzzer relies on (threads, the
# default dtype, grad mode, RNG streams) or that only wrap others.
SKIP = {"set_num_threads", "set_num_interop_threads", "set_default_dtype", "set_grad_enabled", "manual_seed",
        "seed", "set_rng_state", "set_printoptions", "use_deterministic_algorithms", "set_flush_denormal",
        "set_anomaly_enabled", "initial_seed"}
KWARGS = ["dim", "dtype", "out", "keepdim", "device", "size", "requires_grad", "alpha", "value", "index", "src",
          "min", "max", "p", "k", "largest", "sorted", "descending", "stable", "weight", "bias", "stride",
          "padding", "dilation", "groups", "padding_idx", "generator", "memory_format", "layout", "pin_memory",
          "non_blocking", "copy", "reduce", "include_self", "as_tuple", "unbiased", "correction", "axis",
          "keepdims", "approximate", "diagonal", "replacement", "num_samples", "low", "high", "start", "end", "step"]


def _is_builtin(obj):
    return type(obj).__name__ in ("builtin_function_or_method", "method_descriptor")


FUNCTIONS = sorted(n for n in dir(torch) if not n.startswith("__") and n not in SKIP and _is_builtin(getattr(torch, n)))
FUNCTIONS += ["tensor", "as_tensor", "from_numpy", "from_dlpack", "Size", "device", "load"]
METHODS = sorted(n for n in dir(torch.Tensor) if n not in SKIP and _is_builtin(getattr(torch.Tensor, n))
                 and n not in ("__init_subclass__", "__subclasshook__", "__new__", "__reduce_ex__"))
METHODS += ["__getitem__", "__setitem__", "type", "to", "view", "reshape", "expand", "new_tensor", "numpy"]


VERBOSE = bool(os.environ.get("TORCH_FUZZ_VERBOSE"))


def one_input(data):
    fdp = atheris.FuzzedDataProvider(data)
    on_tensor = fdp.ConsumeBool()
    name = fdp.PickValueInList(METHODS if on_tensor else FUNCTIONS)
    draw = hostile.plausible if fdp.ConsumeIntInRange(0, 3) else hostile.value
    args = [draw(fdp) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    kwargs = {fdp.PickValueInList(KWARGS): draw(fdp) for _ in range(max(0, fdp.ConsumeIntInRange(-4, 2)))}
    target = hostile.tensor(fdp) if on_tensor else torch
    if VERBOSE:  # replaying a finding: say what is about to be called
        print(f"{'tensor' if on_tensor else 'torch'}.{name}(*{args!r:.300}, **{kwargs!r:.300})", flush=True)
    try:
        fn = getattr(target, name)
        result = fn(*args, **kwargs)
        if isinstance(result, torch.Tensor) and result.numel() < 1 << 20:
            repr(result)  # touch every element: a result must be readable memory
    except Exception:  # any Python exception is a clean answer to hostile input
        pass


def main():
    # "Unbounded allocation": past 4 GiB of address space the allocator must
    # answer with torch's out-of-memory error instead (RLIMIT_AS is not set
    # under ASan, which reserves terabytes of shadow memory).
    if "asan" not in os.environ.get("LD_PRELOAD", ""):
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    warnings.simplefilter("ignore")
    torch.set_num_threads(1)
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
