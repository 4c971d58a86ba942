"""Benchmark candidates for every operator of native_functions.yaml.

The difftest's schema-driven generator (tools/difftest/generate.py) knows how
to call each op; here it draws only valid arguments at a medium size (about
1e5 elements per tensor, 256x256 matrices) in float32 mostly. Several
candidates are drawn per op name; the sweep keeps the largest one that the
reference runs without an error.
"""
from __future__ import annotations

import math
import random
import zlib

from tools.difftest import generate

# Medium shapes by rank: about 1e5 elements each.
MEDIUM = {0: [], 1: [100_000], 2: [256, 384], 3: [32, 48, 64], 4: [8, 16, 24, 32]}
# Matrix shapes for the linear algebra ops: (self, partner) per op.
MATRICES = {
    "mm": ([256, 256], [256, 256]),
    "bmm": ([16, 64, 64], [16, 64, 64]),
    "dot": ([100_000], [100_000]),
    "outer": ([256], [256]),
    "matmul": ([256, 256], [256, 256]),
    "addmm": ([256, 256], [256, 256]),
    "linear": ([256, 512], [512, 512]),
}
CANDIDATES = 8


class MediumGen(generate.Gen):
    """Gen's draws, restricted to valid arguments of medium size."""

    def shape(self, rank: int | None = None) -> list[int]:
        if rank is None:
            rank = self.r.choice([1, 2, 2, 3, 4])
        return list(MEDIUM.get(rank, [2] * rank))

    def dtype(self, floating: bool = False) -> str:
        if floating:
            return "float32"
        return self.r.choices(["float32", "int64", "bool", "float64"], [70, 15, 8, 7])[0]

    def tensor(self, shape, dtype, kind=None, layout=None, requires_grad=False) -> dict:
        return super().tensor(shape, dtype, kind=kind or "normal", layout=layout or "contiguous")

    def broadcastable(self, shape: list[int]) -> list[int]:
        if shape and self.r.random() < 0.2:
            return [shape[-1]]
        return list(shape)

    def index_kind(self, n: int) -> str:
        return f"index:0,{max(n, 1)}"

    def dim(self, rank: int) -> int:
        return self.r.randint(-max(rank, 1), max(rank, 1) - 1)

    def dims(self, rank: int) -> list[int]:
        k = self.r.randint(1, max(rank, 1))
        return sorted(self.r.sample(range(max(rank, 1)), k))

    def reshaped(self, shape: list[int]) -> list[int]:
        return [-1, shape[-1]] if len(shape) >= 2 else [math.prod(shape)]

    def scalar(self, integral: bool = False):
        return self.r.choice([2, 3] if integral else [2, 0.5, 3, 1.5])


class MediumCase(generate.CaseBuilder):
    """One candidate call of one op, valid and medium-sized."""

    def __init__(self, fn, r: random.Random, case_id: int):
        super().__init__(fn, r, case_id)
        self.g = MediumGen(r, case_id * 1000)

    def call_form(self) -> str:
        s = self.s
        if s.is_inplace:
            return "inplace" if "method" in self.fn.variants else "function"
        if s.base_name == "where" or "function" in self.fn.variants:
            return "function"
        return "method"

    def self_tensor(self, grad: bool) -> dict:
        shapes = MATRICES.get(self.s.base_name)
        if shapes:
            return self.g.tensor(shapes[0], "float32")
        return self.g.tensor(self.g.shape(), self.g.dtype())

    def matrix_partner(self, arg, self_spec: dict, grad: bool) -> dict:
        name = self.s.base_name
        if name == "linear" and arg.name == "bias":
            return self.g.tensor([512], "float32")
        return self.g.tensor(MATRICES[name][1], "float32")

    def index_tensor(self, shape, rank) -> dict:
        dim = self.dim_value % max(rank, 1) if rank else 0
        n = shape[dim] if rank else 1
        # index_select and index_reduce take a vector of indices (into dim); the scatters one of self's shape.
        if self.s.base_name == "index_reduce":
            ishape = [n]
        else:
            ishape = [1000] if self.s.base_name == "index_select" else list(shape)
        self.index_shape = ishape
        return self.g.tensor(ishape, "int64", kind=f"index:0,{max(n, 1)}")

    def indices(self, shape) -> dict:
        n = shape[0] if shape else 1
        return {"t": "list", "items": [self.g.tensor([1000], "int64", kind=f"index:0,{max(n, 1)}")]}

    def tensor_list(self, grad: bool) -> dict:
        base = self.g.shape(self.r.choice([1, 2, 3]))
        self.list_shape = base
        return {"t": "list", "items": [self.g.tensor(base, "float32") for _ in range(3)]}

    def int_arg(self, a, shape, rank) -> int:
        name = a.name
        n = shape[self.dim_value % max(rank, 1)] if rank else 1
        if name in ("index", "start", "storage_offset"):
            return 0
        if name in ("length", "end"):
            return max(n // 2, 1)
        if name == "step":
            return 1
        if name in ("split_size", "chunks"):
            return 4
        if name in ("n", "m"):
            return 256
        if name == "steps":
            return 100_000
        if name == "reduction":
            return 1  # mean
        if name in ("high", "to"):
            return 100
        if name in ("low", "from"):
            return 0
        return super().int_arg(a, shape, rank)

    def inject_bad_input(self, args: list) -> None:
        pass


def candidates(seed: int = 0) -> dict[str, list[dict]]:
    """{row name: candidate cases}: each op name (overloads pooled, out= forms
    left out) as users call it, torch.<op> or Tensor.<op>."""
    by_name: dict[str, list] = {}
    for fn in generate.functions():
        if not fn.func.is_out_fn:
            by_name.setdefault(fn.func.name, []).append(fn)
    out = {}
    for i, (name, fns) in enumerate(sorted(by_name.items())):
        # Seeded by the name: a new op elsewhere in the YAML leaves every
        # other op's candidates as they were, so runs stay comparable.
        rng = random.Random(seed * 2 ** 32 + zlib.crc32(name.encode()))
        cases = []
        for k in range(CANDIDATES):
            fn = fns[k % len(fns)]
            builder = MediumCase(fn, random.Random(rng.getrandbits(64)), i * 100 + k)
            case = builder.build()
            case["grad"] = False
            cases.append(case)
        prefix = {"nn": "torch._C._nn.", "linalg": "torch._C._linalg."}.get(fns[0].python_module)
        if prefix is None:
            prefix = "Tensor." if cases[0]["call"] in ("method", "inplace") else "torch."
        out[prefix + name] = cases
    return out
