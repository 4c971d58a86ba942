"""The tutorial's LLTM as a torch.autograd.Function over the extension,
checked against the same cell written with torch operations."""
import math
import unittest

import torch

import lltm_cpp


class LLTMFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weights, bias, old_h, old_cell):
        outputs = lltm_cpp.forward(input, weights, bias, old_h, old_cell)
        new_h, new_cell = outputs[:2]
        ctx.save_for_backward(*(outputs[1:] + [weights]))
        return new_h, new_cell

    @staticmethod
    def backward(ctx, grad_h, grad_cell):
        outputs = lltm_cpp.backward(grad_h.contiguous(), grad_cell.contiguous(), *ctx.saved_tensors)
        d_old_h, d_input, d_weights, d_bias, d_old_cell = outputs
        return d_input, d_weights, d_bias, d_old_h, d_old_cell


class LLTM(torch.nn.Module):
    def __init__(self, input_features, state_size):
        super().__init__()
        self.input_features = input_features
        self.state_size = state_size
        self.weights = torch.nn.Parameter(torch.empty(3 * state_size, input_features + state_size))
        self.bias = torch.nn.Parameter(torch.empty(3 * state_size))
        stdv = 1.0 / math.sqrt(self.state_size)
        for weight in self.parameters():
            weight.data.uniform_(-stdv, +stdv)

    def forward(self, input, state):
        return LLTMFunction.apply(input, self.weights, self.bias, *state)


def reference_lltm(input, weights, bias, old_h, old_cell):
    X = torch.cat([old_h, input], dim=1)
    gates = torch.addmm(bias, X, weights.t()).chunk(3, dim=1)
    input_gate, output_gate = torch.sigmoid(gates[0]), torch.sigmoid(gates[1])
    candidate_cell = torch.nn.functional.elu(gates[2])
    new_cell = old_cell + candidate_cell * input_gate
    return torch.tanh(new_cell) * output_gate, new_cell


class TestLLTM(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.batch, self.features, self.state = 4, 6, 5
        self.cell = LLTM(self.features, self.state).double()
        self.x = torch.randn(self.batch, self.features, dtype=torch.float64, requires_grad=True)
        self.h = torch.randn(self.batch, self.state, dtype=torch.float64, requires_grad=True)
        self.c = torch.randn(self.batch, self.state, dtype=torch.float64, requires_grad=True)

    def test_forward_matches_reference(self):
        new_h, new_cell = self.cell(self.x, (self.h, self.c))
        ref_h, ref_cell = reference_lltm(self.x, self.cell.weights, self.cell.bias, self.h, self.c)
        torch.testing.assert_close(new_h, ref_h)
        torch.testing.assert_close(new_cell, ref_cell)

    def test_backward_matches_reference(self):
        params = [self.x, self.cell.weights, self.cell.bias, self.h, self.c]
        new_h, new_cell = self.cell(self.x, (self.h, self.c))
        grads = torch.autograd.grad((new_h.sum() + 2 * new_cell.sum()), params)
        ref_h, ref_cell = reference_lltm(*params[:3], self.h, self.c)
        expected = torch.autograd.grad((ref_h.sum() + 2 * ref_cell.sum()), params)
        torch.testing.assert_close(grads, expected)

    def test_gradcheck(self):
        inputs = (self.x, self.cell.weights, self.cell.bias, self.h, self.c)
        self.assertTrue(torch.autograd.gradcheck(LLTMFunction.apply, inputs))

    def test_returns_a_list_of_tensors(self):
        outputs = lltm_cpp.forward(self.x.detach(), self.cell.weights.detach(), self.cell.bias.detach(),
                                   self.h.detach(), self.c.detach())
        self.assertIsInstance(outputs, list)
        self.assertEqual(len(outputs), 7)
        self.assertTrue(all(isinstance(t, torch.Tensor) for t in outputs))

    def test_casters(self):
        x = torch.arange(4.0)
        scaled, n = lltm_cpp.scaled_or_zeros(x, 3.0)
        torch.testing.assert_close(scaled, x * 3)
        self.assertEqual(n, 4)
        zeros, n = lltm_cpp.scaled_or_zeros(None, shape=[2, 3])
        self.assertEqual((zeros.shape, zeros.dtype, n), (torch.Size([2, 3]), torch.float64, 0))
        leaf = lltm_cpp.make_leaf([3])
        self.assertTrue(leaf.requires_grad and leaf.is_leaf)

    def test_a_wrong_argument_is_a_type_error(self):
        with self.assertRaises(TypeError):
            lltm_cpp.forward("not a tensor", None, None, None, None)


if __name__ == "__main__":
    unittest.main()
