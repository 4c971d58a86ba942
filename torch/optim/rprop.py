import torch
from torch.optim.optimizer import Optimizer, check_hyperparameters, implementation_flags


class Rprop(Optimizer):
    """Resilient backpropagation: per-element step sizes grown while the gradient keeps its sign."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        check_hyperparameters(lr=lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(lr=lr, etas=tuple(etas), step_sizes=tuple(step_sizes), maximize=maximize,
                                      **implementation_flags(foreach, None, capturable, differentiable)))

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_min, step_max = group["step_sizes"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state.setdefault(p, {})
                if not state:
                    state.update(step=0, prev=torch.zeros_like(p), step_size=torch.full_like(p, group["lr"]))
                grad = -p.grad if group["maximize"] else p.grad.clone()
                state["step"] += 1
                prev, step_size = state["prev"], state["step_size"]
                agreement = grad.mul(prev).sign()
                # NaN agreement stays NaN, as PyTorch's masked writes leave it.
                factor = torch.where(agreement > 0, etaplus, torch.where(agreement < 0, etaminus,
                                                                         torch.where(agreement == 0, 1.0, agreement)))
                step_size.mul_(factor).clamp_(step_min, step_max)
                # After a sign change the step is skipped and the gradient forgotten.
                grad = grad.masked_fill(agreement < 0, 0)
                p.addcmul_(grad.sign(), step_size, value=-1)
                prev.copy_(grad)
        return loss
