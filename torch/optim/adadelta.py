import torch
from torch.optim.optimizer import Optimizer, check_hyperparameters, implementation_flags
from torch.optim._rules import check_range, gradient, with_weight_decay


class Adadelta(Optimizer):
    """Adadelta (Zeiler), PyTorch's update rule: lr scales the unit-corrected step."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        check_hyperparameters(lr=lr, eps=eps, weight_decay=weight_decay)
        check_range("rho", rho, 0.0, 1.0)
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                                      **implementation_flags(foreach, None, capturable, differentiable)))

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for group in self.param_groups:
            rho, eps = group["rho"], group["eps"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state.setdefault(p, {})
                if not state:
                    state.update(step=0, square_avg=torch.zeros_like(p), acc_delta=torch.zeros_like(p))
                grad = with_weight_decay(gradient(p, group), p, group["weight_decay"])
                state["step"] += 1
                square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                std = square_avg.add(eps).sqrt_()
                delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
                acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                p.add_(delta, alpha=-group["lr"])
        return loss
