"""The values of a tensor argument, from its description: numpy only, so the
worker (with either torch) and the reproducer writer (without one) agree."""
import numpy as np

FLOATS = {"float32", "float64", "float16", "bfloat16"}


def array_for(spec, rng):
    """The numpy values of a tensor argument: shape `base` (before its layout)."""
    shape, dtype, kind = spec["base"], spec["dtype"], spec.get("kind", "normal")
    if kind.startswith("index:"):
        lo, hi = (int(x) for x in kind[6:].split(","))
        return rng.integers(lo, max(hi, lo + 1), size=shape).astype(np.int64 if dtype == "int64" else dtype)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype in FLOATS:
        values = rng.standard_normal(shape) * spec.get("scale", 1.0)
        if kind == "positive":
            values = np.abs(values) + 0.1
        elif kind == "special":
            specials = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e30, -1e30, 1e-30, 65504.0, 3e38])
            mask = rng.random(shape) < 0.3
            values = np.where(mask, rng.choice(specials, size=shape), values)
        elif kind == "integral":
            values = np.round(values * 3)
        return values.astype(np.float32 if dtype == "bfloat16" else dtype)
    info = np.iinfo(dtype)
    if kind == "special":
        return rng.choice(np.array([info.min, info.max, 0, -1 if info.min < 0 else 1, 1], dtype=dtype), size=shape)
    lo = 0 if info.min == 0 else -10
    if kind == "positive":
        lo = 1
    return rng.integers(lo, 11, size=shape).astype(dtype)


def values_of(spec):
    """The base array of a tensor argument (its layout is applied by torch)."""
    return np.ascontiguousarray(array_for(spec, np.random.default_rng(spec["seed"])))
