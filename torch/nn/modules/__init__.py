"""The nn.Module classes, a file per family."""
from torch.nn.modules.activation import GELU, ReLU, Sigmoid, Softmax, Tanh
from torch.nn.modules.container import ModuleList, Sequential
from torch.nn.modules.dropout import Dropout
from torch.nn.modules.linear import Identity, Linear
from torch.nn.modules.loss import BCEWithLogitsLoss, CrossEntropyLoss, MSELoss, NLLLoss
from torch.nn.modules.module import Module
from torch.nn.modules.normalization import LayerNorm
from torch.nn.modules.sparse import Embedding
