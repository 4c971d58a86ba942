"""Hello, world: a one-neuron model.

Prints the neuron's sigmoid output and the mean squared error against the
target, in PyTorch's format, then takes one step of gradient descent and
prints the smaller loss. The gradient is worked out by hand here:
    d loss / d z = 2 (y - target) * y (1 - y),   z = w @ x + b,  y = sigmoid(z)
"""
import torch

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0])
target = torch.tensor([1.0])
w = torch.randn(1, 3) * 0.5
b = torch.zeros(1)

y = torch.sigmoid(w @ x + b)
loss = ((y - target) ** 2).mean()
print(y)
print(loss)

learning_rate = 0.5
grad_z = 2 * (y - target) * y * (1 - y)
w -= learning_rate * grad_z * x
b -= learning_rate * grad_z
new_loss = ((torch.sigmoid(w @ x + b) - target) ** 2).mean()
print(f"after one step: loss {new_loss.item():.4f} (was {loss.item():.4f})")
assert new_loss.item() < loss.item(), "a gradient step must lower the loss"
