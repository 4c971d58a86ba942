"""A small CNN on synthetic images, in the style of the PyTorch CIFAR-10
tutorial: 1x16x16 images of three classes (horizontal stripes, vertical
stripes, a filled square) with random phase, contrast and noise, made with
numpy; TensorDataset + DataLoader (shuffle); Conv2d, MaxPool2d, BatchNorm2d,
Dropout2d, Flatten, Linear; SGD with momentum and StepLR.

Prints a line per epoch and checks that held-out accuracy reaches 95% and the
last epoch's training loss is below 0.2."""
import time

import numpy as np

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

SIZE, CLASSES = 16, 3


def make_images(n, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, CLASSES, n)
    coords = np.arange(SIZE)
    images = np.empty((n, 1, SIZE, SIZE), dtype=np.float32)
    for i, label in enumerate(labels):
        period, phase, contrast = rng.integers(3, 6), rng.integers(0, 6), rng.uniform(0.5, 1.5)
        if label == 0:
            img = np.tile(((coords + phase) % period < period / 2)[:, None], (1, SIZE))
        elif label == 1:
            img = np.tile(((coords + phase) % period < period / 2)[None, :], (SIZE, 1))
        else:
            img = np.zeros((SIZE, SIZE))
            top, left, side = rng.integers(0, 8), rng.integers(0, 8), rng.integers(5, 9)
            img[top:top + side, left:left + side] = 1
        images[i, 0] = contrast * img + rng.normal(0, 0.4, (SIZE, SIZE))
    return torch.from_numpy(images), torch.from_numpy(labels.astype(np.int64))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout2d(0.1))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(16 * 4 * 4, 32), nn.ReLU(), nn.Linear(32, CLASSES))

    def forward(self, x):
        return self.classifier(self.features(x))


def make_training(seed=0):
    torch.manual_seed(seed)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    return model, optimizer, nn.CrossEntropyLoss()


def train_step(model, optimizer, loss_fn, images, labels):
    optimizer.zero_grad()
    loss = loss_fn(model(images), labels)
    loss.backward()
    optimizer.step()
    return loss


def benchmark_step():
    """One training step on a fixed batch of 32 (benchmarks/bench_ops.py times it)."""
    model, optimizer, loss_fn = make_training()
    images, labels = make_images(32, 1)
    return lambda: train_step(model, optimizer, loss_fn, images, labels)


def main(epochs=6):
    train = TensorDataset(*make_images(1200, 1))
    test_images, test_labels = make_images(300, 2)
    loader = DataLoader(train, batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(0))
    model, optimizer, loss_fn = make_training()
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.3)
    start, steps = time.perf_counter(), 0
    for epoch in range(1, epochs + 1):
        model.train()
        total = 0.0
        for images, labels in loader:
            total += train_step(model, optimizer, loss_fn, images, labels).item() * len(labels)
            steps += 1
        scheduler.step()
        model.eval()
        with torch.no_grad():
            accuracy = (model(test_images).argmax(1) == test_labels).float().mean().item()
        loss = total / len(train)
        print(f"epoch {epoch}  loss {loss:.4f}  test accuracy {accuracy:.4f}")
    print(f"{(time.perf_counter() - start) / steps * 1000:.1f} ms per step (with data loading)")
    assert accuracy >= 0.95, f"accuracy {accuracy:.4f} is below 95%"
    assert loss < 0.2, f"training loss {loss:.4f} is not below 0.2"


if __name__ == "__main__":
    main()
