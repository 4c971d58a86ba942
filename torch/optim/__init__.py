"""torch.optim: optimizers that update parameters in place from their .grad."""
from torch.optim.adam import Adam, AdamW
from torch.optim.optimizer import Optimizer
from torch.optim.sgd import SGD

__all__ = ["Adam", "AdamW", "Optimizer", "SGD"]
