"""The nn.Module classes, a file per family."""
from torch.nn.modules.activation import (
    ELU, GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, SiLU, Softmax, Softplus, Tanh,
)
from torch.nn.modules.attention import MultiheadAttention
from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d
from torch.nn.modules.container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from torch.nn.modules.conv import Conv1d, Conv2d
from torch.nn.modules.dropout import Dropout, Dropout1d, Dropout2d
from torch.nn.modules.flatten import Flatten, Unflatten
from torch.nn.modules.linear import Identity, Linear
from torch.nn.modules.loss import (
    BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss, SmoothL1Loss,
)
from torch.nn.modules.module import Module
from torch.nn.modules.normalization import LayerNorm
from torch.nn.modules.pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool1d, MaxPool2d
from torch.nn.modules.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from torch.nn.modules.sparse import Embedding
from torch.nn.modules.transformer import TransformerEncoder, TransformerEncoderLayer

__all__ = [
    "AdaptiveAvgPool2d", "AvgPool2d", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "Conv1d", "Conv2d",
    "CrossEntropyLoss", "Dropout", "Dropout1d", "Dropout2d", "ELU", "Embedding", "Flatten", "GELU", "GRU", "GRUCell",
    "Identity", "L1Loss", "LSTM", "LSTMCell", "LayerNorm", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss",
    "MaxPool1d", "MaxPool2d", "Module", "ModuleDict", "ModuleList", "MultiheadAttention", "NLLLoss", "ParameterDict",
    "ParameterList", "RNN", "RNNBase", "RNNCell", "RNNCellBase", "ReLU", "Sequential", "SiLU", "Sigmoid",
    "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "TransformerEncoder", "TransformerEncoderLayer", "Unflatten",
]
