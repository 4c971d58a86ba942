"""MultiheadAttention over F.scaled_dot_product_attention, with PyTorch's
parameters (in_proj_weight, in_proj_bias, out_proj) and mask conventions
(True in key_padding_mask or a bool attn_mask means "do not attend")."""
import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.linear import Linear
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if add_bias_kv or add_zero_attn or (kdim not in (None, embed_dim)) or (vdim not in (None, embed_dim)):
            raise NotImplementedError("MultiheadAttention: add_bias_kv, add_zero_attn and kdim/vdim other than "
                                      "embed_dim are not supported")
        kw = {"device": device, "dtype": dtype}
        self.embed_dim, self.num_heads, self.dropout = embed_dim, num_heads, dropout
        self.head_dim, self.batch_first = embed_dim // num_heads, batch_first
        self.kdim = self.vdim = embed_dim
        self._qkv_same_embed_dim = True
        self.in_proj_weight = Parameter(torch.empty(3 * embed_dim, embed_dim, **kw))
        if bias:
            self.in_proj_bias = Parameter(torch.zeros(3 * embed_dim, **kw))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, **kw)
        init.xavier_uniform_(self.in_proj_weight)
        if bias:
            init.constant_(self.out_proj.bias, 0.0)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        if query.dim() not in (2, 3):
            raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D "
                                 "query tensor")
        batched = query.dim() == 3
        if not batched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        L, N, E = query.shape
        S = key.shape[0]
        if E != self.embed_dim:
            raise AssertionError(f"was expecting embedding dimension of {self.embed_dim}, but got {E}")
        if key.shape[:2] != value.shape[:2] or key.shape[1] != N:
            raise AssertionError(f"key shape {tuple(key.shape)} does not match value shape {tuple(value.shape)}")
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3) if self.in_proj_bias is not None else (None, None, None)
        H, D = self.num_heads, self.head_dim

        def heads(x, w, b, length):  # (length, N, E) -> (N, H, length, D)
            return F.linear(x, w, b).reshape(length, N, H, D).permute(1, 2, 0, 3)

        q, k, v = heads(query, w_q, b_q, L), heads(key, w_k, b_k, S), heads(value, w_v, b_v, S)
        mask = self._additive_mask(attn_mask, key_padding_mask, is_causal, L, S, N, q.dtype, q.device)
        scores = q.matmul(k.transpose(-2, -1)) * (1.0 / D ** 0.5)
        if mask is not None:
            scores = scores + mask
        weights = scores.softmax(-1)
        if self.dropout > 0.0 and self.training:
            weights = F.dropout(weights, self.dropout, True)
        out = weights.matmul(v).permute(2, 0, 1, 3).reshape(L, N, E)
        out = self.out_proj(out)
        if batched and self.batch_first:
            out = out.transpose(0, 1)
        elif not batched:
            out = out.squeeze(1)
        if not need_weights:
            return out, None
        attn = weights.mean(1) if average_attn_weights else weights
        return out, (attn if batched else attn.squeeze(0))

    def _additive_mask(self, attn_mask, key_padding_mask, is_causal, L, S, N, dtype, device):
        """attn_mask and key_padding_mask as one additive (N, H or 1, L, S) mask; -inf where attention is barred."""
        if is_causal and attn_mask is None:
            attn_mask = torch.ones(L, S, dtype=torch.bool, device=device).triu(1)
        mask = None
        if attn_mask is not None:
            if attn_mask.dim() == 2:
                if tuple(attn_mask.shape) != (L, S):
                    raise RuntimeError(f"The shape of the 2D attn_mask is {tuple(attn_mask.shape)}, but should be "
                                       f"{(L, S)}.")
                attn_mask = attn_mask.reshape(1, 1, L, S)
            elif attn_mask.dim() == 3:
                if tuple(attn_mask.shape) != (N * self.num_heads, L, S):
                    raise RuntimeError(f"The shape of the 3D attn_mask is {tuple(attn_mask.shape)}, but should be "
                                       f"{(N * self.num_heads, L, S)}.")
                attn_mask = attn_mask.reshape(N, self.num_heads, L, S)
            else:
                raise AssertionError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
            mask = _as_additive(attn_mask, dtype)
        if key_padding_mask is not None:
            if tuple(key_padding_mask.shape) != (N, S):
                raise AssertionError(f"expecting key_padding_mask shape of {(N, S)}, but got "
                                     f"{tuple(key_padding_mask.shape)}")
            pad = _as_additive(key_padding_mask.reshape(N, 1, 1, S), dtype)
            mask = pad if mask is None else mask + pad
        return mask


def _as_additive(mask, dtype):
    if mask.dtype == torch.bool:
        return torch.zeros(mask.shape, dtype=dtype, device=mask.device).masked_fill(mask, float("-inf"))
    return mask.to(dtype)
