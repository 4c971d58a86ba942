"""Optimizer: parameter groups, per-parameter state, and their state_dict."""
import copy

import torch


def check_hyperparameters(**values):
    """Raises PyTorch's ValueError for a negative learning rate, epsilon, momentum or weight decay."""
    labels = {"lr": "learning rate", "eps": "epsilon value", "momentum": "momentum value",
              "weight_decay": "weight_decay value", "lr_decay": "lr_decay value",
              "initial_accumulator_value": "initial_accumulator_value value", "alpha": "alpha value",
              "momentum_decay": "momentum_decay value"}
    for name, value in values.items():
        if value < 0.0:
            raise ValueError(f"Invalid {labels[name]}: {value}")


def implementation_flags(foreach=None, fused=None, capturable=False, differentiable=False):
    """PyTorch's implementation switches, kept in the defaults as PyTorch keeps
    them. Every optimizer here runs PyTorch's single-tensor update rule, which
    foreach and fused only reorganise, and capturable only concerns CUDA
    graphs; differentiable (a step autograd can see through) is refused."""
    if differentiable:
        raise NotImplementedError("differentiable=True is not supported by this build's optimizers: their steps run "
                                  "under torch.no_grad()")
    if foreach and fused:
        raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
    return dict(foreach=foreach, fused=fused, capturable=capturable, differentiable=differentiable)


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}
        self.param_groups = []
        params = list(params)
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, group):
        group = dict(group)
        params = group["params"]
        group["params"] = [params] if isinstance(params, torch.Tensor) else list(params)
        for p in group["params"]:
            if not isinstance(p, torch.Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for key, value in self.defaults.items():
            group.setdefault(key, value)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.grad = None if set_to_none else torch.zeros_like(p.grad)

    def step(self, closure=None):
        raise NotImplementedError

    @staticmethod
    def _evaluate(closure):
        """The loss `closure` recomputes (with gradients on, inside step's no_grad), or None."""
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    def state_dict(self):
        """PyTorch's layout: parameters are numbered in group order."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = []
            for p in group["params"]:
                index.setdefault(id(p), len(index))
                packed["params"].append(index[id(p)])
            groups.append(packed)
        state = {index[id(p)]: {k: (v.clone() if isinstance(v, torch.Tensor) else v) for k, v in s.items()}
                 for p, s in ((p, self.state[p]) for g in self.param_groups for p in g["params"] if p in self.state)}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        params = [p for g in self.param_groups for p in g["params"]]
        saved_ids = [i for g in groups for i in g["params"]]
        if len(saved_ids) != len(params):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        by_id = dict(zip(saved_ids, params))
        self.state = {}
        for key, value in state_dict["state"].items():
            p = by_id[int(key)]
            self.state[p] = {k: (v.clone().to(p.dtype) if isinstance(v, torch.Tensor) and v.is_floating_point()
                                 else copy.deepcopy(v)) for k, v in value.items()}
        for group, saved in zip(self.param_groups, groups):
            for k, v in saved.items():
                if k != "params":
                    group[k] = v

    def __repr__(self):
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(k for k in group if k != "params"):
                lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)
