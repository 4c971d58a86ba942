"""torch.nn.utils: gradient clipping, parameter/vector conversion, and
variable-length sequences for the recurrent modules (rnn)."""
from torch.nn.utils import rnn
from torch.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_
from torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "rnn", "vector_to_parameters"]
