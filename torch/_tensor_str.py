"""repr() of tensors, in PyTorch's format: `tensor([0.8506])`, `tensor(0.0223)`,
`tensor([1, 2], dtype=torch.int32)`, summarised with `...` past 1000 elements."""
import math
from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: Optional[bool] = None


PRINT_OPTS = _PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, sci_mode=None, profile=None):
    """Set options for printing, as torch.set_printoptions."""
    if profile == "default":
        PRINT_OPTS.__init__()
    elif profile == "short":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 1000, 2, 80
    elif profile == "full":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, math.inf, 3, 80
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    """Chooses one format (integer-valued, fixed or scientific) and one width for all values."""

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        if not floating:
            for v in values:
                self.max_width = max(self.max_width, len(str(v)))
            return
        finite = [v for v in values if math.isfinite(v) and v != 0]
        if not finite:
            return
        magnitudes = [abs(v) for v in finite]
        lo, hi = min(magnitudes), max(magnitudes)
        self.int_mode = all(v == math.ceil(v) for v in finite)
        p = PRINT_OPTS.precision
        if self.int_mode:
            if hi / lo > 1000.0 or hi > 1.0e8:
                self.sci_mode = True
                widths = (len(f"{v:.{p}e}") for v in finite)
            else:
                widths = (len(f"{v:.0f}") + 1 for v in finite)
        else:
            if hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4:
                self.sci_mode = True
                widths = (len(f"{v:.{p}e}") for v in finite)
            else:
                widths = (len(f"{v:.{p}f}") for v in finite)
        self.max_width = max(widths)
        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode

    def width(self):
        return self.max_width

    def format(self, value):
        p = PRINT_OPTS.precision
        if self.floating:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{p}f}"
        else:
            ret = str(value)
        return " " * (self.max_width - len(ret)) + ret


class _ComplexFormatter:
    """A complex number as PyTorch prints it (`1.0000+2.j`): the real and the
    imaginary parts each get their own formatter over all values."""

    def __init__(self, values):
        self.real = _Formatter([v.real for v in values], True)
        self.imag = _Formatter([v.imag for v in values], True)

    def width(self):
        return self.real.width() + self.imag.width() + 1

    def format(self, value):
        imag = (self.imag.format(value.imag) + "j").lstrip()
        return self.real.format(value.real) + (imag if imag[0] in "+-" else "+" + imag)


def _summarized_values(t, summarize):
    """The values the formatter must fit: all of them, or the edges when summarised."""
    if t.dim() == 0:
        return [t.item()]
    if not summarize or t.shape[0] <= 2 * PRINT_OPTS.edgeitems:
        rows = range(t.shape[0])
    else:
        e = PRINT_OPTS.edgeitems
        rows = list(range(e)) + list(range(t.shape[0] - e, t.shape[0]))
    if t.dim() == 1:
        return [t[i].item() for i in rows] if summarize else t.tolist()
    out = []
    for i in rows:
        out += _summarized_values(t[i], summarize)
    return out


def _vector_str(t, indent, summarize, formatter):
    element_length = formatter.width() + 2
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))
    e = PRINT_OPTS.edgeitems
    if summarize and t.shape[0] > 2 * e:
        data = [formatter.format(v) for v in t[:e].tolist()] + [" ..."]
        data += [formatter.format(v) for v in t[-e:].tolist()]
    else:
        data = [formatter.format(v) for v in t.tolist()]
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(t, indent, summarize, formatter):
    dim = t.dim()
    if dim == 0:
        return formatter.format(t.item())
    if dim == 1:
        return _vector_str(t, indent, summarize, formatter)
    e = PRINT_OPTS.edgeitems
    n = t.shape[0]
    if summarize and n > 2 * e:
        slices = [_tensor_str_with_formatter(t[i], indent + 1, summarize, formatter) for i in range(e)]
        slices += ["..."]
        slices += [_tensor_str_with_formatter(t[i], indent + 1, summarize, formatter) for i in range(n - e, n)]
    else:
        slices = [_tensor_str_with_formatter(t[i], indent + 1, summarize, formatter) for i in range(n)]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(tensor_str, suffixes, indent):
    parts = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _str(t):
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    default_dtypes = (torch.get_default_dtype(), torch.get_default_dtype().to_complex(), torch.int64, torch.bool)
    if t.numel() == 0:
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t.shape)))
        if t.dtype != torch.get_default_dtype():
            suffixes.append("dtype=" + str(t.dtype))
        body = "[]"
    else:
        if t.dtype not in default_dtypes:
            suffixes.append("dtype=" + str(t.dtype))
        summarize = t.numel() > PRINT_OPTS.threshold
        host = t if t.device.type == "cpu" else t.detach().cpu()  # the values are read on the host
        values = _summarized_values(host, summarize)
        formatter = _ComplexFormatter(values) if t.dtype.is_complex else _Formatter(values, t.dtype.is_floating_point)
        body = _tensor_str_with_formatter(host, indent, summarize, formatter)
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
