import torch
from torch.optim.optimizer import Optimizer, check_hyperparameters, implementation_flags
from torch.optim._rules import gradient, scalar_state, with_weight_decay


class ASGD(Optimizer):
    """Averaged SGD (Polyak & Juditsky), PyTorch's form: the average ax is kept in the state."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        check_hyperparameters(lr=lr, weight_decay=weight_decay)
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                                      maximize=maximize, **implementation_flags(foreach, None, capturable,
                                                                                differentiable)))

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._evaluate(closure)
        for group in self.param_groups:
            lr, lambd = group["lr"], group["lambd"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state.setdefault(p, {})
                if not state:
                    state.update(step=0, eta=scalar_state(lr), mu=scalar_state(1.0), ax=torch.zeros_like(p))
                grad = with_weight_decay(gradient(p, group), p, group["weight_decay"])
                state["step"] += 1
                eta, mu = state["eta"].item(), state["mu"].item()
                p.mul_(1 - lambd * eta)
                p.add_(grad, alpha=-eta)
                if mu != 1:
                    state["ax"].add_(p.sub(state["ax"]).mul_(mu))
                else:
                    state["ax"].copy_(p)
                state["eta"].fill_(lr / ((1 + lambd * lr * state["step"]) ** group["alpha"]))
                state["mu"].fill_(1 / max(1, state["step"] - group["t0"]))
        return loss
