"""The training-step drop-in (runtime/autograd.py): one SGD step of a small 3-D CNN with the
forward, dX and dW on the simulator, against the same step in torch in float64 on the same
(f16-rounded) weights and data; each gradient of one layer against torch in float64;
``needs_input_grad`` skipping launches; the state_dict shared with ``nn.Conv3d``; refusals.

Tolerances are derived as the dW check derives its own (runtime/reports/check.py): a float32
sum of n products is within c·u·√n·Σ|a·b| of the exact sum (u = 2⁻²⁴, c = 4), a rounding to
f16/bf16 adds half an ulp of the value (and half the subnormal spacing), and an error already in
an operand goes through a bilinear op as op(|a| + Ea, |b| + Eb) − op(|a|, |b|). The references
and the magnitudes are torch's own convolution in float64 (autograd of ``F.conv3d`` on the
padded input), never the code under test.
"""

from __future__ import annotations

import copy
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch is in the test extra")
F = torch.nn.functional

from ascend_xdsl.runtime import autograd as ag  # noqa: E402
from ascend_xdsl.runtime import conv3d_autograd, replace_conv3d  # noqa: E402
from ascend_xdsl.runtime.forward import conv3d  # noqa: E402
from ascend_xdsl.runtime.input_grad import conv3d_input  # noqa: E402

C, U = 4.0, 2.0**-24
TINY = float(np.finfo(np.float32).tiny)
REL = {torch.float16: (2.0**-11, 2.0**-25), torch.bfloat16: (2.0**-8, 0.0)}


def rounded(exact: torch.Tensor, err: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """The error ``err`` of a value, then rounded to ``dtype`` (half an ulp, subnormals)."""
    rel, sub = REL[dtype]
    return err + rel * (exact.abs() + err) + sub + TINY


def conv_parts(x, w, dy, conv: dict) -> tuple[torch.Tensor, ...]:
    """y, dX and dW of ``conv`` (stride, pads6, dilation, groups) in float64, by torch."""
    x = x.detach().double().requires_grad_()
    w = w.detach().double().requires_grad_()
    p = conv["pads6"]
    # F.pad takes the last axis first: (left, right, up, down, front, back).
    y = F.conv3d(F.pad(x, (p[4], p[5], p[2], p[3], p[0], p[1])), w, None, conv["stride"], 0,
                 conv["dilation"], conv["groups"])  # fmt: skip
    dx, dw = torch.autograd.grad(y, (x, w), dy.double())
    return y.detach(), dx, dw


def layer_bounds(x, ex, w, dy, edy, conv: dict, dtype: torch.dtype) -> dict[str, torch.Tensor]:
    """The exact y, dX, dW of one layer on the exact x and dy, and the error bound of what the
    simulator gives for each when its x and dy are off by at most ``ex`` and ``edy`` (y and dX
    rounded to ``dtype``, dW too, as the drop-in hands it to ``weight.grad``)."""
    cout, cin_g, *k = w.shape
    taps = k[0] * k[1] * k[2]
    y, dx, dw = conv_parts(x, w, dy, conv)
    # Σ|a·b| with the operands' errors included, and without (their difference propagates).
    big = conv_parts(x.abs() + ex, w.abs(), dy.abs() + edy, conv)
    small = conv_parts(x.abs(), w.abs(), dy.abs(), conv)
    n = {"y": cin_g * taps, "dx": cout // conv["groups"] * taps, "dw": dy[0, 0].numel() * len(dy)}
    out = {"y": y, "dx": dx, "dw": dw}
    for i, name in enumerate(("y", "dx", "dw")):
        sums = C * U * np.sqrt(n[name]) * big[i] + (big[i] - small[i])
        out["e" + name] = rounded(out[name], sums, dtype)
    return out


def bias_grad_bounds(dz, edz, dtype) -> tuple[torch.Tensor, torch.Tensor]:
    """Σ dz over N, D, H, W (float32 in torch, rounded to ``dtype``): exact and error bound."""
    axes = (0, 2, 3, 4)
    m = dz[:, 0].numel()
    sums = edz.sum(axes) + C * U * np.sqrt(m) * (dz.abs() + edz).sum(axes)
    return dz.sum(axes), rounded(dz.sum(axes), sums, dtype)


def assert_within(name: str, got: torch.Tensor, want: torch.Tensor, tol: torch.Tensor) -> None:
    err = (got.double() - want).abs()
    assert got.shape == want.shape, name
    assert (err <= tol).all(), f"{name}: worst at {float((err / tol).max()):.3g} of tolerance"


# conv2: groups, stride 2 in D, dilation 2 in H, padding different per axis, an even kernel.
CONV1 = {"stride": (1, 1, 1), "pads6": (1,) * 6, "dilation": (1, 1, 1), "groups": 1}
CONV2 = {"stride": (2, 1, 1), "pads6": (1, 1, 2, 2, 0, 0), "dilation": (1, 2, 1), "groups": 2}
LR = 0.01


def _model() -> torch.nn.Sequential:
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Conv3d(4, 8, 3, padding=1),
        torch.nn.ReLU(),
        torch.nn.Conv3d(
            8, 6, (3, 3, 2), stride=(2, 1, 1), padding=(1, 2, 0), dilation=(1, 2, 1), groups=2
        ),
    ).half()


def test_one_sgd_step_of_a_small_cnn_matches_torch_float64() -> None:
    plain = _model()
    reference = copy.deepcopy(plain).double()  # the same f16-rounded weights, in float64
    model = replace_conv3d(copy.deepcopy(plain))
    assert [type(m) for m in model] == [ag.Conv3d, torch.nn.ReLU, ag.Conv3d]
    gen = torch.Generator().manual_seed(1)
    x = torch.randn((2, 4, 5, 6, 7), generator=gen).half()
    t = torch.randn((2, 6, 3, 6, 6), generator=gen).half()

    def step(net: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
        opt = torch.optim.SGD(net.parameters(), lr=LR)
        loss = (net(x).double() * t.double()).sum()  # in float64 on both sides
        loss.backward()
        opt.step()
        return loss.detach()

    loss = step(model, x)
    want_loss = step(reference, x.double())

    # The bound, layer by layer, forward then backward.
    f16 = torch.float16
    w1, b1, w2, b2 = (p.detach().double() for p in plain.parameters())
    xd, zero_x = x.double(), torch.zeros(x.shape, dtype=torch.float64)
    l1 = layer_bounds(xd, zero_x, w1, torch.zeros((2, 8, 5, 6, 7)), 0.0, CONV1, f16)
    z1 = l1["y"] + b1.view(1, -1, 1, 1, 1)
    # y + b is rounded once (the bias table); adding a second half ulp keeps the bound safe for
    # the float32 add of the bias before that rounding.
    ez1 = rounded(z1, l1["ey"], f16)
    a1, ea1 = z1.clamp(min=0), ez1  # relu is 1-Lipschitz
    td = t.double()
    l2 = layer_bounds(a1, ea1, w2, td, 0.0, CONV2, f16)  # dz2 = t exactly
    z2 = l2["y"] + b2.view(1, -1, 1, 1, 1)
    ez2 = rounded(z2, l2["ey"], f16)
    torch.testing.assert_close(want_loss, (z2 * td).sum(), rtol=1e-9, atol=1e-9)
    assert_within("loss", loss, want_loss, (ez2 * td.abs()).sum() + 1e-12)
    # A pre-activation within its error of zero may take either side of the relu: its gradient
    # is then da1 or 0, and the bound covers both.
    ambiguous = z1.abs() <= ez1
    dz1 = l2["dx"] * (z1 > 0)
    edz1 = torch.where(ambiguous, l2["dx"].abs() + l2["edx"], l2["edx"] * (z1 > 0))
    l1 = layer_bounds(xd, zero_x, w1, dz1, edz1, CONV1, f16)
    db1, edb1 = bias_grad_bounds(dz1, edz1, f16)
    db2, edb2 = bias_grad_bounds(td, torch.zeros_like(td), f16)

    rel, _ = REL[f16]
    for name, p, ref, g, eg in (
        ("conv1.weight", model[0].weight, reference[0].weight, l1["dw"], l1["edw"]),
        ("conv1.bias", model[0].bias, reference[0].bias, db1, edb1),
        ("conv2.weight", model[2].weight, reference[2].weight, l2["dw"], l2["edw"]),
        ("conv2.bias", model[2].bias, reference[2].bias, db2, edb2),
    ):
        assert p.dtype == f16 and p.grad.dtype == f16
        torch.testing.assert_close(ref.grad, g, rtol=1e-9, atol=1e-9)  # the bound's own dW
        assert_within(name + ".grad", p.grad, g, eg)
        # SGD on an f16 parameter: w − lr·g, lr·g possibly rounded, the sum rounded.
        step_err = LR * eg + rel * LR * (g.abs() + eg)
        assert_within(name, p.detach(), ref.detach(), rounded(ref.detach(), step_err, f16))
    assert x.grad is None


CASES = [
    # Conv3d arguments, input shape, dtype
    (dict(in_channels=16, out_channels=16, kernel_size=3, padding=1), (1, 16, 3, 5, 5), "float16"),
    (
        dict(
            in_channels=6,
            out_channels=9,
            kernel_size=(2, 3, 3),
            stride=(2, 1, 1),
            padding="valid",
            dilation=(1, 1, 2),
            groups=3,
        ),
        (2, 6, 5, 6, 7),
        "bfloat16",
    ),
    # 'same' with an even kernel: the odd pad goes after, as torch pads it.
    (
        dict(
            in_channels=4,
            out_channels=4,
            kernel_size=(2, 3, 4),
            padding="same",
            groups=4,
            bias=False,
        ),
        (1, 4, 4, 5, 6),
        "float16",
    ),
]


def _pads6(module: torch.nn.Conv3d) -> tuple[int, ...]:
    """torch's own pads of a module (F.pad order reversed back to front, back, up, ...)."""
    if isinstance(module.padding, str):
        r = module._reversed_padding_repeated_twice
        return (r[4], r[5], r[2], r[3], r[0], r[1])
    return tuple(p for p in module.padding for _ in range(2))


@pytest.mark.parametrize(("args", "shape", "dtype"), CASES)
def test_each_gradient_against_torch_float64(args: dict, shape: tuple, dtype: str) -> None:
    """y, dX, dW and the bias gradient of one drop-in layer, each against torch in float64."""
    kind = getattr(torch, dtype)
    torch.manual_seed(2)
    m = ag.Conv3d(**args, dtype=kind)
    gen = torch.Generator().manual_seed(3)
    x = torch.randn(shape, generator=gen).to(kind).requires_grad_()
    y = m(x)
    dy = torch.randn(y.shape, generator=gen).to(kind)
    y.backward(dy)
    conv = {"stride": m.stride, "pads6": _pads6(m), "dilation": m.dilation, "groups": m.groups}
    zero = torch.zeros(shape, dtype=torch.float64)
    b = layer_bounds(x.double(), zero, m.weight.double(), dy.double(), 0.0, conv, kind)
    want_y, ey = b["y"], b["ey"]
    if m.bias is not None:
        want_y = want_y + m.bias.detach().double().view(1, -1, 1, 1, 1)
        ey = rounded(want_y, ey, kind)
        db, edb = bias_grad_bounds(dy.double(), torch.zeros(dy.shape, dtype=torch.float64), kind)
        assert_within("bias.grad", m.bias.grad, db, edb)
    assert y.dtype == x.grad.dtype == m.weight.grad.dtype == kind
    assert_within("y", y.detach(), want_y, ey)
    assert_within("dX", x.grad, b["dx"], b["edx"])
    assert_within("dW", m.weight.grad, b["dw"], b["edw"])
    # torch.nn.grad's own statement of the two gradients (symmetric padding only).
    if not isinstance(m.padding, str):
        xd, dyd, wd = x.detach().double(), dy.double(), m.weight.detach().double()
        extra = (m.stride, m.padding, m.dilation, m.groups)
        torch.testing.assert_close(torch.nn.grad.conv3d_input(shape, wd, dyd, *extra), b["dx"])
        torch.testing.assert_close(torch.nn.grad.conv3d_weight(xd, wd.shape, dyd, *extra), b["dw"])


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of the simulator's dX and dW launches made by the drop-in."""
    counts = {"dx": 0, "dw": 0}

    def counted(name: str, function):
        def wrapper(*args, **kwargs):
            counts[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(ag, "conv3d_input", counted("dx", ag.conv3d_input))
    monkeypatch.setattr(ag, "conv3d_weight", counted("dw", ag.conv3d_weight))
    return counts


@pytest.mark.parametrize(("x_grad", "w_grad"), [(False, True), (True, False), (True, True)])
def test_needs_input_grad_skips_the_launches_not_needed(calls, x_grad: bool, w_grad: bool):
    torch.manual_seed(4)
    m = ag.Conv3d(16, 16, 3, padding=1, dtype=torch.float16)
    m.weight.requires_grad_(w_grad)
    x = torch.randn((1, 16, 2, 4, 4)).half().requires_grad_(x_grad)
    m(x).float().sum().backward()
    assert calls == {"dx": int(x_grad), "dw": int(w_grad)}
    assert (x.grad is not None) == x_grad and (m.weight.grad is not None) == w_grad
    assert m.bias.grad is not None and m.bias.grad.dtype == torch.float16


def test_the_state_dict_is_nn_conv3ds() -> None:
    plain = torch.nn.Conv3d(4, 8, (1, 3, 3), stride=(2, 1, 1), padding=(0, 1, 1), groups=2)
    plain = plain.half()
    drop = ag.Conv3d(4, 8, (1, 3, 3), stride=(2, 1, 1), padding=(0, 1, 1), groups=2,
                     dtype=torch.float16)  # fmt: skip
    drop.load_state_dict(plain.state_dict())
    assert drop.state_dict().keys() == plain.state_dict().keys()
    back = torch.nn.Conv3d(4, 8, (1, 3, 3), groups=2).half()
    back.load_state_dict(drop.state_dict())
    for key, value in plain.state_dict().items():
        assert torch.equal(back.state_dict()[key], value) and value.dtype == torch.float16
    # from_torch shares the parameters (an optimiser built before the swap still works).
    swapped = ag.Conv3d.from_torch(plain)
    assert swapped.weight is plain.weight and swapped.bias is plain.bias
    assert (swapped.stride, swapped.padding, swapped.groups) == ((2, 1, 1), (0, 1, 1), 2)
    nested = torch.nn.Sequential(torch.nn.Sequential(plain), torch.nn.ReLU())
    assert type(replace_conv3d(nested)[0][0]) is ag.Conv3d
    assert type(replace_conv3d(plain)) is ag.Conv3d


def test_float32_is_refused_in_one_line_or_cast() -> None:
    m = ag.Conv3d(16, 16, 3, padding=1)  # nn.Conv3d's default type: float32
    x = torch.randn((1, 16, 2, 4, 4))
    with pytest.raises(TypeError, match=r"module is float32.*\.half\(\) or \.bfloat16\(\)"):
        m(x)
    with pytest.raises(TypeError, match=r"input is a torch.float32 tensor.*input.half\(\)"):
        m.half()(x)
    cast = ag.Conv3d(16, 16, 3, padding=1, cast="f16")
    cast.load_state_dict(m.float().state_dict())
    xr = x.clone().requires_grad_()
    cast(xr).sum().backward()
    assert xr.grad.dtype == cast.weight.grad.dtype == torch.float32
    # What ran is the f16 kernel: the rounded inputs' exact dW, within the f16 data's bound.
    want = torch.nn.grad.conv3d_weight(
        x.half().double(), cast.weight.shape, torch.ones((1, 16, 2, 4, 4), dtype=torch.float64),
        padding=1,
    )  # fmt: skip
    torch.testing.assert_close(cast.weight.grad.double(), want, rtol=1e-5, atol=1e-4)


def test_unsupported_settings_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"padding_mode='reflect' is not supported"):
        ag.Conv3d(4, 4, 3, padding=1, padding_mode="reflect")
    # A problem the simulator refuses: the drop-in raises what the functional API raises.
    x, w = torch.randn((1, 4, 2, 2, 2)).half(), torch.randn((4, 4, 3, 3, 3)).half()
    with pytest.raises(ValueError) as functional:
        conv3d(x, w)
    with pytest.raises(ValueError) as dropped:
        conv3d_autograd(x, w)
    assert str(dropped.value) == str(functional.value) and "\n" not in str(dropped.value)


def test_a_strided_backward_gives_dx_or_the_simulators_refusal() -> None:
    """Strides in H and W: the backward gives torch's dX where conv3d_input runs them, and its
    one-line refusal where it does not (the hardware dX may not zero A1 yet)."""
    torch.manual_seed(5)
    m = ag.Conv3d(16, 16, 3, stride=(1, 2, 2), padding=1, bias=False, dtype=torch.float16)
    x = torch.randn((1, 16, 2, 5, 5)).half().requires_grad_()
    y = m(x)
    dy = torch.ones(y.shape, dtype=torch.float16)
    try:
        direct = conv3d_input(tuple(x.shape), m.weight.detach(), dy, m.stride, 1)
    except (ValueError, NotImplementedError) as e:
        with pytest.raises(type(e)) as refused:
            y.backward(dy)
        assert str(refused.value) == str(e) and "\n" not in str(e)
    else:
        y.backward(dy)
        assert torch.equal(x.grad, direct)
        conv = {"stride": m.stride, "pads6": (1,) * 6, "dilation": m.dilation, "groups": 1}
        zero = torch.zeros(x.shape, dtype=torch.float64)
        b = layer_bounds(x.double(), zero, m.weight.double(), dy.double(), 0.0, conv, x.dtype)
        assert_within("dX", x.grad, b["dx"], b["edx"])
        assert_within("dW", m.weight.grad, b["dw"], b["edw"])


def test_importing_the_runtime_does_not_import_torch() -> None:
    """torch is optional: the drop-in's names load it on first use only."""
    code = (
        "import sys, ascend_xdsl.runtime as r; assert 'torch' not in sys.modules; "
        "r.Conv3d; assert 'torch' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
