"""torch.optim: optimizers that update parameters in place from their .grad."""
from torch.optim.adam import Adam, AdamW
from torch.optim.optimizer import Optimizer
from torch.optim.sgd import SGD
from torch.optim import lr_scheduler  # noqa: E402  (torch.optim.lr_scheduler.StepLR without an import)

__all__ = ["Adam", "AdamW", "Optimizer", "SGD", "lr_scheduler"]
