"""Binary pointwise ops, with broadcasting and Python-number operands."""
import numpy as np

import torch

from .core import ALL, FLOATS, INTS, NUMERIC, ErrorInput, KnownValue, OpInfo, SampleInput, float_result, make_array, python_scalar

SHAPE_PAIRS = [
    ((3, 4), (3, 4)),
    ((3, 1), (1, 4)),
    ((2, 3, 4), (4,)),
    ((), (3,)),
    ((5,), ()),
    ((0, 3), (1, 3)),
]


def binary_samples(op, dtype, rng, nonzero_rhs=False, rhs_domain=None):
    for a_shape, b_shape in SHAPE_PAIRS:
        a = make_array(a_shape, dtype, rng, op.domain)
        b = make_array(b_shape, dtype, rng, rhs_domain or op.domain, nonzero=nonzero_rhs)
        yield SampleInput((a, b), desc=f"{a_shape} with {b_shape}")
    if op.takes_numbers:
        scalar = python_scalar(dtype, rng)
        yield SampleInput((make_array((3, 4), dtype, rng, op.domain), scalar), desc="tensor with a Python number")


def number_is_a_type_error(name):
    """Ops without a Scalar overload in PyTorch refuse a Python number."""
    def errors():
        yield from shape_mismatch(name)()
        yield ErrorInput((torch.ones(2), 2), {}, TypeError,
                         rf"{name}\(\): argument 'other' \(position 2\) must be Tensor, not int")
    return errors


def shape_mismatch(name, type_error=None):
    def errors():
        yield ErrorInput((torch.ones(2, 3), torch.ones(4)), {}, RuntimeError,
                         r"The size of tensor a \(3\) must match the size of tensor b \(4\)")
        yield ErrorInput((torch.ones(2), "x"), {}, TypeError,
                         type_error or rf"{name}\(\): argument 'other' \(position 2\) must be Tensor, not str")
    return errors


def _sub_errors():
    yield from shape_mismatch("sub")()
    yield ErrorInput((torch.tensor([True]), torch.tensor([False])), {}, RuntimeError, "with two bool tensors")
    # A bool alpha was negated into an int and let through.
    yield ErrorInput((torch.ones(2), torch.ones(2)), {"alpha": False}, RuntimeError,
                     "Boolean alpha only supported for Boolean results")


def _add_errors():
    yield from shape_mismatch("add")()
    yield ErrorInput((torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64)), {"alpha": 0.5},
                     RuntimeError, "argument alpha must not be a floating point number")


def _div_mode_errors():
    yield ErrorInput((torch.ones(2), torch.ones(2)), {"rounding_mode": "round"}, RuntimeError,
                     "expected rounding_mode to be one of None, 'trunc', or 'floor'")
    yield ErrorInput((torch.ones(2, dtype=torch.int64), torch.zeros(2, dtype=torch.int64)),
                     {"rounding_mode": "floor"}, RuntimeError, "ZeroDivisionError")


def _pow_errors():
    yield ErrorInput((torch.tensor([2, 3]), -1), {}, RuntimeError, "Integers to negative integer powers are not allowed")
    yield ErrorInput((torch.tensor([2, 3], dtype=torch.int8), 300), {}, RuntimeError,
                     "value cannot be converted to type int8_t without overflow")


def _trunc_div(a, b):
    if a.dtype.kind in "iu":
        return (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(np.result_type(a, b))
    return np.trunc(a / b)


def _int_pow(a, b):
    if isinstance(b, np.ndarray) and b.dtype.kind in "iu":
        return np.power(a, b.astype(a.dtype if isinstance(a, np.ndarray) else np.int64))
    return np.power(a, b)


def _bool_result(name, ref, takes_numbers=True):
    return OpInfo(name, ref, ALL, binary_samples, result_dtype=lambda d: torch.bool, inplace=True,
                  inplace_casts_result=True, supports_out=True,
                  takes_numbers=takes_numbers, error_inputs=(lambda: ()) if takes_numbers else number_is_a_type_error(name))


def _shift(left):
    """PyTorch's shifts: by a negative amount or the width or more, 0 to the left and the sign to the right."""
    def ref(a, b):
        a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b).astype(np.asarray(a).dtype))
        bits = a.dtype.itemsize * 8
        out_of_range = (b < 0) | (b >= bits)
        amount = np.clip(b, 0, bits - 1)
        if left:
            return np.where(out_of_range, 0, np.left_shift(a, amount)).astype(a.dtype)
        return np.where(out_of_range, np.where(a < 0, -1, 0), np.right_shift(a, amount)).astype(a.dtype)
    return ref


def _integer_only(name, label):
    def errors():
        yield ErrorInput((torch.ones(2), torch.ones(2)), {}, NotImplementedError,
                         f"\"{label}_cpu\" not implemented for 'Float'")
        yield ErrorInput((torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.bool)), {}, NotImplementedError,
                         f"\"{label}_cpu\" not implemented for 'Bool'")
        yield ErrorInput((torch.ones(2, 3, dtype=torch.int64), torch.ones(4, dtype=torch.int64)), {}, RuntimeError,
                         r"The size of tensor a \(3\) must match the size of tensor b \(4\)")
    return errors


def _where_samples(op, dtype, rng):
    for shape in [(3, 4), (5,), ()]:
        cond = rng.integers(0, 2, size=shape).astype(np.bool_)
        yield SampleInput((cond, make_array(shape, dtype, rng), make_array(shape, dtype, rng)), desc=str(shape))
    yield SampleInput((np.array([True, False]), make_array((3, 1), dtype, rng), make_array((2,), dtype, rng)),
                      desc="broadcast")


def _where(cond, a, b):
    return np.where(cond, a, b)


def _where_op(cond, a, b):
    return torch.where(cond.to(torch.bool), a, b)


def _clamp_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    yield SampleInput((x,), {"min": -1, "max": 2})
    yield SampleInput((x,), {"min": 0})
    yield SampleInput((x,), {"max": 1})


def _clamp_errors():
    yield ErrorInput((torch.ones(2),), {}, RuntimeError, "At least one of 'min' or 'max' must not be None")
    yield ErrorInput((torch.ones(2), None, 0.5), {"out": torch.empty(2, dtype=torch.bfloat16)}, RuntimeError,
                     "Found dtype BFloat16 but expected Float")
    yield ErrorInput((torch.ones(2, dtype=torch.int32), 1), {"out": torch.empty(2, dtype=torch.int64)}, RuntimeError,
                     "Found dtype Long but expected Int")


def _masked_fill_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    yield SampleInput((x, rng.integers(0, 2, size=(3, 4)).astype(np.bool_), True if dtype == torch.bool else 2))
    yield SampleInput((x, np.array([True, False, False, True]), False if dtype == torch.bool else -1), desc="broadcast")


def _masked_fill_ref(x, mask, value):
    out = x.copy()
    out[np.broadcast_to(mask, x.shape)] = value
    return out


def _masked_scatter_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    yield SampleInput((x, rng.integers(0, 2, size=(3, 4)).astype(np.bool_), make_array((12,), dtype, rng)))
    yield SampleInput((x, np.array([True, False, False, True]), make_array((2, 5), dtype, rng)),
                      desc="broadcast mask, spare source")
    yield SampleInput((x.T, np.ones((4, 3), dtype=np.bool_), make_array((12,), dtype, rng)), desc="non-contiguous self")


def _masked_scatter_ref(x, mask, source):
    out = x.copy()
    where = np.broadcast_to(mask, x.shape)
    out[where] = source.reshape(-1)[:int(where.sum())]
    return out


def _masked_scatter_errors():
    yield ErrorInput((torch.ones(2), torch.ones(2), torch.ones(2)), {}, RuntimeError,
                     "masked_scatter_ only supports boolean masks, but got mask with dtype Float")
    yield ErrorInput((torch.ones(2), torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.float64)), {},
                     RuntimeError, "masked_scatter: expected self and source to have same dtypes but gotFloat and Double")
    yield ErrorInput((torch.ones(3), torch.ones(3, dtype=torch.bool), torch.ones(2)), {}, RuntimeError,
                     "Number of elements of source < number of ones in mask")


def _masked_select_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    yield SampleInput((x, rng.integers(0, 2, size=(3, 4)).astype(np.bool_)))
    yield SampleInput((x, np.array([True, False, False, True])), desc="broadcast mask")
    yield SampleInput((x[:1], np.ones((2, 4), dtype=np.bool_)), desc="broadcast self")
    yield SampleInput((x, np.zeros((3, 4), dtype=np.bool_)), desc="nothing selected")


def _masked_fill_errors():
    yield ErrorInput((torch.ones(2), torch.ones(2), 1.0), {}, RuntimeError, "masked_fill_ only supports boolean masks")


BINARY_OPS = [
    OpInfo("add", np.add, ALL, binary_samples, inplace=True, supports_out=True, error_inputs=_add_errors),
    OpInfo("add", lambda a, b, alpha: a + alpha * b, NUMERIC,
           lambda op, d, rng: (SampleInput(s.args, {"alpha": 2}, s.desc) for s in binary_samples(op, d, rng)),
           variant="alpha", inplace=True, supports_out=True, known_values=lambda: [
               KnownValue((torch.full((32,), -5.9375, dtype=torch.bfloat16),
                           torch.full((32,), -1.984375, dtype=torch.bfloat16)), {"alpha": -3},
                          torch.full((32,), 0.015625, dtype=torch.bfloat16),
                          why="bfloat16 computes a + alpha * b in float and rounds once (not 0)")]),
    OpInfo("sub", np.subtract, NUMERIC, binary_samples, inplace=True, supports_out=True, error_inputs=_sub_errors),
    OpInfo("mul", np.multiply, ALL, binary_samples, inplace=True, supports_out=True,
           error_inputs=shape_mismatch("mul"), known_values=lambda: [
               KnownValue((torch.tensor([1e-3, 1000.0], dtype=torch.float16), 70000), {},
                          torch.tensor([70.0, float("inf")], dtype=torch.float16),
                          why="a number multiplies float16 in float, not first rounded to float16 (inf)")]),
    OpInfo("div", lambda a, b: np.true_divide(a, b), FLOATS + INTS,
           lambda op, d, rng: binary_samples(op, d, rng, nonzero_rhs=True),
           result_dtype=float_result, inplace=True, supports_out=True,
           known_values=lambda: [
               KnownValue((torch.tensor([-0.6], dtype=torch.float64), torch.tensor([-0.1], dtype=torch.float64)),
                          {"rounding_mode": None}, torch.tensor([-10.0], dtype=torch.float64), grad_of=0,
                          why="rounding_mode=None is true division, with its gradient (not zero)"),
               KnownValue((torch.tensor([1e-3, 1000.0], dtype=torch.float16), 70000), {},
                          torch.tensor([0.0, 1000 / 70000], dtype=torch.float16),
                          why="a number divides float16 in float, not first rounded to float16 (inf)")],
           error_inputs=shape_mismatch("div", r"div\(\) received an invalid combination of arguments - got "
                                              r"\(Tensor, str\), but expected one of:\n \* \(Tensor input, Tensor other")),
    OpInfo("div", lambda a, b, rounding_mode: _trunc_div(np.asarray(a), np.asarray(b)), NUMERIC,
           lambda op, d, rng: (SampleInput(s.args, {"rounding_mode": "trunc"}, s.desc)
                               for s in binary_samples(op, d, rng, nonzero_rhs=True)),
           variant="trunc", inplace=True, supports_out=True, error_inputs=_div_mode_errors),
    OpInfo("div", lambda a, b, rounding_mode: np.floor_divide(a, b), NUMERIC,
           lambda op, d, rng: (SampleInput(s.args, {"rounding_mode": "floor"}, s.desc)
                               for s in binary_samples(op, d, rng, nonzero_rhs=True)),
           variant="floor", inplace=True, supports_out=True, known_values=lambda: [
               KnownValue((torch.tensor([-2**31, 7], dtype=torch.int32), -1), {"rounding_mode": "floor"},
                          torch.tensor([-2**31, -7], dtype=torch.int32), why="INT_MIN // -1 trapped the CPU; it wraps")]),
    OpInfo("pow", _int_pow, FLOATS, binary_samples, inplace=True, supports_out=True, domain=(0.5, 3.0),
           known_values=lambda: [
        KnownValue((torch.tensor([float("-inf"), 4.0]), 0.5), {}, torch.tensor([float("nan"), 2.0]),
                   why="x ** 0.5 is a square root (NaN at -inf)"),
        KnownValue((torch.tensor([float("-inf"), 4.0], dtype=torch.float16), 0.5), {},
                   torch.tensor([float("inf"), 2.0], dtype=torch.float16), why="but float16 takes std::pow, as PyTorch")]),
    OpInfo("pow", _int_pow, INTS, lambda op, d, rng: binary_samples(op, d, rng, rhs_domain=(0, 3)),
           variant="int", inplace=True, supports_out=True, domain=(-3, 3), error_inputs=_pow_errors),
    OpInfo("remainder", np.remainder, FLOATS + INTS, lambda op, d, rng: binary_samples(op, d, rng, nonzero_rhs=True),
           inplace=True, supports_out=True, known_values=lambda: [
               KnownValue((torch.tensor([-2**31, 7], dtype=torch.int32), -1), {}, torch.tensor([0, 0], dtype=torch.int32),
                          why="INT_MIN % -1 trapped the CPU (SIGFPE)")]),
    OpInfo("minimum", np.minimum, ALL, binary_samples, supports_out=True, takes_numbers=False,
           error_inputs=number_is_a_type_error("minimum")),
    OpInfo("maximum", np.maximum, ALL, binary_samples, supports_out=True, takes_numbers=False,
           error_inputs=number_is_a_type_error("maximum"), known_values=lambda: [
               KnownValue((torch.tensor([float("nan"), 1.0, 2.0]), torch.tensor([0.0, 1.0, 3.0])), {},
                          torch.tensor([1.0, 0.5, 0.0]), grad_of=0, why="NaN passes the gradient; ties share it")]),
    OpInfo("bitwise_and", np.bitwise_and, INTS + (torch.bool,), binary_samples, inplace=True, supports_out=True),
    OpInfo("bitwise_or", np.bitwise_or, INTS + (torch.bool,), binary_samples, inplace=True, supports_out=True),
    OpInfo("bitwise_xor", np.bitwise_xor, INTS + (torch.bool,), binary_samples, inplace=True, supports_out=True),
    OpInfo("bitwise_left_shift", _shift(True), INTS, lambda op, d, rng: binary_samples(op, d, rng, rhs_domain=(-2, 40)),
           inplace=True, supports_out=True, error_inputs=_integer_only("bitwise_left_shift", "lshift"),
           known_values=lambda: [KnownValue((torch.tensor([-8, -1, 1, 5, 2 ** 62]), torch.tensor([1, 70, -1, 63, 2])),
                                            {}, torch.tensor([-16, 0, 0, -2 ** 63, 0]))]),
    OpInfo("bitwise_right_shift", _shift(False), INTS,
           lambda op, d, rng: binary_samples(op, d, rng, rhs_domain=(-2, 40)), inplace=True, supports_out=True,
           error_inputs=_integer_only("bitwise_right_shift", "rshift"),
           known_values=lambda: [KnownValue((torch.tensor([-8, -1, 1, 5, 2 ** 62]), torch.tensor([1, 70, -1, 63, 2])),
                                            {}, torch.tensor([-4, -1, 0, 0, 2 ** 60])),
                                 KnownValue((torch.tensor([200], dtype=torch.uint8), torch.tensor([9], dtype=torch.uint8)),
                                            {}, torch.tensor([0], dtype=torch.uint8))]),
    OpInfo("gcd", np.gcd, INTS, binary_samples, inplace=True, supports_out=True, takes_numbers=False,
           error_inputs=_integer_only("gcd", "gcd"),
           known_values=lambda: [KnownValue((torch.tensor([0, -4, 12, -2 ** 63, 7]), torch.tensor([0, 6, -18, 6, 0])),
                                            {}, torch.tensor([0, 2, 6, -2, 7]))]),
    OpInfo("lcm", np.lcm, INTS, binary_samples, inplace=True, supports_out=True, takes_numbers=False,
           error_inputs=_integer_only("lcm", "lcm"),
           known_values=lambda: [KnownValue((torch.tensor([0, -4, 12, 3]), torch.tensor([5, 6, -18, 7])),
                                            {}, torch.tensor([0, 12, 36, 21]))]),
    _bool_result("eq", np.equal),
    _bool_result("ne", np.not_equal),
    _bool_result("lt", np.less),
    _bool_result("le", np.less_equal),
    _bool_result("gt", np.greater),
    _bool_result("ge", np.greater_equal),
    _bool_result("logical_and", np.logical_and, takes_numbers=False),
    _bool_result("logical_or", np.logical_or, takes_numbers=False),
    _bool_result("logical_xor", np.logical_xor, takes_numbers=False),
    OpInfo("where", _where, ALL, _where_samples, op=_where_op, method=False),
    OpInfo("clamp", lambda x, min=None, max=None: np.clip(x, min, max), FLOATS + INTS, _clamp_samples, inplace=True,
           known_values=lambda: [
               KnownValue((torch.tensor([1.0, 5.0]), 3, 2), {}, torch.tensor([2.0, 2.0]), why="max wins over min"),
               KnownValue((torch.tensor([1.0, 5.0, 0.5]), torch.tensor([2.0, 2.0, 2.0]), torch.tensor([3.0, 1.0, 3.0])), {},
                          torch.tensor([1.0, 0.0, 1.0]), grad_of=1, why="min gets no gradient where min > max"),
               KnownValue((torch.tensor([1.0, 3.0, 5.0]), 1, 3), {}, torch.tensor([1.0, 1.0, 0.0]), grad_of=0,
                          why="the gradient at a bound is whole, not halved"),
               KnownValue((torch.tensor([1, 5], dtype=torch.int16), torch.tensor([2.5], dtype=torch.float64)), {},
                          torch.tensor([2.5, 5.0], dtype=torch.float64), why="a float64 bound promotes")],
           error_inputs=_clamp_errors),
    OpInfo("masked_fill", _masked_fill_ref, ALL, _masked_fill_samples, inplace=True,
           error_inputs=_masked_fill_errors),
    OpInfo("masked_scatter", _masked_scatter_ref, ALL, _masked_scatter_samples, inplace=True,
           error_inputs=_masked_scatter_errors),
    OpInfo("masked_select", lambda x, m: np.broadcast_arrays(x, m)[0][np.broadcast_arrays(x, m)[1]], ALL,
           _masked_select_samples,
           error_inputs=lambda: [ErrorInput((torch.ones(2), torch.ones(2)), {}, RuntimeError,
                                            "masked_select: expected BoolTensor for mask")]),
    OpInfo("fmod", np.fmod, FLOATS + INTS, lambda op, d, rng: binary_samples(op, d, rng, nonzero_rhs=True),
           inplace=True, supports_out=True, error_inputs=lambda: [
               ErrorInput((torch.tensor([5]), torch.tensor([0])), {}, RuntimeError, "ZeroDivisionError"),
               ErrorInput((torch.tensor([True]), torch.tensor([True])), {}, NotImplementedError,
                          "\"fmod_cpu\" not implemented for 'Bool'")],
           known_values=lambda: [
               KnownValue((torch.tensor([-2**31, 7], dtype=torch.int32), -1), {}, torch.tensor([0, 0], dtype=torch.int32),
                          why="INT_MIN % -1 traps the CPU")]),
    OpInfo("hypot", np.hypot, FLOATS, binary_samples, inplace=True, supports_out=True, takes_numbers=False,
           error_inputs=lambda: [ErrorInput((torch.tensor([3]), torch.tensor([4])), {}, NotImplementedError,
                                            "\"hypot_cpu\" not implemented for 'Long'")]),
    OpInfo("copysign", lambda a, b: np.copysign(np.asarray(a, dtype=np.float64) if np.asarray(a).dtype.kind in "biu"
                                                else a, b), FLOATS + INTS, binary_samples,
           result_dtype=float_result, inplace=True, supports_out=True),
    OpInfo("fmax", np.fmax, ALL, binary_samples, supports_out=True, takes_numbers=False, known_values=lambda: [
        KnownValue((torch.tensor([1.0, float("nan"), 3.0]), torch.tensor([float("nan"), 2.0, 1.0])), {},
                   torch.tensor([1.0, 2.0, 3.0]), why="NaN loses")]),
    OpInfo("fmin", np.fmin, ALL, binary_samples, supports_out=True, takes_numbers=False),
    OpInfo("logaddexp", np.logaddexp, FLOATS, binary_samples, supports_out=True, takes_numbers=False,
           known_values=lambda: [KnownValue((torch.tensor([float("inf"), float("-inf"), 1000.0]),
                                             torch.tensor([float("inf"), float("-inf"), 1000.0])), {},
                                            torch.tensor([float("inf"), float("-inf"), 1000.6931471805599453]),
                                            why="equal infinities give themselves, large values do not overflow")]),
    OpInfo("logaddexp2", np.logaddexp2, FLOATS, binary_samples, supports_out=True, takes_numbers=False),
    OpInfo("xlogy", lambda a, b: np.where(np.asarray(a) == 0, 0.0, np.asarray(a, dtype=np.float64) * np.log(b)),
           FLOATS + INTS, lambda op, d, rng: binary_samples(op, d, rng, rhs_domain=(0.5, 5.0)), result_dtype=float_result,
           inplace=True, supports_out=True, known_values=lambda: [
               KnownValue((torch.tensor([0.0, 0.0, 2.0]), torch.tensor([0.0, float("nan"), float("nan")])), {},
                          torch.tensor([0.0, float("nan"), float("nan")]), why="0 * log(0) is 0; NaN stays NaN")]),
    OpInfo("atan2", lambda a, b: np.arctan2(np.asarray(a, dtype=np.float64) if np.asarray(a).dtype.kind in "biu"
                                            else a, b), FLOATS + INTS, binary_samples, result_dtype=float_result,
           inplace=True, supports_out=True, takes_numbers=False),
    OpInfo("nextafter", np.nextafter, FLOATS, binary_samples, inplace=True, supports_out=True, takes_numbers=False),
    OpInfo("heaviside", lambda a, b: np.heaviside(a, b).astype(np.asarray(a).dtype), NUMERIC, binary_samples,
           inplace=True, supports_out=True, takes_numbers=False, error_inputs=lambda: [
               ErrorInput((torch.tensor([1.0]), torch.tensor([1])), {}, RuntimeError,
                          "heaviside is not yet implemented for tensors with different dtypes.")]),
]
