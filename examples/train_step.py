"""One SGD step of a small 3-D CNN with every conv kernel on the simulator.

The README's worked example of the training-step drop-in (runtime/autograd.py): a torch model of
two ``nn.Conv3d`` layers in float16 has its convolutions swapped for ``ascend_xdsl``'s drop-in by
``replace_conv3d`` (the parameters are shared, so the optimiser built before the swap still
updates them); its forward, dX and dW then run on the simulator, the bias add and its gradient in
torch. The same step in torch in float64, from the same float16 weights, is the comparison.
"""

import copy

import torch

from ascend_xdsl.runtime import replace_conv3d

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Conv3d(4, 8, 3, padding=1),
    torch.nn.ReLU(),
    torch.nn.Conv3d(8, 4, 3, stride=(2, 1, 1), padding=1, groups=2),
).half()
reference = copy.deepcopy(model).double()
optimiser = torch.optim.SGD(model.parameters(), lr=0.01)
replace_conv3d(model)
print(model)

x = torch.randn(2, 4, 4, 6, 6).half()
target = torch.randn(2, 4, 2, 6, 6).half()
for name, net, opt, dtype in (
    ("simulator", model, optimiser, torch.float16),
    ("torch f64", reference, torch.optim.SGD(reference.parameters(), lr=0.01), torch.float64),
):
    loss = (net(x.to(dtype)).double() - target.double()).square().mean()
    loss.backward()
    opt.step()
    print(f"{name}: loss {loss.item():.4f}, |conv1.weight| after the step "
          f"{net[0].weight.double().norm().item():.4f}")  # fmt: skip
worst = max(
    (p.double() - q).abs().max().item()
    for p, q in zip(model.parameters(), reference.parameters(), strict=True)
)
print(f"largest difference of an updated parameter: {worst:.2g}")
