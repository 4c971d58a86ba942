"""A digits classifier in the usual Dataset/DataLoader style: a Dataset class
over scikit-learn's bundled 8x8 digits (no download) with a per-sample
transform, random_split into train/validation, DataLoaders with shuffling,
a seeded generator and two worker processes, an MLP with BatchNorm1d and
Dropout, AdamW with OneCycleLR, evaluation under torch.inference_mode, and
the best weights kept with state_dict/load_state_dict through torch.save.

Prints a line per epoch and checks that validation accuracy reaches 95%."""
import io
import time

import numpy as np
from sklearn.datasets import load_digits

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, random_split


class Digits(Dataset):
    def __init__(self):
        digits = load_digits()
        self.images = torch.tensor(digits.data / 16.0, dtype=torch.float32)
        self.labels = torch.tensor(digits.target, dtype=torch.long)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class Noisy(Dataset):
    """A per-sample augmentation of another dataset (it runs in the worker processes)."""

    def __init__(self, dataset, noise):
        self.dataset, self.noise = dataset, noise

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, i):
        x, y = self.dataset[i]
        return x + self.noise * torch.randn(x.shape), y


def make_model():
    return nn.Sequential(nn.Linear(64, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.2),
                         nn.Linear(128, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 10))


def train_step(model, optimizer, x, y):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y, label_smoothing=0.05)
    loss.backward()
    optimizer.step()
    return loss


def benchmark_step():
    """One training step on a fixed batch of 64 (benchmarks/bench_ops.py times it)."""
    torch.manual_seed(0)
    model = make_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    data = Digits()
    x, y = data.images[:64], data.labels[:64]
    return lambda: train_step(model, optimizer, x, y)


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.inference_mode():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    return correct / total


def main(epochs=8):
    torch.manual_seed(0)
    train_set, val_set = random_split(Digits(), [0.8, 0.2], generator=torch.Generator().manual_seed(42))
    train_loader = DataLoader(Noisy(train_set, 0.05), batch_size=64, shuffle=True, num_workers=2, drop_last=True,
                              generator=torch.Generator().manual_seed(0))
    val_loader = DataLoader(val_set, batch_size=256)
    model = make_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-2, epochs=epochs,
                                                    steps_per_epoch=len(train_loader))
    best, best_state = 0.0, None
    start, steps = time.perf_counter(), 0
    for epoch in range(1, epochs + 1):
        model.train()
        total = 0.0
        for x, y in train_loader:
            total += train_step(model, optimizer, x, y).item()
            scheduler.step()
            steps += 1
        accuracy = evaluate(model, val_loader)
        if accuracy > best:
            buffer = io.BytesIO()
            torch.save(model.state_dict(), buffer)
            best, best_state = accuracy, buffer.getvalue()
        print(f"epoch {epoch}  loss {total / len(train_loader):.4f}  validation accuracy {accuracy:.4f}")
    model.load_state_dict(torch.load(io.BytesIO(best_state)))
    final = evaluate(model, val_loader)
    print(f"best validation accuracy {final:.4f}; {(time.perf_counter() - start) / steps * 1000:.1f} ms per step "
          "(with worker processes)")
    assert final >= 0.95, f"accuracy {final:.4f} is below 95%"


if __name__ == "__main__":
    main()
