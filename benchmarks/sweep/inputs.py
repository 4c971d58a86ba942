"""The named inputs the Python-level cases (python_cases.py) are written
against: medium-sized arrays drawn by numpy from one seed, so that our torch
and PyTorch get the same values. Run inside each timed interpreter; imports
only numpy here (torch is passed in)."""
import functools

import numpy as np

SEED = 20261126


@functools.lru_cache(maxsize=None)
def arrays():
    """{name: numpy array}; float32 unless the name says otherwise."""
    r = np.random.default_rng(SEED)
    f = np.float32

    def normal(*shape):
        return r.standard_normal(shape).astype(f)

    m = normal(256, 256)
    spd = (m @ m.T / 256 + np.eye(256)).astype(f)
    b8 = normal(256, 8, 8)
    return {
        # Elementwise and reductions: about 1e5 elements.
        "x": normal(256, 384), "y": normal(256, 384), "x2": normal(256, 384),
        "xp": (np.abs(normal(256, 384)) + 0.1).astype(f),  # positive
        "u": r.uniform(0.01, 0.99, (256, 384)).astype(f),  # in (0, 1)
        "pmx": np.sign(normal(256, 384)),  # +-1
        "mask": r.random((256, 384)) < 0.5,
        "v": normal(100_000), "w": normal(100_000), "pmv": np.sign(normal(100_000)).astype(f),
        "a300": normal(300),
        "vec3": normal(32768, 3),
        "ints": r.integers(0, 100, 100_000), "ints_b": r.integers(1, 100, 100_000),
        "ints2d": r.integers(0, 100, (256, 384)),
        "small_ints": r.integers(0, 100, 50),
        "idxv": r.integers(0, 100_000, 1000),  # indices into v
        "idxx": r.integers(0, 256 * 384, 1000),  # indices into x.view(-1)
        "rows": r.integers(0, 256, 1000),  # row indices into x
        "rows256": r.permutation(256), "cols64": r.integers(0, 384, 64),
        "vals": normal(1000), "row_vals": normal(1000, 384),
        # Matrices.
        "m": m, "m2": normal(256, 256), "mv": normal(256), "mrhs": normal(256, 16),
        "spd": spd, "lower": np.linalg.cholesky(spd.astype(np.float64)).astype(f),
        "m64": normal(64, 64), "ba": normal(16, 64, 64),
        "b8": b8, "b8rhs": normal(256, 8, 1),
        "b8spd": (b8 @ b8.transpose(0, 2, 1) / 8 + np.eye(8)).astype(f),
        "pts": normal(512, 64), "pts2": normal(512, 64),
        # Images, signals, volumes and their weights.
        "img": normal(8, 16, 32, 32), "img5": normal(4, 8, 16, 16, 16), "sig": normal(8, 16, 1024),
        "k1": normal(32, 16, 3) / 7, "k2": normal(32, 16, 3, 3) / 12, "k3": normal(16, 8, 3, 3, 3) / 15,
        "k1t": normal(16, 32, 3) / 7, "k2t": normal(16, 32, 3, 3) / 12,
        "ch16": (np.abs(normal(16)) + 0.5).astype(f), "ch16b": normal(16),
        "prelu_w": np.full(16, 0.25, f),
        # Classification and sequences.
        "logits": normal(256, 1000), "labels": r.integers(0, 1000, 256), "pm1": np.sign(normal(256)).astype(f),
        "emb": normal(1000, 64), "tok": r.integers(0, 1000, (64, 128)),
        "b1": normal(256, 64), "b2": normal(256, 64), "bw": normal(64, 64, 64) / 64,
        "q": normal(8, 8, 256, 64), "kk": normal(8, 8, 256, 64), "vv": normal(8, 8, 256, 64),
        "xd": r.standard_normal((256, 384)),  # float64
    }


def namespace(torch, grad: bool):
    """The inputs as tensors; with grad, every float tensor is a leaf that requires grad."""
    ns, source = {}, arrays()
    for name, arr in source.items():
        t = torch.from_numpy(np.ascontiguousarray(arr)).clone()
        if grad and t.dtype in (torch.float32, torch.float64):
            t.requires_grad_(True)
        ns[name] = t
    ns["pylist"] = source["v"].tolist()
    ns["nparr"] = source["v"]
    return ns
