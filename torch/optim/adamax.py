import torch
from torch.optim.optimizer import Optimizer, check_hyperparameters, implementation_flags
from torch.optim._rules import check_betas, gradient, with_weight_decay


class Adamax(Optimizer):
    """Adamax (Kingma & Ba): Adam with the infinity norm in place of the second moment."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        check_hyperparameters(lr=lr, eps=eps, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, betas=check_betas(betas), eps=eps, weight_decay=weight_decay,
                                      maximize=maximize, **implementation_flags(foreach, None, capturable,
                                                                                differentiable)))

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state.setdefault(p, {})
                if not state:
                    state.update(step=0, exp_avg=torch.zeros_like(p), exp_inf=torch.zeros_like(p))
                grad = with_weight_decay(gradient(p, group), p, group["weight_decay"])
                state["step"] += 1
                exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
                exp_avg.lerp_(grad, 1 - beta1)
                torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(group["eps"]), out=exp_inf)
                p.addcdiv_(exp_avg, exp_inf, value=-group["lr"] / (1 - beta1 ** state["step"]))
        return loss
