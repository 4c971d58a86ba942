"""An MLP on scikit-learn's bundled 8x8 digits (load_digits: no download).

Trains with Adam and cross-entropy, prints a line per epoch, and checks that
the held-out accuracy reaches 95%.
"""
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import torch
from torch import nn

torch.manual_seed(0)
digits = load_digits()
X = (digits.data / 16.0).astype(np.float32)
y = digits.target.astype(np.int64)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0, stratify=y)
X_train, X_test = torch.from_numpy(X_train), torch.from_numpy(X_test)
y_train, y_test = torch.from_numpy(y_train), torch.from_numpy(y_test)

model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10))
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
loss_fn = nn.CrossEntropyLoss()
batch_size = 32


def accuracy(inputs, labels):
    with torch.no_grad():
        return (model(inputs).argmax(1) == labels).float().mean().item()


start = time.perf_counter()
for epoch in range(1, 21):
    model.train()
    order = torch.randperm(len(X_train))
    total = 0.0
    for i in range(0, len(X_train), batch_size):
        idx = order[i : i + batch_size]
        optimizer.zero_grad()
        loss = loss_fn(model(X_train[idx]), y_train[idx])
        loss.backward()
        optimizer.step()
        total += loss.item() * len(idx)
    model.eval()
    print(f"epoch {epoch:2d}  loss {total / len(X_train):.4f}  test accuracy {accuracy(X_test, y_test):.4f}")

final = accuracy(X_test, y_test)
print(f"test accuracy {final:.4f} after {time.perf_counter() - start:.1f}s")
assert final >= 0.95, f"accuracy {final:.4f} is below 95%"
