"""A character-level GPT (decoder-only transformer) trained on a short text
embedded below, in the style of the popular from-scratch GPT tutorials:
token and position embeddings, causal self-attention with a tril buffer and
masked_fill, pre-norm blocks, weight tying, AdamW with a cosine schedule and
gradient clipping; then sampling with top-k and torch.multinomial.

Prints the loss every 50 steps and checks that the final training loss falls
below 1.0 nats (a uniform guess over the 33 characters is 3.5; PyTorch 2.13
ends near 0.45 with this seed)."""
import math
import time

import torch
import torch.nn as nn
from torch.nn import functional as F

TEXT = """\
It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of
incredulity, it was the season of light, it was the season of darkness, it was
the spring of hope, it was the winter of despair, we had everything before us,
we had nothing before us, we were all going direct to heaven, we were all going
direct the other way. There were a king with a large jaw and a queen with a
plain face, on the throne of England; there were a king with a large jaw and a
queen with a fair face, on the throne of France.
"""

BLOCK, EMBED, HEADS, LAYERS = 32, 64, 4, 2
chars = sorted(set(TEXT))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in TEXT], dtype=torch.long)


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(EMBED, 3 * EMBED)
        self.proj = nn.Linear(EMBED, EMBED)
        self.drop = nn.Dropout(0.1)
        self.register_buffer("mask", torch.tril(torch.ones(BLOCK, BLOCK)).view(1, 1, BLOCK, BLOCK))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(EMBED, dim=2)
        q, k, v = (t.view(B, T, HEADS, C // HEADS).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        att = self.drop(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(EMBED), nn.LayerNorm(EMBED)
        self.attn = CausalSelfAttention()
        self.mlp = nn.Sequential(nn.Linear(EMBED, 4 * EMBED), nn.GELU(), nn.Linear(4 * EMBED, EMBED), nn.Dropout(0.1))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.tok = nn.Embedding(vocab, EMBED)
        self.pos = nn.Embedding(BLOCK, EMBED)
        self.blocks = nn.Sequential(*[Block() for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(EMBED)
        self.head = nn.Linear(EMBED, vocab, bias=False)
        self.head.weight = self.tok.weight  # weight tying
        self.apply(self._init)

    @staticmethod
    def _init(module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        logits = self.head(self.ln_f(self.blocks(x)))
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss

    @torch.no_grad()
    def generate(self, idx, new_tokens, top_k=5, generator=None):
        for _ in range(new_tokens):
            logits, _ = self(idx[:, -BLOCK:])
            logits = logits[:, -1, :]
            v, _ = torch.topk(logits, top_k)
            logits[logits < v[:, [-1]]] = -float("inf")
            nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1, generator=generator)
            idx = torch.cat((idx, nxt), dim=1)
        return idx


def get_batch(batch_size, generator):
    ix = torch.randint(len(data) - BLOCK, (batch_size,), generator=generator)
    x = torch.stack([data[i:i + BLOCK] for i in ix])
    y = torch.stack([data[i + 1:i + BLOCK + 1] for i in ix])
    return x, y


def make_training(steps=300, seed=0):
    torch.manual_seed(seed)
    model = GPT(len(chars))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=steps)
    return model, optimizer, scheduler


def train_step(model, optimizer, x, y):
    _, loss = model(x, y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return loss


def benchmark_step():
    """One training step on a fixed batch (benchmarks/bench_ops.py times it)."""
    model, optimizer, _ = make_training()
    x, y = get_batch(16, torch.Generator().manual_seed(1))
    return lambda: train_step(model, optimizer, x, y)


def main(steps=300):
    model, optimizer, scheduler = make_training(steps)
    g = torch.Generator().manual_seed(1)
    print(f"{sum(p.numel() for p in model.parameters())} parameters, vocabulary of {len(chars)}")
    start, recent = time.perf_counter(), []
    for step in range(1, steps + 1):
        x, y = get_batch(16, g)
        loss = train_step(model, optimizer, x, y)
        scheduler.step()
        recent = (recent + [loss.item()])[-20:]
        if step % 50 == 0:
            print(f"step {step:4d}  loss {sum(recent) / len(recent):.4f}  lr {scheduler.get_last_lr()[0]:.5f}")
    per_step = (time.perf_counter() - start) / steps
    model.eval()
    sample = model.generate(data[:8].unsqueeze(0), 80, generator=torch.Generator().manual_seed(0))
    print("sample:", repr("".join(itos[int(i)] for i in sample[0])))
    final = sum(recent) / len(recent)
    print(f"final loss {final:.4f}, {per_step * 1000:.1f} ms per step")
    assert final < 1.0, f"loss {final:.4f} did not fall below 1.0"


if __name__ == "__main__":
    main()
