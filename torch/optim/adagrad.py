import torch
from torch.optim.optimizer import Optimizer, check_hyperparameters, implementation_flags
from torch.optim._rules import gradient, with_weight_decay


class Adagrad(Optimizer):
    """Adagrad (Duchi et al.), with PyTorch's learning-rate decay and initial accumulator."""

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        check_hyperparameters(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                              initial_accumulator_value=initial_accumulator_value, eps=eps)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, maximize=maximize,
                                      **implementation_flags(foreach, fused, False, differentiable)))
        # PyTorch creates the accumulators here, not at the first step.
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p] = {"step": 0, "sum": torch.full_like(p, group["initial_accumulator_value"])}

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                grad = with_weight_decay(gradient(p, group), p, group["weight_decay"])
                state["step"] += 1
                clr = group["lr"] / (1 + (state["step"] - 1) * group["lr_decay"])
                state["sum"].addcmul_(grad, grad, value=1)
                std = state["sum"].sqrt().add_(group["eps"])
                p.addcdiv_(grad, std, value=-clr)
        return loss
