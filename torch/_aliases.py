"""PyTorch's other spellings of ops (numpy's names and older ones). Each is
the op it names, object for object, so its results, errors and grad_fn are
that op's, as PyTorch's aliases are. `forms` says where PyTorch has the
alias: f = torch.<alias>, f_ = torch.<alias>_, m = Tensor.<alias>,
m_ = Tensor.<alias>_."""

ALIASES = {
    "absolute": ("abs", "f m m_"),
    "arccos": ("acos", "f f_ m m_"),
    "arccosh": ("acosh", "f f_ m m_"),
    "arcsin": ("asin", "f f_ m m_"),
    "arcsinh": ("asinh", "f f_ m m_"),
    "arctan": ("atan", "f f_ m m_"),
    "arctanh": ("atanh", "f f_ m m_"),
    "clip": ("clamp", "f f_"),  # Tensor.clip is defined with clamp's keywords in _tensor.py
    "divide": ("div", "f m m_"),
    "true_divide": ("div", "f m m_"),
    "multiply": ("mul", "f m m_"),
    "subtract": ("sub", "f m m_"),
    "negative": ("neg", "f f_ m m_"),
    "greater": ("gt", "f m m_"),
    "greater_equal": ("ge", "f m m_"),
    "less": ("lt", "f m m_"),
    "less_equal": ("le", "f m m_"),
    "not_equal": ("ne", "f m m_"),
    "fix": ("trunc", "f f_ m m_"),
    "concat": ("cat", "f"),
    "concatenate": ("cat", "f"),
    "swapaxes": ("transpose", "f m"),
    "swapdims": ("transpose", "f m"),
    "moveaxis": ("movedim", "f m"),
    "ger": ("outer", "f m"),
    "row_stack": ("vstack", "f"),
    "arctan2": ("atan2", "f m m_"),
}


def install(torch):
    for alias, (target, forms) in ALIASES.items():
        for form in forms.split():
            namespace = torch if form.startswith("f") else torch.Tensor
            suffix = "_" if form.endswith("_") else ""
            setattr(namespace, alias + suffix, getattr(namespace, target + suffix))
