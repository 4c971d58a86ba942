"""The extension's own tests, as PyTorch's extension template writes them."""
import unittest

import torch
from torch.testing._internal.common_utils import TestCase
from torch.testing._internal.optests import opcheck

import muladd_ops


def reference_muladd(a, b, c):
    return a * b + c


def devices():
    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


class TestMulAdd(TestCase):
    def sample_inputs(self, device, *, requires_grad=False):
        def make_tensor(*size):
            return torch.randn(size, device=device, requires_grad=requires_grad)

        def make_nondiff_tensor(*size):
            return torch.randn(size, device=device, requires_grad=False)

        return [
            [make_tensor(3), make_tensor(3), 1],
            [make_tensor(20), make_tensor(20), 3.14],
            [make_tensor(20), make_nondiff_tensor(20), -123],
            [make_nondiff_tensor(2, 3), make_tensor(2, 3), -0.3],
        ]

    def test_correctness(self):
        for device in devices():
            for args in self.sample_inputs(device):
                torch.testing.assert_close(muladd_ops.ops.muladd(*args), reference_muladd(*args))

    def test_non_contiguous(self):
        a = torch.randn(4, 6).t()
        b = torch.randn(6, 4)
        torch.testing.assert_close(muladd_ops.ops.muladd(a, b, 2.0), a * b + 2.0)

    def test_gradients(self):
        for device in devices():
            for args in self.sample_inputs(device, requires_grad=True):
                diff_tensors = [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]
                out = muladd_ops.ops.muladd(*args)
                grad_out = torch.randn_like(out)
                result = torch.autograd.grad(out, diff_tensors, grad_out)
                expected = torch.autograd.grad(reference_muladd(*args), diff_tensors, grad_out)
                torch.testing.assert_close(result, expected)

    def test_gradcheck(self):
        a = torch.randn(5, dtype=torch.float64, requires_grad=True)
        b = torch.randn(5, dtype=torch.float64, requires_grad=True)
        # float32 only: gradcheck's double inputs are refused by the kernel's TORCH_CHECK
        with self.assertRaisesRegex(RuntimeError, "float32"):
            muladd_ops.ops.muladd(a, b, 1.0)

    def test_opcheck(self):
        for device in devices():
            samples = self.sample_inputs(device, requires_grad=True) + self.sample_inputs(device)
            for args in samples:
                opcheck(torch.ops.muladd_ops.muladd.default, args)

    def test_errors(self):
        with self.assertRaisesRegex(RuntimeError, "differ in shape"):
            muladd_ops.ops.muladd(torch.randn(3), torch.randn(4), 1.0)
        with self.assertRaises(TypeError):
            torch.ops.muladd_ops.muladd.default(torch.randn(3))


class TestMul(TestCase):
    def test_correctness(self):
        for device in devices():
            a, b = torch.randn(7, device=device), torch.randn(7, device=device)
            torch.testing.assert_close(muladd_ops.ops.mul(a, b), a * b)

    def test_no_autograd_registered(self):
        # mul has a CPU kernel and no backward: a gradient reaching it raises.
        a = torch.randn(3, requires_grad=True)
        with self.assertRaises(NotImplementedError):
            muladd_ops.ops.mul(a, torch.randn(3)).sum().backward()

    def test_opcheck(self):
        opcheck(torch.ops.muladd_ops.mul.default, (torch.randn(3), torch.randn(3)))


class TestAddInto(TestCase):
    def test_correctness(self):
        for device in devices():
            a, b = torch.randn(6, device=device), torch.randn(6, device=device)
            out = torch.empty(6, device=device)
            version = out._version
            muladd_ops.ops.add_into(a, b, out)
            self.assertEqual(out, a + b)
            self.assertGreater(out._version, version)  # declared Tensor(a!): the write is recorded

    def test_opcheck(self):
        opcheck(torch.ops.muladd_ops.add_into.default, (torch.randn(3), torch.randn(3), torch.empty(3)))
        grads = [torch.randn(3, requires_grad=True) for _ in range(3)]
        opcheck(torch.ops.muladd_ops.add_into.default, grads)

    def test_schema(self):
        self.assertEqual(str(torch.ops.muladd_ops.add_into.default._schema),
                         "muladd_ops::add_into(Tensor a, Tensor b, Tensor(a!) out) -> ()")


if __name__ == "__main__":
    unittest.main()
