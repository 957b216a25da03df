"""The training-step drop-in: ``Conv3dFunction`` (a ``torch.autograd.Function``) and ``Conv3d``
(an ``nn.Conv3d`` whose forward runs it), so that a 3-D CNN trains with all three kernels of a
conv layer on the simulator: the forward (``runtime/forward.conv3d``), dX
(``runtime/input_grad.conv3d_input``) and dW (``runtime/api.conv3d_weight``).

This is the one module of the runtime that imports torch (at import time: its classes derive from
torch's). torch is an optional dependency (the ``test`` extra), so ``ascend_xdsl.runtime`` exports
these names lazily (its ``__getattr__``) and importing the runtime never imports torch.

The split between the simulator and torch:

* on the simulator: y = conv(x, w) + bias (float32 accumulation started from the bias table,
  rounded once to the input type by the fixpipe), dX (likewise rounded to dy's type) and dW
  (float32, rounded to the weight's type for ``weight.grad``, as torch's own half-precision conv
  gives a half-precision gradient);
* in torch: the bias gradient, ``dy`` summed over N, D, H and W in float32 and rounded to the
  bias's type (a reduction, which the vendor's path runs as a Vector kernel; the simulator models
  the Cube's three kernels only).

``ctx.needs_input_grad`` decides which of dX, dW and the bias gradient run: the first layer of a
network (whose input needs no gradient) makes no dX launch, a frozen weight no dW launch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import torch
    from torch import nn
    from torch.autograd.function import once_differentiable
except ImportError as e:  # pragma: no cover - torch is in the test extra
    raise ImportError(
        "ascend_xdsl.runtime.autograd needs torch (pip install 'ascend-xdsl[test]', or torch "
        f"itself): {e}"
    ) from None

from ascend_xdsl.hw import DEFAULT_HW
from ascend_xdsl.runtime.api import conv3d_weight
from ascend_xdsl.runtime.forward import conv3d
from ascend_xdsl.runtime.input_grad import conv3d_input

__all__ = ["Conv3d", "Conv3dFunction", "conv3d_autograd", "replace_conv3d"]

_KERNEL_TYPES = (torch.float16, torch.bfloat16)


class Conv3dFunction(torch.autograd.Function):
    """y = conv3d(x, w) + bias with the forward, dX and dW on the simulator (the module
    docstring says what runs in torch). ``apply(input, weight, bias, stride, padding,
    dilation, groups, hw, executor, cast)``: ``padding`` an int, 3 or 6 values (front, back,
    up, down, left, right); the rest as :func:`~ascend_xdsl.runtime.forward.conv3d`. Not twice
    differentiable."""

    @staticmethod
    def forward(  # type: ignore[override]
        ctx: Any,
        input: torch.Tensor,
        weight: torch.Tensor,
        bias: torch.Tensor | None,
        stride: Sequence[int],
        padding: Sequence[int],
        dilation: Sequence[int],
        groups: int,
        hw: str,
        executor: str,
        cast: str | None,
    ) -> torch.Tensor:
        if bias is not None:
            bias = bias.to(input.dtype)  # the bias table takes the input's type (cast or not)
        y = conv3d(
            input, weight, bias, stride, padding, dilation, groups,
            hw=hw, executor=executor, cast=cast,
        )  # fmt: skip
        ctx.save_for_backward(input, weight)
        ctx.conv = (stride, padding, dilation, groups)
        ctx.run = {"hw": hw, "executor": executor, "cast": cast}
        ctx.bias_dtype = None if bias is None else bias.dtype
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx: Any, grad_output: torch.Tensor) -> tuple[Any, ...]:
        input, weight = ctx.saved_tensors
        stride, padding, dilation, groups = ctx.conv
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        dx = dw = db = None
        if need_x:
            dx = conv3d_input(
                tuple(input.shape), weight, grad_output, stride, padding, dilation, groups,
                **ctx.run,
            ).to(input.dtype)  # fmt: skip
        if need_w:
            dw = conv3d_weight(
                input, tuple(weight.shape), grad_output, stride, padding, dilation, groups,
                hw=ctx.run["hw"], executor=ctx.run["executor"], cast=ctx.run["cast"],
            ).to(weight.dtype)  # fmt: skip
        if need_b and ctx.bias_dtype is not None:
            # In torch (module docstring): Σ dy over N, D, H, W in float32.
            db = grad_output.float().sum(dim=(0, 2, 3, 4)).to(ctx.bias_dtype)
        return dx, dw, db, None, None, None, None, None, None, None


def _triple(name: str, value: Any) -> tuple[int, int, int]:
    values = (value,) * 3 if isinstance(value, int) else tuple(value)
    if len(values) != 3:
        raise ValueError(f"Conv3d: {name} must be an int or 3 values, got {value!r}")
    return values  # type: ignore[return-value]


def conv3d_autograd(
    input: torch.Tensor,
    weight: torch.Tensor,
    bias: torch.Tensor | None = None,
    stride: int | Sequence[int] = 1,
    padding: int | Sequence[int] = 0,
    dilation: int | Sequence[int] = 1,
    groups: int = 1,
    *,
    hw: str = DEFAULT_HW,
    executor: str = "compiled",
    cast: str | None = None,
) -> torch.Tensor:
    """``torch.nn.functional.conv3d`` with its forward, dX and dW on the simulator
    (:class:`Conv3dFunction`); differentiable once in ``input``, ``weight`` and ``bias``.
    ``padding`` is an int, 3 or 6 values (front, back, up, down, left, right)."""
    return Conv3dFunction.apply(
        input, weight, bias, stride, padding, dilation, groups, hw, executor, cast
    )


class Conv3d(nn.Conv3d):
    """``nn.Conv3d`` whose forward, dX and dW run on the simulator (:class:`Conv3dFunction`).

    The constructor is ``nn.Conv3d``'s (in/out channels, kernel_size, stride, padding, dilation,
    groups, bias, padding_mode, device, dtype), plus the simulator's ``hw``, ``executor`` and
    ``cast``; the parameters, their names and the ``state_dict`` are ``nn.Conv3d``'s, so one
    loads into the other. ``padding`` may be ints, 'valid' or 'same' (any stride 1 layer; an
    odd total pad goes after, as torch pads it); ``padding_mode`` other than 'zeros' is refused.
    The kernel takes float16 or bfloat16: a module of another type (nn.Conv3d's default,
    float32) is refused in one line unless ``cast`` ('f16' or 'bf16') asks to round its input
    and weight for each kernel (the results are then in the module's type). The bias goes
    through the bias table; its gradient runs in torch (module docstring).
    """

    def __init__(
        self,
        *args: Any,
        hw: str = DEFAULT_HW,
        executor: str = "compiled",
        cast: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if self.padding_mode != "zeros":
            raise ValueError(
                f"Conv3d: padding_mode={self.padding_mode!r} is not supported on the simulator "
                "(only 'zeros')"
            )
        self.hw, self.executor, self.cast = hw, executor, cast

    @classmethod
    def from_torch(
        cls,
        conv: nn.Conv3d,
        *,
        hw: str = DEFAULT_HW,
        executor: str = "compiled",
        cast: str | None = None,
    ) -> Conv3d:
        """The drop-in for ``conv``, sharing its parameters (an optimiser built on the model
        before the swap still updates them)."""
        new = cls(
            conv.in_channels,
            conv.out_channels,
            conv.kernel_size,
            stride=conv.stride,
            padding=conv.padding,
            dilation=conv.dilation,
            groups=conv.groups,
            bias=conv.bias is not None,
            padding_mode=conv.padding_mode,
            device="meta",  # no allocation or initialisation: the parameters are conv's
            dtype=conv.weight.dtype,
            hw=hw,
            executor=executor,
            cast=cast,
        )
        new.weight = conv.weight
        new.bias = conv.bias
        new.train(conv.training)
        return new

    def _pads(self) -> tuple[int, ...]:
        """Six pads (front, back, up, down, left, right) of this module's ``padding``."""
        if self.padding == "valid":
            return (0,) * 6
        if self.padding == "same":
            # torch's rule: a total of dilation·(k − 1), the odd one after.
            pads: list[int] = []
            for d, k in zip(self.dilation, self.kernel_size, strict=True):
                total = d * (k - 1)
                pads += [total // 2, total - total // 2]
            return tuple(pads)
        pad3 = _triple("padding", self.padding)
        return tuple(p for p in pad3 for _ in range(2))

    def forward(self, input: torch.Tensor) -> torch.Tensor:
        if self.cast is None and self.weight.dtype not in _KERNEL_TYPES:
            kind = str(self.weight.dtype).removeprefix("torch.")
            raise TypeError(
                f"Conv3d: the module is {kind}: the kernel takes float16 or bfloat16; call "
                ".half() or .bfloat16() on it (and its input), or give cast='f16' or "
                "cast='bf16' to round them for each kernel"
            )
        return conv3d_autograd(
            input, self.weight, self.bias, self.stride, self._pads(), self.dilation,
            self.groups, hw=self.hw, executor=self.executor, cast=self.cast,
        )  # fmt: skip

    def extra_repr(self) -> str:
        return f"{super().extra_repr()}, hw={self.hw!r}"


def replace_conv3d(
    model: nn.Module,
    *,
    hw: str = DEFAULT_HW,
    executor: str = "compiled",
    cast: str | None = None,
) -> nn.Module:
    """Swap every ``nn.Conv3d`` of ``model`` (at any depth; ``model`` itself too) for the
    drop-in :meth:`Conv3d.from_torch`, sharing the parameters; returns the model (a new
    object only when ``model`` is itself an ``nn.Conv3d``)."""
    if isinstance(model, nn.Conv3d) and not isinstance(model, Conv3d):
        return Conv3d.from_torch(model, hw=hw, executor=executor, cast=cast)
    for name, child in model.named_children():
        swapped = replace_conv3d(child, hw=hw, executor=executor, cast=cast)
        if swapped is not child:
            setattr(model, name, swapped)
    return model
