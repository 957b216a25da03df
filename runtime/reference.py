"""Plain numpy references of Conv3DBackpropFilter (dW), of the forward Conv3D and of
Conv3DBackpropInput (dX).

For each group (the formula of hicann/ops-nn ``conv/conv3d_backprop_filter_v2/README.md``, with
the padding and dilation the kernel applies)::

    dW[co, ci, kd, kh, kw] = Σ_n Σ_do Σ_ho Σ_wo dY[n, co, do, ho, wo]
                             · X[n, ci, do·sD − pF + kd·dD, ho·sH − pU + kh·dH, wo·sW − pL + kw·dW]

with out-of-range X counted as 0. This is the ``--check`` reference of the runtime and the
oracle of the tests, so it deliberately shares nothing with the lowering, the tiler or the
formats: logical NCDHW arrays in, a logical (Cout, Cin/g, kD, kH, kW) float32 array out.
The forward convolution (``conv3d_reference``) follows the same rules and shares nothing either;
so does dX (``conv3d_input_reference``), written as the scatter it is rather than as a
convolution of a dilated dy, so that it checks the lowering's transposed-convolution view
instead of repeating it.
Inputs (float16 or ml_dtypes.bfloat16) are widened to float32 first and every product is
accumulated in float32, matching the fp32 L0C of the cube unit.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from threadpoolctl import threadpool_limits

Triple = tuple[int, int, int]
Pads6 = tuple[int, int, int, int, int, int]


def _check_shapes(
    x: np.ndarray,
    dy: np.ndarray,
    weight_shape: tuple[int, int, int, int, int],
    stride: Triple,
    padding6: Pads6,
    dilation: Triple,
    groups: int,
) -> None:
    if x.ndim != 5 or dy.ndim != 5:
        raise ValueError(f"x and dy must be NCDHW, got shapes {x.shape} and {dy.shape}")
    n, cin = x.shape[:2]
    cout, cin_g = weight_shape[:2]
    if dy.shape[0] != n or dy.shape[1] != cout:
        raise ValueError(f"dy shape {dy.shape} does not match x {x.shape} / weight {weight_shape}")
    if groups < 1 or cin % groups or cout % groups or cin // groups != cin_g:
        raise ValueError(f"groups={groups} does not fit Cin={cin}, Cout={cout}, Cin/g={cin_g}")
    # Written out here rather than imported so the reference stays self-contained.
    for axis in range(3):
        size, k = x.shape[2 + axis], weight_shape[2 + axis]
        lo, hi = padding6[2 * axis], padding6[2 * axis + 1]
        expect = (size + lo + hi - dilation[axis] * (k - 1) - 1) // stride[axis] + 1
        if dy.shape[2 + axis] != expect:
            raise ValueError(
                f"dy spatial axis {axis} is {dy.shape[2 + axis]}, the convolution gives {expect}"
            )


def _grouped_padded(
    x: np.ndarray, groups: int, padding6: Pads6, accumulate: type[np.floating]
) -> np.ndarray:
    """x as (group, Cin/g, N, D, H, W) in ``accumulate``, zero-padded: a kernel tap's window
    is then one strided view (:func:`_tap_window`)."""
    n, cin = x.shape[:2]
    pf, pb, pu, pd, pl, pr = padding6
    xg = x.reshape(n, groups, cin // groups, *x.shape[2:]).transpose(1, 2, 0, 3, 4, 5)
    return np.pad(xg.astype(accumulate), ((0, 0),) * 3 + ((pf, pb), (pu, pd), (pl, pr)))


def _tap_window(
    xp: np.ndarray, tap: tuple[int, int, int], outs: Triple, stride: Triple, dilation: Triple
) -> np.ndarray:
    """The input positions kernel tap ``tap`` reads for every output position:
    (group, Cin/g, N·Do·Ho·Wo) of the padded grouped x."""
    (a, b, c), (do, ho, wo) = tap, outs
    (sd, sh, sw), (dd, dh, dw) = stride, dilation
    win = xp[
        ...,
        a * dd : a * dd + sd * (do - 1) + 1 : sd,
        b * dh : b * dh + sh * (ho - 1) + 1 : sh,
        c * dw : c * dw + sw * (wo - 1) + 1 : sw,
    ]
    return win.reshape(xp.shape[0], xp.shape[1], -1)


def conv3d_weight_reference(
    x: np.ndarray,
    dy: np.ndarray,
    weight_shape: tuple[int, int, int, int, int],
    stride: Triple = (1, 1, 1),
    padding6: Pads6 = (0, 0, 0, 0, 0, 0),
    dilation: Triple = (1, 1, 1),
    groups: int = 1,
    accumulate: type[np.floating] = np.float32,
    on_tap: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """dW (Cout, Cin/g, kD, kH, kW) from x (N, Cin, D, H, W) and dy (N, Cout, Do, Ho, Wo).
    ``padding6`` is (front, back, up, down, left, right). ``accumulate`` is the type the products
    are summed in and returned as (float32 as in L0C; float64 gives the exact value to check
    against). ``on_tap(done, total)`` is called after each kernel tap (a progress line).

    Vectorised: one GEMM per kernel tap, (Cout/g, N·Do·Ho·Wo) × (N·Do·Ho·Wo, Cin/g) per group,
    so numpy's BLAS does the sums (an einsum over the same axes runs in numpy's own loops, about
    20 times slower on a 2x64x16x56x56 layer, docs/performance.md)."""
    _check_shapes(x, dy, weight_shape, stride, padding6, dilation, groups)
    cout, cin_g, kd, kh, kw = weight_shape
    n = x.shape[0]
    do, ho, wo = dy.shape[2:]
    xp = _grouped_padded(x, groups, padding6, accumulate)
    # dy as (group, N·Do·Ho·Wo, Cout/g): the right operand of every tap's GEMM.
    positions = n * do * ho * wo
    dyg = dy.astype(accumulate).reshape(n, groups, cout // groups, do * ho * wo)
    dyg = np.ascontiguousarray(dyg.transpose(1, 0, 3, 2)).reshape(groups, positions, -1)
    out = np.zeros((groups, cout // groups, cin_g, kd, kh, kw), dtype=accumulate)
    taps = kd * kh * kw
    # One BLAS thread: these GEMMs are long and thin (Cout/g x Cin/g outputs, N·Do·Ho·Wo terms),
    # and a second thread made them 5 to 20 times slower on a shared 2-core machine
    # (docs/performance.md), as in the runner (runtime/runner.py).
    # An Inf times a padding zero is NaN, as torch has it: no warning for IEEE arithmetic.
    with threadpool_limits(limits=1, user_api="blas"), np.errstate(invalid="ignore"):
        for tap in range(taps):
            a, b, c = np.unravel_index(tap, (kd, kh, kw))
            win = _tap_window(xp, (a, b, c), (do, ho, wo), stride, dilation)
            # (g, Cin/g, P) @ (g, P, Cout/g) -> (g, Cin/g, Cout/g): dW[co, ci] summed over P.
            out[..., a, b, c] = np.matmul(win, dyg).transpose(0, 2, 1)
            if on_tap is not None:
                on_tap(tap + 1, taps)
    return out.reshape(weight_shape)


def conv3d_weight_reference_direct(
    x: np.ndarray,
    dy: np.ndarray,
    weight_shape: tuple[int, int, int, int, int],
    stride: Triple = (1, 1, 1),
    padding6: Pads6 = (0, 0, 0, 0, 0, 0),
    dilation: Triple = (1, 1, 1),
    groups: int = 1,
) -> np.ndarray:
    """The same dW as :func:`conv3d_weight_reference`, as a literal loop nest over every output
    element and every term of its sum. Very slow: for tiny shapes in tests only.

    It reads the unpadded x and skips out-of-range positions, so it checks the padding logic of
    the fast version instead of repeating it."""
    _check_shapes(x, dy, weight_shape, stride, padding6, dilation, groups)
    cout, cin_g, kd, kh, kw = weight_shape
    n_batch, _, di, hi, wi = x.shape
    do_, ho_, wo_ = dy.shape[2:]
    cout_g = cout // groups
    pf, _, pu, _, pl, _ = padding6
    xf = x.astype(np.float32)
    dyf = dy.astype(np.float32)
    out = np.zeros(weight_shape, dtype=np.float32)
    for co in range(cout):
        g = co // cout_g
        for ci in range(cin_g):
            c_in = g * cin_g + ci
            for a in range(kd):
                for b in range(kh):
                    for c in range(kw):
                        acc = np.float32(0.0)
                        for n in range(n_batch):
                            for od in range(do_):
                                zd = od * stride[0] - pf + a * dilation[0]
                                if not 0 <= zd < di:
                                    continue
                                for oh in range(ho_):
                                    zh = oh * stride[1] - pu + b * dilation[1]
                                    if not 0 <= zh < hi:
                                        continue
                                    for ow in range(wo_):
                                        zw = ow * stride[2] - pl + c * dilation[2]
                                        if not 0 <= zw < wi:
                                            continue
                                        acc += dyf[n, co, od, oh, ow] * xf[n, c_in, zd, zh, zw]
                        out[co, ci, a, b, c] = acc
    return out


def conv3d_reference(
    x: np.ndarray,
    weight: np.ndarray,
    bias: np.ndarray | None = None,
    stride: Triple = (1, 1, 1),
    padding6: Pads6 = (0, 0, 0, 0, 0, 0),
    dilation: Triple = (1, 1, 1),
    groups: int = 1,
    accumulate: type[np.floating] = np.float32,
) -> np.ndarray:
    """The forward convolution y (N, Cout, Do, Ho, Wo) of x (N, Cin, D, H, W) and a weight
    (Cout, Cin/g, kD, kH, kW), plus ``bias`` (Cout,) when given, per group, out-of-range x
    counting as zero (``torch.nn.functional.conv3d``). Products are summed in ``accumulate``
    (float32 as in L0C) and returned in it: the caller rounds to the output type.

    Vectorised like :func:`conv3d_weight_reference`: one GEMM per kernel tap,
    (Cout/g, Cin/g) × (Cin/g, N·Do·Ho·Wo) per group."""
    if x.ndim != 5 or weight.ndim != 5:
        raise ValueError(f"x and weight must be 5-D, got shapes {x.shape} and {weight.shape}")
    n, cin = x.shape[:2]
    cout, cin_g, kd, kh, kw = weight.shape
    if groups < 1 or cin % groups or cout % groups or cin // groups != cin_g:
        raise ValueError(f"groups={groups} does not fit Cin={cin}, Cout={cout}, Cin/g={cin_g}")
    if bias is not None and bias.shape != (cout,):
        raise ValueError(f"bias shape {bias.shape} must be ({cout},)")
    outs = []
    for axis in range(3):
        size, k = x.shape[2 + axis], weight.shape[2 + axis]
        lo, hi = padding6[2 * axis], padding6[2 * axis + 1]
        o = (size + lo + hi - dilation[axis] * (k - 1) - 1) // stride[axis] + 1
        if o <= 0:
            raise ValueError(f"spatial axis {axis}: the dilated kernel does not fit the input")
        outs.append(o)
    do, ho, wo = outs
    xp = _grouped_padded(x, groups, padding6, accumulate)
    wg = weight.astype(accumulate).reshape(groups, cout // groups, cin_g, kd, kh, kw)
    out = np.zeros((groups, cout // groups, n * do * ho * wo), dtype=accumulate)
    with threadpool_limits(limits=1, user_api="blas"), np.errstate(invalid="ignore"):
        for tap in range(kd * kh * kw):
            a, b, c = np.unravel_index(tap, (kd, kh, kw))
            win = _tap_window(xp, (a, b, c), (do, ho, wo), stride, dilation)
            # (g, Cout/g, Cin/g) @ (g, Cin/g, P): this tap's share of every output position.
            out += np.matmul(wg[..., a, b, c], win)
    y = out.reshape(cout, n, do, ho, wo).transpose(1, 0, 2, 3, 4)
    if bias is not None:
        y = y + bias.astype(accumulate).reshape(1, cout, 1, 1, 1)
    return np.ascontiguousarray(y)


def conv3d_input_reference(
    input_size: tuple[int, int, int, int, int],
    weight: np.ndarray,
    dy: np.ndarray,
    stride: Triple = (1, 1, 1),
    padding6: Pads6 = (0, 0, 0, 0, 0, 0),
    dilation: Triple = (1, 1, 1),
    groups: int = 1,
    accumulate: type[np.floating] = np.float32,
) -> np.ndarray:
    """dX (``input_size``: N, Cin, D, H, W) from a weight (Cout, Cin/g, kD, kH, kW) and dy
    (N, Cout, Do, Ho, Wo), ``torch.nn.grad.conv3d_input``: every dy element sends
    ``W[co, ci, tap] · dY[n, co, o]`` back to the input position the forward convolution read
    it from, ``o·s − p_lo + tap·dil``, per group; positions in the padding are dropped. Sums
    in ``accumulate`` and returns it (the caller rounds to the output type).

    Vectorised: one GEMM per kernel tap, (Cin/g, Cout/g) × (Cout/g, N·Do·Ho·Wo) per group,
    added into the tap's strided window of a zero-padded dX, which is cropped at the end."""
    if len(input_size) != 5 or weight.ndim != 5 or dy.ndim != 5:
        raise ValueError(
            f"input_size, weight and dy must be 5-D, got {tuple(input_size)}, {weight.shape} "
            f"and {dy.shape}"
        )
    n, cin, di, hi, wi = input_size
    cout, cin_g, kd, kh, kw = weight.shape
    if groups < 1 or cin % groups or cout % groups or cin // groups != cin_g:
        raise ValueError(f"groups={groups} does not fit Cin={cin}, Cout={cout}, Cin/g={cin_g}")
    do, ho, wo = dy.shape[2:]
    for axis, (size, k, o) in enumerate(zip((di, hi, wi), (kd, kh, kw), (do, ho, wo), strict=True)):
        lo, hi_pad = padding6[2 * axis], padding6[2 * axis + 1]
        expect = (size + lo + hi_pad - dilation[axis] * (k - 1) - 1) // stride[axis] + 1
        if o != expect:
            raise ValueError(f"dy spatial axis {axis} is {o}, input_size {size} gives {expect}")
    if dy.shape[:2] != (n, cout):
        raise ValueError(f"dy shape {dy.shape} does not match input_size / weight (N, Cout)")
    pf, pb, pu, pd, pl, pr = padding6
    (sd, sh, sw), (dd, dh, dw) = stride, dilation
    # (group, Cin/g, N, D+pads, H+pads, W+pads): the padded dX every tap scatters into.
    dxp = np.zeros((groups, cin_g, n, di + pf + pb, hi + pu + pd, wi + pl + pr), dtype=accumulate)
    wg = weight.astype(accumulate).reshape(groups, cout // groups, cin_g, kd, kh, kw)
    dyg = dy.astype(accumulate).reshape(n, groups, cout // groups, do * ho * wo)
    dyg = np.ascontiguousarray(dyg.transpose(1, 2, 0, 3)).reshape(groups, cout // groups, -1)
    with threadpool_limits(limits=1, user_api="blas"), np.errstate(invalid="ignore"):
        for tap in range(kd * kh * kw):
            a, b, c = np.unravel_index(tap, (kd, kh, kw))
            # (g, Cin/g, Cout/g) @ (g, Cout/g, P): what this tap sends back from each position.
            part = np.matmul(wg[..., a, b, c].transpose(0, 2, 1), dyg)
            dxp[
                ...,
                a * dd : a * dd + sd * (do - 1) + 1 : sd,
                b * dh : b * dh + sh * (ho - 1) + 1 : sh,
                c * dw : c * dw + sw * (wo - 1) + 1 : sw,
            ] += part.reshape(groups, cin_g, n, do, ho, wo)
    dx = dxp[..., pf : pf + di, pu : pu + hi, pl : pl + wi]
    return np.ascontiguousarray(dx.transpose(2, 0, 1, 3, 4, 5).reshape(n, cin, di, hi, wi))
