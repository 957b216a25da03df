"""lowering/build.py: the op-level module of one dW problem, and its argument checks."""

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, bf16, f16, f32

from ascend_xdsl.dialects.op_level import Conv3DBackpropFilterOp, shape_of_conv_op
from ascend_xdsl.lowering.build import (
    FUNC_NAME,
    ConvProblemError,
    build_conv3d_bp_filter,
    normalize_padding,
)


def _ops(module):
    (kernel,) = module.ops
    assert isinstance(kernel, func.FuncOp)
    return kernel, list(kernel.body.block.ops)


def test_default_layer():
    module = build_conv3d_bp_filter((2, 64, 8, 28, 28), (64, 64, 3, 3, 3), padding=1)
    module.verify()
    kernel, (conv, ret) = _ops(module)
    assert kernel.sym_name.data == FUNC_NAME
    assert isinstance(conv, Conv3DBackpropFilterOp) and isinstance(ret, func.ReturnOp)
    assert kernel.function_type.inputs.data == (
        MemRefType(f16, (2, 64, 8, 28, 28)),
        MemRefType(f16, (2, 64, 8, 28, 28)),
    )
    assert kernel.function_type.outputs.data == (MemRefType(f32, (64, 64, 3, 3, 3)),)
    assert conv.pads.get_values() == (1,) * 6
    assert ret.arguments[0] is conv.result


def test_grouped_bf16_with_tuples():
    module = build_conv3d_bp_filter(
        (1, 20, 4, 9, 9),
        (8, 10, 2, 3, 3),
        stride=(1, 2, 2),
        padding=(1, 0, 1, 1, 0, 2),
        dilation=(2, 1, 1),
        groups=2,
        dtype="bf16",
    )
    _, (conv, _) = _ops(module)
    p = shape_of_conv_op(conv)
    assert (p.strides, p.pads, p.dilations, p.groups, p.dtype) == (
        (1, 2, 2),
        (1, 0, 1, 1, 0, 2),
        (2, 1, 1),
        2,
        "bf16",
    )
    assert conv.dy.type == MemRefType(bf16, p.grad_output_shape)
    assert p.grad_output_shape == (1, 8, 3, 5, 5)


@pytest.mark.parametrize(
    ("padding", "expected"),
    [(2, (2,) * 6), ((1, 2, 3), (1, 1, 2, 2, 3, 3)), ((1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 6))],
)
def test_padding_conventions(padding, expected):
    assert normalize_padding(padding) == expected


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"input_shape": (2, 64, 8)}, "input shape must be 5 integers"),
        ({"weight_shape": (64, 64, 3, 3, 3.0)}, "weight shape must be 5 integers"),
        ({"input_shape": (2, 0, 8, 8, 8)}, "Cin must be positive"),
        ({"weight_shape": (64, 32, 3, 3, 3)}, "weight has Cin/groups = 32"),
        ({"groups": 3}, "must be divisible by groups"),
        ({"stride": (1, 64, 1)}, "stride H must be in [1, 63]"),
        ({"stride": (1, 2)}, "stride must be an integer or 3 integers"),
        ({"padding": (1, 2)}, "padding must be an integer, 3 integers"),
        ({"padding": -1}, "pad front must be in [0, 255]"),
        ({"dilation": 0}, "dilation D must be in [1, 255]"),
        ({"dtype": "f32"}, "dtype must be one of f16, bf16"),
        ({"input_shape": (1, 64, 2, 2, 2)}, "the dilated kernel does not fit"),
        ({"groups": True}, "groups must be an integer"),
    ],
)
def test_bad_arguments(kwargs, message):
    args = {"input_shape": (2, 64, 8, 8, 8), "weight_shape": (64, 64, 3, 3, 3), **kwargs}
    with pytest.raises(ConvProblemError) as info:
        build_conv3d_bp_filter(**args)
    assert isinstance(info.value, ValueError)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
