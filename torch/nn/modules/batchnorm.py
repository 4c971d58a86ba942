import torch
from torch.nn import functional as F
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter


class _BatchNorm(Module):
    _input_dims = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None):
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = Parameter(torch.ones(num_features, **kw))
            self.bias = Parameter(torch.zeros(num_features, **kw))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", torch.zeros(num_features, **kw))
            self.register_buffer("running_var", torch.ones(num_features, **kw))
            self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.int64, device=device))
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def forward(self, input):
        if input.dim() not in self._input_dims:
            raise ValueError(f"expected {' or '.join(f'{d}D' for d in self._input_dims)} input (got {input.dim()}D "
                             "input)")
        if input.shape[1] != self.num_features:
            raise ValueError(f"expected input with {self.num_features} channels, got {input.shape[1]}")
        momentum = self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if momentum is None:  # a cumulative average
                momentum = 1.0 / int(self.num_batches_tracked)
        # Batch statistics while training, or when there are no running ones.
        use_batch_stats = self.training or self.running_mean is None
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias, use_batch_stats,
                            momentum, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    _input_dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    _input_dims = (4,)
