"""torch.einsum: Einstein summation over the ops autograd already knows.

The equation is parsed into one label list per operand (an ellipsis becomes
labels of its own, aligned from the right as broadcasting aligns dims). A
label repeated within an operand takes that operand's diagonal; a label no
other operand and not the output uses is summed at once; the operands are
then contracted left to right, each pair as one batched matrix product
(batch labels, left-only, contracted, right-only), as PyTorch's einsum does
with bmm. Errors name the problem with PyTorch's messages."""
import string

import torch

_LETTERS = set(string.ascii_letters)


def _sublist_equation(args):
    """einsum(op0, [0, 1], op1, [1, 2], [0, 2]): the sublist form as an equation."""
    def term(sublist):
        out = []
        for s in sublist:
            if s is Ellipsis:
                out.append("...")
            elif isinstance(s, int) and 0 <= s < 52:
                out.append(chr(ord("A") + s) if s < 26 else chr(ord("a") + s - 26))
            else:
                raise ValueError(f"einsum(): expected subscript to be within the range [0, 52) but got {s}")
        return "".join(out)

    operands = list(args[0::2])
    sublists = list(args[1::2])
    output = None
    if len(operands) > len(sublists):  # a trailing output sublist
        output = operands.pop()
    equation = ",".join(term(s) for s in sublists)
    if output is not None:
        equation += "->" + term(output)
    return equation, operands


def _parse_term(term, index_offset, operand_index):
    """The labels of one term: letters, and None where its ellipsis stands."""
    labels, i = [], 0
    while i < len(term):
        c = term[i]
        if c == ".":
            if term[i:i + 3] != "..." or None in labels:
                raise RuntimeError(f"einsum(): found '.' for operand {operand_index} that is not part of any "
                                   "ellipsis")
            labels.append(None)
            i += 3
            continue
        if c not in _LETTERS:
            raise RuntimeError(f"einsum(): invalid subscript given at index {index_offset + i} in the equation "
                               "string, subscripts must be in [a-zA-Z]")
        labels.append(c)
        i += 1
    return labels


def _expand_ellipsis(labels, ndim, operand_index):
    """Replace the ellipsis by labels ('...', k), counted from the right."""
    letters = len([label for label in labels if label is not None])
    if None not in labels:
        if letters != ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({letters}) does not match the "
                               f"number of dimensions ({ndim}) for operand {operand_index} and no ellipsis was given")
        return labels, 0
    covered = ndim - letters
    if covered < 0:
        raise RuntimeError(f"einsum(): the number of subscripts in the equation ({letters}) is more than the number "
                           f"of dimensions ({ndim}) for operand {operand_index}")
    at = labels.index(None)
    return labels[:at] + [("...", covered - 1 - k) for k in range(covered)] + labels[at + 1:], covered


def _take_diagonals(x, labels, operand_index):
    """One dim per label: a repeated label keeps the diagonal of its dims."""
    while True:
        seen = {}
        for d, label in enumerate(labels):
            if label in seen:
                first = seen[label]
                if x.shape[first] != x.shape[d]:
                    raise RuntimeError(f"einsum(): subscript {label} is repeated for operand {operand_index} but the "
                                       f"sizes don't match, {x.shape[d]} != {x.shape[first]}")
                x = x.diagonal(0, first, d)  # the diagonal becomes the last dim
                labels = [lab for k, lab in enumerate(labels) if k not in (first, d)] + [label]
                break
            seen[label] = d
        else:
            return x, labels


def _sum_labels(x, labels, keep):
    drop = [d for d, label in enumerate(labels) if label not in keep]
    if drop:
        x = x.sum(drop)
        labels = [label for label in labels if label in keep]
    return x, labels


def _contract(a, la, b, lb, needed):
    """The product of a and b summed over their shared labels that nothing later needs."""
    size = {}
    for x, labels in ((a, la), (b, lb)):
        for d, label in enumerate(labels):
            if size.get(label, 1) == 1:  # a size-1 dim broadcasts; sizes were checked to agree otherwise
                size[label] = x.shape[d]
    shared = [label for label in la if label in lb]
    batch = [label for label in shared if label in needed]
    summed = [label for label in shared if label not in needed]
    left = [label for label in la if label not in lb]
    right = [label for label in lb if label not in la]

    def arrange(x, labels, order):
        x = x.permute([labels.index(label) for label in order])
        return x.expand([size[label] for label in order])  # size-1 dims broadcast, as PyTorch's einsum allows

    def count(order):
        n = 1
        for label in order:
            n *= size[label]
        return n

    nb, nm, nk, nn = count(batch), count(left), count(summed), count(right)
    a2 = arrange(a, la, batch + left + summed).reshape(nb, nm, nk)
    b2 = arrange(b, lb, batch + summed + right).reshape(nb, nk, nn)
    product = torch.bmm(a2, b2)
    return product.reshape([size[label] for label in batch + left + right]), batch + left + right


def einsum(*args):
    """einsum(equation, *operands) or einsum(op0, sublist0, op1, sublist1, ..., [out_sublist])."""
    if not args:
        raise TypeError("einsum(): must specify the equation string and at least one operand, or at least one "
                        "operand and its subscripts list")
    if isinstance(args[0], torch.Tensor):
        equation, operands = _sublist_equation(args)
    else:
        equation, operands = args[0], list(args[1:])
        if not isinstance(equation, str):
            raise TypeError(f"einsum(): the equation must be a str, not {type(equation).__name__}")
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = list(operands[0])  # einsum(eq, [a, b]), the older form
    for i, x in enumerate(operands):
        if not isinstance(x, torch.Tensor):
            raise TypeError(f"einsum(): operand {i} must be a Tensor, not {type(x).__name__}")
    equation = equation.replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    dtypes = {x.dtype for x in operands}
    if len(dtypes) > 1:
        raise RuntimeError(f"expected scalar type {operands[0].dtype} but found "
                           f"{next(x.dtype for x in operands if x.dtype != operands[0].dtype)}")

    offset, parsed, ellipsis_dims = 0, [], 0
    for i, (term, x) in enumerate(zip(terms, operands)):
        labels, covered = _expand_ellipsis(_parse_term(term, offset, i), x.dim(), i)
        parsed.append(labels)
        ellipsis_dims = max(ellipsis_dims, covered)
        offset += len(term) + 1
    ellipsis = [("...", k) for k in reversed(range(ellipsis_dims))]

    if arrow:
        out_labels = _parse_term(rhs, len(lhs) + 2, "output")
        if None in out_labels:
            at = out_labels.index(None)
            out_labels = out_labels[:at] + ellipsis + out_labels[at + 1:]
        used = {label for labels in parsed for label in labels}
        seen = set()
        for label in out_labels:
            if label in seen:
                raise RuntimeError(f"einsum(): output subscript {label} appears more than once in the output")
            if label not in used and not isinstance(label, tuple):
                raise RuntimeError(f"einsum(): output subscript {label} does not appear in the equation for any "
                                   "input operand")
            seen.add(label)
    else:
        counts = {}
        for labels in parsed:
            for label in labels:
                if not isinstance(label, tuple):
                    counts[label] = counts.get(label, 0) + 1
        out_labels = ellipsis + sorted(label for label, n in counts.items() if n == 1)

    tensors = []
    for i, (labels, x) in enumerate(zip(parsed, operands)):
        x, labels = _take_diagonals(x, labels, i)
        if x.dtype == torch.bool:
            x = x.long()  # summing booleans counts them, as torch.sum does
        tensors.append((x, labels))

    # Sizes agree or broadcast from 1, checked in the order PyTorch checks them.
    size = {}
    for i, (x, labels) in enumerate(tensors):
        for d, label in enumerate(labels):
            n = x.shape[d]
            if label in size and n != size[label] and n != 1 and size[label] != 1:
                name = label if not isinstance(label, tuple) else "..."
                raise RuntimeError(f"einsum(): subscript {name} has size {n} for operand {i} which does not "
                                   f"broadcast with previously seen size {size[label]}")
            if label not in size or size[label] == 1:
                size[label] = n

    output_set = set(out_labels)
    for i, (x, labels) in enumerate(tensors):
        elsewhere = {label for j, (_, other) in enumerate(tensors) if j != i for label in other}
        tensors[i] = _sum_labels(x, labels, elsewhere | output_set)

    result, labels = tensors[0]
    for k in range(1, len(tensors)):
        later = {label for _, other in tensors[k + 1:] for label in other} | output_set
        result, labels = _contract(result, labels, *tensors[k], later)
        result, labels = _sum_labels(result, labels, later)
    result, labels = _sum_labels(result, labels, output_set)
    return result.permute([labels.index(label) for label in out_labels]) if out_labels else result
