"""torch.nn: modules, parameters, losses, and their functional forms."""
from torch.nn import functional, init
from torch.nn.modules import (
    GELU,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Dropout,
    Embedding,
    Identity,
    LayerNorm,
    Linear,
    Module,
    ModuleList,
    MSELoss,
    NLLLoss,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Tanh,
)
from torch.nn.parameter import Parameter

__all__ = [
    "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "Embedding", "GELU", "Identity", "LayerNorm", "Linear",
    "MSELoss", "Module", "ModuleList", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid", "Softmax", "Tanh",
    "functional", "init",
]
