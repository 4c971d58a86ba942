import math

import torch
from torch.optim.optimizer import Optimizer, check_hyperparameters, implementation_flags
from torch.optim._rules import check_betas, gradient, with_weight_decay


class RAdam(Optimizer):
    """Rectified Adam (Liu et al.): plain momentum steps until the second moment's variance is tractable."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        check_hyperparameters(lr=lr, eps=eps, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, betas=check_betas(betas), eps=eps, weight_decay=weight_decay,
                                      decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                                      **implementation_flags(foreach, None, capturable, differentiable)))

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, wd = group["lr"], group["weight_decay"]
            rho_inf = 2 / (1 - beta2) - 1
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state.setdefault(p, {})
                if not state:
                    state.update(step=0, exp_avg=torch.zeros_like(p), exp_avg_sq=torch.zeros_like(p))
                grad = gradient(p, group)
                if group["decoupled_weight_decay"]:
                    p.mul_(1 - lr * wd)
                else:
                    grad = with_weight_decay(grad, p, wd)
                state["step"] += 1
                step = state["step"]
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                bias_correction2 = 1 - beta2**step
                corrected_avg = exp_avg / (1 - beta1**step)
                rho_t = rho_inf - 2 * step * beta2**step / bias_correction2
                if rho_t > 5.0:
                    rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
                    adaptive_lr = math.sqrt(bias_correction2) / exp_avg_sq.sqrt().add_(group["eps"])
                    p.add_(corrected_avg * lr * adaptive_lr * rect, alpha=-1.0)
                else:
                    p.add_(corrected_avg * lr, alpha=-1.0)
        return loss
