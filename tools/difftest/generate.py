"""Seeded cases for every operator of native_functions.yaml.

Each case is a JSON-able description of one Python call: the op, how it is
called (torch.<op>, Tensor.<op>, in place, out=), and each argument, with
tensors described by shape, dtype, layout (contiguous, transposed, sliced
with a step, expanded), value kind and seed, so that two interpreters build
the same inputs. What an argument looks like follows from its type in the
schema and its name (`dim`, `index`, `mask`, `mat2`, `size`...): mostly valid
input, with 0-d, empty and size-1 dims, every dtype, Python scalars in place
of tensors, negative and out-of-range dims and indices, and a share of bad
input (wrong types, mismatched shapes) that must raise the same exception
class as PyTorch's.
"""
from __future__ import annotations

import math
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
from tools.codegen import model  # noqa: E402

YAML = os.path.join(ROOT, "aten", "src", "ATen", "native", "native_functions.yaml")
DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]
FLOATS = ["float32", "float64", "float16", "bfloat16"]
# Results that depend on a generator or on uninitialised memory: only their
# dtype and shape (or the error) are compared.
NONDETERMINISTIC = {"empty", "empty_like", "rand", "randn", "randint", "randperm", "random_", "uniform_", "normal_",
                    "bernoulli_", "rand_like", "randn_like", "randint_like", "resize_", "multinomial"}
# Ops whose operands are matrices: their shapes are drawn together.
LINALG = {"mm", "bmm", "addmm", "matmul", "dot", "outer", "linear"}
SCALARS = [0, 1, 2, -1, 3, -3, 0.5, -1.5, 2.5, 1e-3, True, False, 7, 100]
BIG_SCALARS = [300, -129, 70000, 2 ** 31, 2 ** 40, -(2 ** 63), 1e10, -1e30, 3.5e38, float("inf"), float("-inf"),
               float("nan")]


class Gen:
    """Draws the arguments of one case; `r` is its random.Random."""

    def __init__(self, r: random.Random, seed_base: int):
        self.r = r
        self.seed = seed_base

    def next_seed(self) -> int:
        self.seed += 1
        return self.seed

    # ---- tensors ----
    def shape(self, rank: int | None = None) -> list[int]:
        if rank is None:
            rank = self.r.choices([0, 1, 2, 3, 4], [12, 25, 33, 20, 10])[0]
        return [self.r.choices([0, 1, 2, 3, 4, 5], [6, 22, 26, 22, 12, 12])[0] for _ in range(rank)]

    def dtype(self, floating: bool = False) -> str:
        if floating:
            return self.r.choices(FLOATS, [60, 20, 10, 10])[0]
        return self.r.choices(DTYPES, [30, 10, 6, 6, 14, 7, 5, 5, 7, 10])[0]

    def tensor(self, shape, dtype, kind=None, layout=None, requires_grad=False) -> dict:
        if kind is None:
            kind = self.r.choices(["normal", "special", "positive", "integral"], [70, 12, 8, 10])[0]
        if layout is None:
            choices = ["contiguous"]
            if len(shape) >= 2:
                choices.append("transposed")
            if len(shape) >= 1:
                choices.append("sliced")
            if any(s != 1 for s in shape):
                choices.append("expanded")
            layout = self.r.choices(choices, [55, 15, 15, 15][: len(choices)])[0]
        base = list(shape)
        if layout == "transposed":
            base[-1], base[-2] = base[-2], base[-1]
        elif layout == "sliced":
            base[-1] = base[-1] * 2
        elif layout == "expanded":
            base = [1 if (s != 1 and self.r.random() < 0.6) else s for s in shape]
            if base == list(shape):
                layout = "contiguous"
        return {"t": "tensor", "shape": list(shape), "base": base, "dtype": dtype, "kind": kind, "layout": layout,
                "seed": self.next_seed(), "scale": self.r.choice([1.0, 1.0, 3.0, 0.1]),
                "requires_grad": requires_grad}

    def broadcastable(self, shape: list[int]) -> list[int]:
        """A shape that broadcasts with `shape` (mostly), or one that does not."""
        p = self.r.random()
        if p < 0.3:
            return list(shape)
        if p < 0.75:
            keep = self.r.randint(0, len(shape))
            tail = shape[len(shape) - keep:]
            return [1 if self.r.random() < 0.3 else s for s in tail]
        if p < 0.85:
            return [self.r.choice([1, 2])] + [1 if self.r.random() < 0.5 else s for s in shape]
        return self.shape()

    def index_kind(self, n: int) -> str:
        p = self.r.random()
        if n == 0:
            return "index:0,1" if p < 0.5 else "index:-1,2"
        if p < 0.8:
            return f"index:0,{n}"
        if p < 0.9:
            return f"index:{-n},{n}"
        return f"index:{-n - 2},{n + 2}"

    # ---- ints and lists ----
    def dim(self, rank: int) -> int:
        lo, hi = -max(rank, 1), max(rank, 1) - 1
        if self.r.random() < 0.9:
            return self.r.randint(lo, hi)
        return self.r.choice([lo - 1, hi + 1, 100])

    def dims(self, rank: int) -> list[int]:
        k = self.r.randint(0, max(rank, 1))
        out = [self.dim(rank) for _ in range(k)]
        if self.r.random() < 0.85:
            out = list(dict.fromkeys(d % max(rank, 1) for d in out))
        return out

    def reshaped(self, shape: list[int]) -> list[int]:
        n = math.prod(shape)
        p = self.r.random()
        if p < 0.15:
            return self.shape()
        if n == 0:
            out = [0] + self.shape(self.r.randint(0, 2))
        else:
            out, rest = [], n
            while rest > 1 and len(out) < 4:
                divisors = [d for d in range(2, rest + 1) if rest % d == 0]
                d = self.r.choice(divisors)
                out.append(d)
                rest //= d
            out += [1] * self.r.randint(0, 1)
            self.r.shuffle(out)
        if out and p > 0.8:
            out[self.r.randrange(len(out))] = -1
        return out

    def scalar(self, integral: bool = False):
        if self.r.random() < 0.1:
            return self.r.choice(BIG_SCALARS)
        v = self.r.choice(SCALARS)
        return int(v) if integral and not isinstance(v, bool) else v


def value(v) -> dict:
    if isinstance(v, float) and not math.isfinite(v):
        return {"t": "float_special", "v": repr(v)}
    return {"t": "value", "v": v}


def spec_rank(spec: dict) -> int:
    return len(spec["shape"]) if spec.get("t") == "tensor" else 0


class CaseBuilder:
    """One case of one NativeFunction."""

    def __init__(self, fn: model.NativeFunction, r: random.Random, case_id: int):
        self.fn = fn
        self.s = fn.func
        self.g = Gen(r, case_id * 1000)
        self.r = r
        self.id = case_id

    def call_form(self) -> str:
        if self.s.base_name == "where":  # where(condition, self, other): self is not first
            return "function"
        if self.s.is_out_fn:
            return "out"
        if self.s.is_inplace:
            return "inplace" if "method" in self.fn.variants else "function"
        forms = [v for v in self.fn.variants]
        return "method" if self.r.choice(forms) == "method" else "function"

    def self_tensor(self, grad: bool) -> dict:
        name = self.s.base_name
        dtype = self.g.dtype(floating=grad)
        if name in ("mm",):
            shape = [self.r.randint(0, 4), self.r.randint(0, 4)]
        elif name == "bmm":
            shape = [self.r.randint(0, 3), self.r.randint(0, 4), self.r.randint(0, 4)]
        elif name in ("dot", "outer"):
            shape = [self.r.randint(0, 5)]
        elif name in ("nll_loss",):
            shape = self.r.choice([[self.r.randint(1, 4), self.r.randint(1, 5)], [self.r.randint(1, 5)],
                                   [2, 3, self.r.randint(1, 3)]])
            dtype = self.g.dtype(floating=True) if self.r.random() < 0.9 else dtype
        else:
            shape = self.g.shape()
        if grad and dtype not in FLOATS:
            dtype = "float32"
        if self.r.random() < 0.15 and self.s.base_name in LINALG:
            shape = self.g.shape()
        return self.g.tensor(shape, dtype, requires_grad=grad)

    def matrix_partner(self, arg: model.Argument, self_spec: dict, grad: bool) -> dict:
        """mat1/mat2/tensor/vec2/weight/other for the linear algebra ops."""
        name, shape = self.s.base_name, self_spec["shape"]
        dtype = self_spec["dtype"] if self.r.random() < 0.85 else self.g.dtype()
        wrong = self.r.random() < 0.1
        k = self.r.randint(0, 4)
        if name == "mm":
            other = [shape[-1] if shape else 1, k]
        elif name == "bmm":
            other = [shape[0], shape[-1], k] if len(shape) == 3 else [1, 1, k]
        elif name in ("dot",):
            other = list(shape)
        elif name == "outer":
            other = [k]
        elif name == "matmul":
            rank = self.r.choice([1, 2, 3])
            inner = shape[-1] if shape else 1
            other = [inner] if rank == 1 else [self.r.choice([1, 2]) for _ in range(rank - 2)] + [inner, k]
        elif name == "addmm":
            n = shape[0] if len(shape) == 2 else 2
            other = [n, k] if arg.name == "mat1" else [self.addmm_k, shape[-1] if len(shape) == 2 else 2]
        elif name == "linear":
            other = [k, shape[-1] if shape else 1] if arg.name == "weight" else [k]
        else:
            other = self.g.broadcastable(shape)
        if wrong:
            other = self.g.shape()
        return self.g.tensor(other, dtype, requires_grad=grad and dtype in FLOATS)

    def arg(self, a: model.Argument, self_spec: dict | None, grad: bool):
        t, name, rank = a.type, a.name, spec_rank(self_spec) if self_spec else 0
        shape = self_spec["shape"] if self_spec else []
        op = self.s.base_name
        if t.optional and self.r.random() < (0.5 if a.default == "None" else 0.15):
            return value(None)
        if t.base == "Tensor" and not t.is_list:
            if op in LINALG and name not in ("self", "input"):
                return self.matrix_partner(a, self_spec, grad)
            if name in ("index",):
                return self.index_tensor(shape, rank)
            if name in ("mask", "condition"):
                dtype = "bool" if self.r.random() < 0.85 else self.r.choice(["uint8", "float32", "int64"])
                return self.g.tensor(self.g.broadcastable(shape), dtype, layout="contiguous")
            if name == "target":
                return self.target(self_spec)
            if name == "weight" and op == "nll_loss":
                c = shape[-1] if len(shape) == 1 else (shape[1] if len(shape) >= 2 else 1)
                return self.g.tensor([c if self.r.random() < 0.9 else c + 1], self_spec["dtype"], kind="positive")
            if self.r.random() < 0.12 and self.call != "out" and name != "self":
                return value(self.g.scalar())
            dtype = self_spec["dtype"] if self_spec and self.r.random() < 0.5 else self.g.dtype()
            target_shape = self.g.broadcastable(shape) if self_spec else self.g.shape()
            if name in ("src", "values") and op in ("scatter", "scatter_add", "scatter_reduce"):
                target_shape = [s + self.r.randint(0, 1) for s in self.index_shape]
            if name == "source" and op == "index_reduce" and rank and self.r.random() < 0.85:
                # self's shape with the index's length along dim
                target_shape = list(shape)
                target_shape[self.dim_value % rank] = self.index_shape[0] if self.index_shape else 1
            return self.g.tensor(target_shape, dtype, requires_grad=grad and dtype in FLOATS)
        if t.base == "Tensor" and t.is_list:
            if name == "indices":
                return self.indices(shape)
            return self.tensor_list(grad)
        if t.base == "Scalar":
            return value(self.g.scalar(integral=name in ("end",) and self.r.random() < 0.5))
        if t.base == "ScalarType":
            return {"t": "dtype", "v": self.g.dtype()}
        if t.base == "Device":
            return {"t": "device", "v": "cpu"}
        if t.base == "bool":
            return value(self.r.random() < 0.5)
        if t.base == "float":
            return value(self.r.choice([0.0, 1.0, -2.0, 0.5, 3.0]))
        if t.base == "str":
            if name == "rounding_mode":
                return value(self.r.choice(["trunc", "floor", "trunc", "floor", "round"]))
            if name == "reduce":  # scatter_reduce, index_reduce; "max" is PyTorch's alias, "add" an error
                return value(self.r.choice(["sum", "prod", "mean", "amax", "amin", "max", "add"]))
            return value(self.r.choice(["none", "tanh", "none", "tanh", "fast"]))
        if t.base == "int" and t.is_list:
            return value(self.int_list(a, shape, rank))
        if t.base == "int":
            return value(self.int_arg(a, shape, rank))
        raise ValueError(f"no generator for {a}")

    def index_tensor(self, shape, rank) -> dict:
        op = self.s.base_name
        dim = self.dim_value % max(rank, 1) if rank else 0
        n = shape[dim] if rank else 1
        dtype = "int64" if self.r.random() < 0.9 else self.r.choice(["int32", "float32", "bool"])
        if op in ("index_select", "index_reduce"):
            ishape = [self.r.randint(0, 4)] if self.r.random() < 0.9 else self.g.shape()
        else:  # gather, scatter, scatter_add: same rank, sizes up to self's
            ishape = [self.r.randint(0, s) if s else 0 for s in shape] if self.r.random() < 0.85 else self.g.shape(rank)
        self.index_shape = ishape
        return self.g.tensor(ishape, dtype, kind=self.g.index_kind(n), layout="contiguous")

    def indices(self, shape) -> dict:
        items = []
        for d in range(self.r.randint(1, max(len(shape), 1))):
            n = shape[d] if d < len(shape) else 1
            p = self.r.random()
            if p < 0.15:
                items.append(value(None))
            elif p < 0.3:
                items.append(self.g.tensor(shape[d:d + 1], "bool", layout="contiguous"))
            else:
                items.append(self.g.tensor([self.r.randint(0, 3)], "int64", kind=self.g.index_kind(n), layout="contiguous"))
        return {"t": "list", "items": items}

    def target(self, self_spec) -> dict:
        if self.s.base_name in ("mse_loss", "smooth_l1_loss", "huber_loss"):  # a target like the input
            return self.g.tensor(self.g.broadcastable(self_spec["shape"]) if self.r.random() < 0.2 else self_spec["shape"],
                                 self_spec["dtype"])
        shape = self_spec["shape"]
        c = shape[-1] if len(shape) == 1 else (shape[1] if len(shape) >= 2 else 1)
        tshape = [] if len(shape) <= 1 else [shape[0]] + shape[2:]
        kind = f"index:0,{c}" if self.r.random() < 0.85 else f"index:-1,{c + 1}"
        return self.g.tensor(tshape, "int64" if self.r.random() < 0.9 else "int32", kind=kind, layout="contiguous")

    def tensor_list(self, grad: bool) -> dict:
        base = self.g.shape(self.r.randint(1, 3))
        dtype = self.g.dtype(floating=grad)
        self.list_shape = base
        items = []
        for _ in range(self.r.randint(1, 3)):
            shape = list(base)
            if shape and self.r.random() < 0.4:
                shape[self.r.randrange(len(shape))] = self.r.randint(0, 3)
            d = dtype if self.r.random() < 0.8 else self.g.dtype()
            items.append(self.g.tensor(shape, d, requires_grad=grad and d in FLOATS))
        return {"t": "list", "items": items}

    def int_list(self, a: model.Argument, shape, rank) -> list[int]:
        name, op = a.name, self.s.base_name
        if name == "dim":
            return self.g.dims(rank)
        if name == "dims":
            if op == "permute" and self.r.random() < 0.85:
                dims = list(range(rank))
                self.r.shuffle(dims)
                return [d - rank if self.r.random() < 0.3 else d for d in dims]
            return self.g.dims(rank)
        if name in ("size", "shape"):
            if op in ("view", "reshape"):
                return self.g.reshaped(shape)
            if op in ("expand", "broadcast_to"):
                out = [self.r.choice([1, 2])] * self.r.randint(0, 1) + [
                    (self.r.choice([2, 3]) if s == 1 and self.r.random() < 0.5 else (-1 if self.r.random() < 0.2 else s))
                    for s in shape]
                return out if self.r.random() < 0.9 else self.g.shape()
            out = self.g.shape()
            if self.r.random() < 0.05:
                out.append(-1)
            return out
        if name == "sizes":  # unflatten
            n = shape[self.dim_value % max(rank, 1)] if rank else 1
            return self.g.reshaped([n])
        if name == "split_sizes":
            n = shape[self.dim_value % max(rank, 1)] if rank else 1
            parts = []
            while n > 0:
                k = self.r.randint(1, n)
                parts.append(k)
                n -= k
            return parts if self.r.random() < 0.85 else parts + [1]
        if name == "repeats":
            return [self.r.randint(0, 3) for _ in range(rank + self.r.randint(-1 if rank else 0, 1))]
        if name == "stride" and op == "as_strided":
            return [self.r.randint(0, 3) for _ in range(len(self.size_value or []))]
        if name in ("stride", "padding", "dilation", "kernel_size"):  # conv and pooling
            size = a.type.list_size or 2
            lo = 0 if name == "padding" else 1
            return [self.r.randint(lo, 3) for _ in range(self.r.choice([1, size]))]
        return self.g.shape()

    def int_arg(self, a: model.Argument, shape, rank) -> int:
        name, op = a.name, self.s.base_name
        if name in ("dim", "dim0", "dim1", "start_dim", "end_dim"):
            return self.g.dim(rank)
        n = shape[self.dim_value % max(rank, 1)] if rank else 1
        if name == "index":
            return self.r.randint(-n - 1, n)
        if name in ("start", "end") and op in ("slice", "narrow"):
            return self.r.randint(-n - 2, n + 2)
        if name == "length":
            return self.r.randint(-1, n + 1)
        if name == "step":
            return self.r.choice([1, 1, 2, 3, 0, -1])
        if name in ("split_size", "chunks"):
            return self.r.choice([1, 2, 3, 5, 0, -1])
        if name == "reduction":
            return self.r.choice([0, 1, 2, 1, 3])
        if name == "ignore_index":
            return self.r.choice([-100, -100, 0, 1])
        if name in ("low", "from"):
            return self.r.choice([0, -5, 3, 10])
        if name in ("high", "to"):
            return self.r.choice([1, 5, 10, 3, 2 ** 40])
        if name in ("n", "m", "steps"):
            return self.r.choice([0, 1, 3, 5, -1])
        if name == "storage_offset":
            return self.r.choice([0, 1, 2])
        return self.r.randint(-2, 5)

    def build(self) -> dict:
        s = self.s
        self.call = self.call_form()
        grad = (self.call in ("function", "method") and s.name not in NONDETERMINISTIC
                and s.base_name not in NONDETERMINISTIC
                and self.r.random() < 0.4)
        args, kwargs = [], {}
        self_spec = None
        self.dim_value = self.r.randint(-2, 3)
        self.index_shape = []
        self.size_value = None
        self.addmm_k = self.r.randint(0, 4)
        positional = [a for a in s.arguments if not a.kwarg_only]
        if positional and positional[0].type.is_tensor and positional[0].name in ("self", "input"):
            self_spec = self.self_tensor(grad)
            rank = len(self_spec["shape"])
            dims_arg = next((a for a in s.arguments if a.name == "dim" and a.type.base == "int" and not a.type.is_list),
                            None)
            if dims_arg is not None:
                self.dim_value = self.g.dim(rank)
        for a in s.arguments:
            if a.is_out:
                continue
            if self_spec is not None and a is positional[0]:
                spec = self_spec
            elif a.name == "dim" and a.type.base == "int" and not a.type.is_list and self_spec is not None:
                spec = value(self.dim_value)
            elif a.name == "condition" and s.base_name == "where":
                # where(condition, self, other): self is the second argument.
                self_spec = self.g.tensor(self.g.shape(), self.g.dtype(floating=grad), requires_grad=grad)
                spec = self.g.tensor(self.g.broadcastable(self_spec["shape"]), "bool", layout="contiguous")
                cond, spec = spec, None
                args.append(cond)
                args.append(self_spec)
                continue
            elif a.name == "self" and s.base_name == "where":
                continue
            elif a.name == "stride":
                spec = value(self.int_list(a, self_spec["shape"], len(self_spec["shape"])))
            else:
                spec = self.arg(a, self_spec, grad)
                if a.name in ("size",) and spec["t"] == "value":
                    self.size_value = spec["v"]
            if spec is None:
                continue
            # Leave out trailing defaults sometimes, as callers do.
            if a.default is not None and self.r.random() < 0.3:
                continue
            if a.kwarg_only or (self.r.random() < 0.1 and a.default is not None):
                kwargs[a.name if not (a.name == "self" and self.call == "function") else "input"] = spec
            else:
                args.append(spec)
        if self.call == "out":
            out_shape = self.g.shape() if self.r.random() < 0.3 else (self_spec["shape"] if self_spec else [])
            kwargs["out"] = self.g.tensor(out_shape, self.g.dtype() if self.r.random() < 0.3 else
                                          (self_spec["dtype"] if self_spec else "float32"), layout="contiguous")
        if self.call in ("inplace", "out"):
            for spec in [*args, *kwargs.values()]:
                if spec.get("t") == "tensor":
                    spec["requires_grad"] = False
        self.inject_bad_input(args)
        return {"id": self.id, "op": s.full_name, "name": s.name, "module": self.fn.python_module,
                "call": self.call, "args": args, "kwargs": kwargs,
                "grad": grad, "random": s.name in NONDETERMINISTIC or s.base_name in NONDETERMINISTIC}

    def inject_bad_input(self, args: list) -> None:
        """A share of cases get one argument of a type the schema does not accept."""
        if not args or self.r.random() > 0.04:
            return
        i = self.r.randrange(len(args))
        if i == 0 and self.call in ("method", "inplace"):
            return
        args[i] = value(self.r.choice(["x", None, [1.5, "a"]]))


def functions() -> list[model.NativeFunction]:
    return [f for f in model.parse_native_functions(YAML)
            if f.python and not f.func.name.startswith("_")]


def generate(seed: int, count: int, only: set[str] | None = None) -> list[dict]:
    """`count` cases spread evenly over the ops (or over `only`, by op name)."""
    fns = [f for f in functions() if only is None or f.func.name in only or f.func.base_name in only
           or f.func.full_name in only]
    r = random.Random(seed)
    cases = []
    for i in range(count):
        fn = fns[i % len(fns)]
        builder = CaseBuilder(fn, random.Random(r.getrandbits(64)), seed * 10_000_000 + i)
        cases.append(builder.build())
    return cases
