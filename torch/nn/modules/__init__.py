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
from torch.nn.modules.pooling import (
    AdaptiveAvgPool2d, AvgPool2d, MaxPool1d, MaxPool2d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d,
)
from torch.nn.modules.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from torch.nn.modules.sparse import Embedding
from torch.nn.modules.transformer import (
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer,
)
from torch.nn.modules.activation_more import (
    CELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LogSigmoid, Mish, PReLU, ReLU6, RReLU, Softmax2d,
    Softmin, Softshrink, Softsign, Tanhshrink, Threshold,
)
from torch.nn.modules.layers_more import (
    Bilinear, ChannelShuffle, CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
    CosineSimilarity, Fold, PairwiseDistance, PixelShuffle, PixelUnshuffle, ReflectionPad1d, ReflectionPad2d,
    ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, Unfold, Upsample, UpsamplingBilinear2d,
    UpsamplingNearest2d, ZeroPad1d, ZeroPad2d, ZeroPad3d,
)
from torch.nn.modules.loss_more import (
    CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss, HuberLoss, KLDivLoss, MarginRankingLoss,
    MultiLabelMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss2d, PoissonNLLLoss, SoftMarginLoss,
    TripletMarginLoss, TripletMarginWithDistanceLoss,
)
from torch.nn.modules.norm_pool_more import (
    AdaptiveAvgPool1d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d, AlphaDropout,
    AvgPool1d, AvgPool3d, BatchNorm3d, Conv3d, ConvTranspose1d, ConvTranspose2d, Dropout3d, EmbeddingBag,
    FeatureAlphaDropout, GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LocalResponseNorm, LPPool1d,
    LPPool2d, LPPool3d, MaxPool3d, RMSNorm,
)

__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d", "AlphaDropout", "AvgPool1d", "AvgPool2d", "AvgPool3d", "BCELoss", "BCEWithLogitsLoss",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "Bilinear", "CELU", "ChannelShuffle", "CircularPad1d",
    "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "Conv1d", "Conv2d", "Conv3d",
    "ConvTranspose1d", "ConvTranspose2d", "CosineEmbeddingLoss", "CosineSimilarity", "CrossEntropyLoss", "Dropout",
    "Dropout1d", "Dropout2d", "Dropout3d", "ELU", "Embedding", "EmbeddingBag", "FeatureAlphaDropout", "Flatten",
    "Fold", "GELU", "GLU", "GRU", "GRUCell", "GaussianNLLLoss", "GroupNorm", "Hardshrink", "Hardsigmoid", "Hardswish",
    "Hardtanh", "HingeEmbeddingLoss", "HuberLoss", "Identity", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "KLDivLoss", "L1Loss", "LPPool1d", "LPPool2d", "LPPool3d", "LSTM", "LSTMCell", "LayerNorm", "LeakyReLU", "Linear",
    "LocalResponseNorm", "LogSigmoid", "LogSoftmax", "MSELoss", "MarginRankingLoss", "MaxPool1d", "MaxPool2d",
    "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "Mish", "Module", "ModuleDict", "ModuleList",
    "MultiLabelMarginLoss", "MultiLabelSoftMarginLoss",
    "MultiMarginLoss", "MultiheadAttention", "NLLLoss", "NLLLoss2d", "PReLU", "PairwiseDistance", "ParameterDict",
    "ParameterList", "PixelShuffle", "PixelUnshuffle", "PoissonNLLLoss", "RMSNorm", "RNN", "RNNBase", "RNNCell",
    "RNNCellBase", "RReLU", "ReLU", "ReLU6", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
    "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "SELU", "Sequential", "SiLU", "Sigmoid",
    "SmoothL1Loss", "SoftMarginLoss", "Softmax", "Softmax2d", "Softmin", "Softplus", "Softshrink", "Softsign", "Tanh",
    "Tanhshrink", "Threshold", "Transformer", "TransformerDecoder", "TransformerDecoderLayer", "TransformerEncoder",
    "TransformerEncoderLayer", "TripletMarginLoss",
    "TripletMarginWithDistanceLoss", "Unflatten", "Unfold", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d",
    "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
]
