"""Hello, world: a seeded one-neuron model trained for one step.

Prints the neuron's output and its loss in PyTorch's format, as PyTorch's own
hello world does:
    tensor([0.8506], grad_fn=<SigmoidBackward0>)
    tensor(0.0223, grad_fn=<MseLossBackward0>)
(the values depend on the generator), then takes one optimiser step and shows
the loss going down.
"""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 1), nn.Sigmoid())
x = torch.tensor([0.5, -1.0, 2.0])
target = torch.tensor([1.0])

output = model(x)
loss = nn.MSELoss()(output, target)
print(output)
print(loss)

optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
optimizer.zero_grad()
loss.backward()
optimizer.step()
with torch.no_grad():
    new_loss = nn.MSELoss()(model(x), target)
print(f"after one step: loss {new_loss.item():.4f} (was {loss.item():.4f})")
assert new_loss.item() < loss.item(), "a gradient step must lower the loss"
