"""torch tensors in the public API (runtime/tensors.py): f16/bf16 tensors, contiguous or not, in;
a torch tensor out; float32 refused in one line or rounded on request (``cast=``).

The runtime never imports torch: it reads tensors through the few methods it needs (detach, cpu,
float, numpy, dtype, device, from_numpy). Most tests use ``FakeTorch``, a minimal stand-in with
just those methods, so the tests also show that nothing more of torch is used (and can fake a
device this machine has not got). The tests at the end run against torch itself (a test
dependency, see pyproject.toml): its tensors, its views and its ``torch.nn.grad.conv3d_weight``.
"""

from __future__ import annotations

import sys
import types

import ml_dtypes
import numpy as np
import pytest

from ascend_xdsl.runtime import conv3d_weight, run_conv3d_weight
from ascend_xdsl.runtime.reference import conv3d_weight_reference

X_SHAPE, W_SHAPE = (1, 16, 2, 4, 4), (16, 16, 3, 3, 3)


class FakeDtype:
    def __init__(self, name: str):
        self.name = name

    def __str__(self) -> str:
        return f"torch.{self.name}"


class FakeTensor:
    """A CPU tensor backed by a numpy array; numpy() refuses bfloat16 as torch does."""

    def __init__(self, array: np.ndarray, dtype: str, device: str = "cpu"):
        self.array, self.dtype, self.device = array, FakeDtype(dtype), device
        self.moved_to: str | None = None

    @property
    def shape(self) -> tuple[int, ...]:
        return self.array.shape

    def detach(self) -> FakeTensor:
        return self

    def cpu(self) -> FakeTensor:
        return FakeTensor(self.array, self.dtype.name)

    def float(self) -> FakeTensor:
        return FakeTensor(self.array.astype(np.float32), "float32")

    def numpy(self) -> np.ndarray:
        if self.dtype.name == "bfloat16":
            raise TypeError("Got unsupported ScalarType BFloat16")
        return self.array

    def to(self, device: str) -> FakeTensor:
        moved = FakeTensor(self.array, self.dtype.name, device)
        return moved

    def size(self) -> tuple[int, ...]:  # torch's size is a method: np.size must not be used
        return self.array.shape

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        return self.numpy() if dtype is None else self.numpy().astype(dtype)


@pytest.fixture
def fake_torch(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    module = types.ModuleType("torch")
    module.Tensor = FakeTensor  # type: ignore[attr-defined]
    module.from_numpy = lambda a: FakeTensor(a, str(a.dtype))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", module)
    return module


def _inputs(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    # small integers: every sum is exact, so the kernel must match the reference bit for bit
    x = rng.integers(-3, 4, X_SHAPE).astype(dtype)
    dy = rng.integers(-3, 4, (1, 16, 2, 4, 4)).astype(dtype)
    return x, dy


def _expected(x: np.ndarray, dy: np.ndarray) -> np.ndarray:
    return conv3d_weight_reference(x, dy, W_SHAPE, padding6=(1,) * 6)


@pytest.mark.parametrize(
    ("dtype", "name"), [(np.float16, "float16"), (ml_dtypes.bfloat16, "bfloat16")]
)
def test_tensors_in_a_tensor_out(fake_torch, dtype, name):
    x, dy = _inputs(dtype)
    got = conv3d_weight(FakeTensor(x, name), W_SHAPE, FakeTensor(dy, name), padding=1)
    assert isinstance(got, FakeTensor)
    np.testing.assert_array_equal(got.array, _expected(x, dy))


def test_a_non_contiguous_tensor_is_read_by_its_strides(fake_torch):
    x, dy = _inputs(np.float16)
    # a transposed view: the same values, other strides
    xt = np.ascontiguousarray(x.transpose(0, 1, 2, 4, 3)).transpose(0, 1, 2, 4, 3)
    assert not xt.flags.c_contiguous
    got = conv3d_weight(FakeTensor(xt, "float16"), W_SHAPE, FakeTensor(dy, "float16"), padding=1)
    np.testing.assert_array_equal(got.array, _expected(x, dy))


def test_the_result_goes_back_to_the_inputs_device(fake_torch):
    x, dy = _inputs(np.float16)
    result = run_conv3d_weight(
        FakeTensor(x, "float16", "cuda:0"), W_SHAPE, FakeTensor(dy, "float16"), padding=1
    )
    assert result.grad_weight.device == "cuda:0"


def test_float32_is_refused_in_one_line_naming_the_conversion(fake_torch):
    x, dy = _inputs(np.float32)
    with pytest.raises(TypeError) as e:
        conv3d_weight(FakeTensor(x, "float32"), W_SHAPE, FakeTensor(dy, "float32"), padding=1)
    message = str(e.value)
    assert "\n" not in message
    assert "input is a torch.float32 tensor" in message
    assert "input.half() or input.bfloat16()" in message and "cast='f16'" in message
    with pytest.raises(TypeError, match=r"astype\(numpy.float16\)"):
        conv3d_weight(x, W_SHAPE, dy, padding=1)


@pytest.mark.parametrize(("cast", "dtype"), [("f16", np.float16), ("bf16", ml_dtypes.bfloat16)])
def test_cast_rounds_float32_on_request(fake_torch, cast, dtype):
    x, dy = _inputs(np.float32)
    got = conv3d_weight(
        FakeTensor(x, "float32"), W_SHAPE, FakeTensor(dy, "float32"), padding=1, cast=cast
    )
    np.testing.assert_array_equal(got.array, _expected(x.astype(dtype), dy.astype(dtype)))
    result = run_conv3d_weight(x, W_SHAPE, dy, padding=1, cast=cast, cost=False)
    assert isinstance(result.grad_weight, np.ndarray)  # numpy in, numpy out
    assert result.problem.dtype == cast
    with pytest.raises(ValueError, match="cast must be one of 'f16', 'bf16'"):
        conv3d_weight(x, W_SHAPE, dy, padding=1, cast="f32")


def test_a_tensor_and_an_array_do_not_mix(fake_torch):
    x, dy = _inputs(np.float16)
    with pytest.raises(TypeError, match="both be torch tensors or both numpy arrays"):
        conv3d_weight(FakeTensor(x, "float16"), W_SHAPE, dy, padding=1)


def test_against_torch_itself():
    torch = pytest.importorskip("torch", reason="torch is in the test extra")
    rng = np.random.default_rng(5)
    x = torch.from_numpy(rng.standard_normal((1, 16, 3, 5, 5)).astype(np.float32))
    dy = torch.from_numpy(rng.standard_normal((1, 16, 3, 5, 5)).astype(np.float32))
    for kind in (torch.float16, torch.bfloat16):
        xk, dyk = x.to(kind), dy.to(kind).transpose(3, 4).contiguous().transpose(3, 4)
        got = conv3d_weight(xk, W_SHAPE, dyk, padding=1)
        # torch's own dW of the same rounded inputs; products are exact in float32
        want = torch.nn.grad.conv3d_weight(xk.float(), W_SHAPE, dyk.float(), padding=1)
        assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize(
    ("conv", "w_shape", "x_shape"),
    [
        ({"stride": 2, "padding": (1, 0, 2)}, (16, 16, 2, 3, 3), (1, 16, 4, 7, 6)),
        ({"groups": 2, "dilation": (1, 2, 1)}, (32, 16, 1, 2, 3), (2, 32, 2, 6, 5)),
    ],
)
def test_strides_padding_groups_and_dilation_as_torch_has_them(conv, w_shape, x_shape):
    torch = pytest.importorskip("torch", reason="torch is in the test extra")
    x = torch.randn(x_shape, generator=torch.Generator().manual_seed(7)).half()
    out_shape = torch.nn.functional.conv3d(
        x.float(), torch.zeros(w_shape), **conv
    ).shape  # torch's own output-size rule
    dy = torch.randn(out_shape, generator=torch.Generator().manual_seed(8)).half()
    got = conv3d_weight(x, w_shape, dy, **conv)
    want = torch.nn.grad.conv3d_weight(x.double(), w_shape, dy.double(), **conv)
    assert got.shape == want.shape
    torch.testing.assert_close(got.double(), want, rtol=1e-3, atol=1e-3)


def test_real_float32_tensors_are_refused_or_cast():
    torch = pytest.importorskip("torch", reason="torch is in the test extra")
    x = torch.randn(X_SHAPE, generator=torch.Generator().manual_seed(3))
    dy = torch.randn((1, 16, 2, 4, 4), generator=torch.Generator().manual_seed(4))
    with pytest.raises(TypeError, match=r"input is a torch.float32 tensor.*input.half\(\)"):
        conv3d_weight(x, W_SHAPE, dy, padding=1)
    got = conv3d_weight(x, W_SHAPE, dy, padding=1, cast="bf16")
    want = torch.nn.grad.conv3d_weight(
        x.bfloat16().double(), W_SHAPE, dy.bfloat16().double(), padding=1
    )
    assert isinstance(got, torch.Tensor)
    torch.testing.assert_close(got.double(), want, rtol=1e-4, atol=1e-4)


def test_the_non_finite_note_counts_a_tensors_values(fake_torch):
    from ascend_xdsl.runtime.reports.check import non_finite_note

    x, dy = _inputs(np.float16)
    x[0, 0, 0, 0, :2] = np.inf
    note = non_finite_note(FakeTensor(x, "float16"), FakeTensor(dy, "float16"))
    assert note is not None and note.startswith("x holds 2 Inf/NaN values")
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning, match="x holds 2 Inf/NaN"):
        conv3d_weight(FakeTensor(x, "float16"), W_SHAPE, FakeTensor(dy, "float16"), padding=1)
