"""OpInfo records of the three-input pointwise ops: addcmul, addcdiv, lerp."""
import numpy as np

import torch

from .core import FLOATS, NUMERIC, ErrorInput, KnownValue, OpInfo, SampleInput, make_array

# (self, tensor1/end, tensor2/weight) shapes: equal, broadcast each way, 0-d.
SHAPE_TRIPLES = [((3, 4), (3, 4), (3, 4)), ((3, 1), (1, 4), (4,)), ((3, 4), (), (3, 1)), ((), (), ())]


def _addc_samples(nonzero_last):
    def samples(op, dtype, rng):
        for i, (a, b, c) in enumerate(SHAPE_TRIPLES):
            args = (make_array(a, dtype, rng, op.domain), make_array(b, dtype, rng, op.domain),
                    make_array(c, dtype, rng, op.domain, nonzero=nonzero_last))
            value = [1, 2, -0.5, 3][i] if dtype.is_floating_point else [1, 2, -1, 3][i]
            yield SampleInput(args, {"value": value} if value != 1 else {}, desc=f"{a}, {b}, {c}")
    return samples


def _addcmul_ref(x, a, b, value=1):
    return x + value * a * b


def _addcdiv_ref(x, a, b, value=1):
    return x + value * a / b


def _lerp_ref(x, e, w):
    w = np.asarray(w, dtype=x.dtype if isinstance(x, np.ndarray) else np.float64)
    return np.where(np.abs(w) < 0.5, x + w * (e - x), e - (e - x) * (1 - w))


def _lerp_scalar_samples(op, dtype, rng):
    for i, (a, b, _) in enumerate(SHAPE_TRIPLES):
        yield SampleInput((make_array(a, dtype, rng), make_array(b, dtype, rng), [0.25, 0.75, -1.5, 1.0][i]),
                          desc=f"{a}, {b}")


def _lerp_tensor_samples(op, dtype, rng):
    for a, b, c in SHAPE_TRIPLES:
        yield SampleInput((make_array(a, dtype, rng), make_array(b, dtype, rng), make_array(c, dtype, rng, (-1, 2))),
                          desc=f"{a}, {b}, {c}")


def _addcmul_errors():
    yield ErrorInput((torch.ones(2, 3), torch.ones(2, 3), torch.ones(4)), {}, RuntimeError,
                     r"The size of tensor a \(3\) must match the size of tensor b \(4\)")
    yield ErrorInput((torch.ones(2), 2, torch.ones(2)), {}, TypeError,
                     r"addcmul\(\): argument 'tensor1' \(position 2\) must be Tensor, not int")
    yield ErrorInput((torch.ones(2, dtype=torch.bool),) * 3, {}, NotImplementedError,
                     "\"addcmul_cpu_out\" not implemented for 'Bool'")
    yield ErrorInput((torch.ones(2),) * 3, {"value": 1e300}, RuntimeError,
                     "value cannot be converted to type float without overflow")
    yield ErrorInput((torch.ones(2, dtype=torch.int8),) * 3, {"value": 300}, RuntimeError,
                     "value cannot be converted to type int8_t without overflow")
    yield ErrorInput((torch.ones(2),) * 3, {"out": torch.empty(2, dtype=torch.int64)}, RuntimeError,
                     "result type Float can't be cast to the desired output type Long")


def _addcdiv_errors():
    yield ErrorInput((torch.ones(2), torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int32)), {},
                     RuntimeError, "Integer division with addcdiv is no longer supported")
    yield ErrorInput((torch.ones(2), torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.bool)), {},
                     RuntimeError, "Integer division with addcdiv is no longer supported")
    yield ErrorInput((torch.ones(2, 3), torch.ones(2, 3), torch.ones(4)), {}, RuntimeError,
                     r"The size of tensor a \(3\) must match the size of tensor b \(4\)")


def _lerp_errors():
    f = torch.ones(3)
    yield ErrorInput((f, f.double(), 0.5), {}, RuntimeError, "expected dtype float for `end` but got dtype double")
    yield ErrorInput((f, f, f.double()), {}, RuntimeError, "expected dtype float for `weight` but got dtype double")
    yield ErrorInput((f.long(), f.long(), 0.5), {}, NotImplementedError,
                     "\"lerp_kernel_scalar\" not implemented for 'Long'")
    yield ErrorInput((f, f, 1e300), {}, RuntimeError, "value cannot be converted to type float without overflow")
    yield ErrorInput((f, 2.0, 0.5), {}, TypeError, r"lerp\(\) received an invalid combination of arguments")
    yield ErrorInput((f, f, f), {"out": torch.empty(3, dtype=torch.float64)}, RuntimeError,
                     "Found dtype Double but expected Float")
    yield ErrorInput((f, f, 0.5), {"out": torch.empty(3, dtype=torch.int64)}, RuntimeError,
                     "result type Float can't be cast to the desired output type Long")


TERNARY_OPS = [
    OpInfo("addcmul", _addcmul_ref, NUMERIC, _addc_samples(False), inplace=True, supports_out=True,
           error_inputs=_addcmul_errors, known_values=lambda: [
               KnownValue((torch.tensor([1, 2, 3], dtype=torch.uint8),) * 3, {"value": -1},
                          torch.tensor([0, 254, 250], dtype=torch.uint8),
                          why="a negative value wraps into uint8, as in PyTorch"),
               KnownValue((torch.tensor([1.0], dtype=torch.float16),) * 3, {"value": 1e10},
                          torch.tensor([float("inf")], dtype=torch.float16),
                          why="float16 computes in float: the value is not refused, the result overflows")]),
    OpInfo("addcdiv", _addcdiv_ref, FLOATS, _addc_samples(True), inplace=True, supports_out=True,
           error_inputs=_addcdiv_errors, known_values=lambda: [
               KnownValue((torch.tensor([1.0]), torch.tensor([3]), torch.tensor([2.0])), {},
                          torch.tensor([2.5]), why="an integer tensor1 with a float tensor2 is true division")]),
    OpInfo("lerp", _lerp_ref, FLOATS, _lerp_scalar_samples, variant="scalar", inplace=True, supports_out=True,
           takes_numbers=False, error_inputs=_lerp_errors, known_values=lambda: [
               KnownValue((torch.tensor([1e8, -3.0]), torch.tensor([1.0, 7e-3]), 0.7), {},
                          torch.tensor([30000002.0, -0.8951]),
                          why="one fused multiply-add, as PyTorch's kernel (30000004 with two roundings)"),
               KnownValue((torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16),
                           torch.tensor([2.0, 3.0, 4.0], dtype=torch.float16), 0.3), {},
                          torch.tensor([1.2998, 2.3008, 3.3008], dtype=torch.float16),
                          why="float16 computes in float with the weight unrounded")]),
    OpInfo("lerp", _lerp_ref, FLOATS, _lerp_tensor_samples, variant="tensor", inplace=True, supports_out=True,
           takes_numbers=False, known_values=lambda: [
               KnownValue((torch.tensor([1.0, 2.0]), torch.tensor([2.0, 3.0]),
                           torch.tensor(0.3, dtype=torch.float64)), {}, torch.tensor([1.3, 2.3]),
                          why="a 0-d weight of another dtype is taken as a number"),
               KnownValue((torch.tensor([1.0, 2.0]), torch.tensor([3.0, 5.0]), torch.tensor([0.25, 0.75])), {},
                          torch.tensor([0.75, 0.25]), grad_of=0, why="self's gradient is 1 - weight")]),
]
