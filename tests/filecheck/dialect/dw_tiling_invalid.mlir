// RUN: ascend-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// The rules of #ascend.dw_tiling (attributes.py) and of a tiling attached to
// ascend.conv3d_backprop_filter (op_level.py), one chunk each. Every chunk starts from the
// consistent default-layer tiling of dw_tiling.mlir and breaks one thing.
// The chunks marked [DwTiling.errors] check messages of DwTiling.errors (tiling branch); the
// other chunks verify a valid tiling, so they need DwTiling.errors to exist too.

// A field name the tiling does not have.
"test.op"() {tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, hf16_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>} : () -> ()
// CHECK: dw_tiling has no field 'hf16_flag'

// -----

// A field given twice.
"test.op"() {tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_k = 64, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>} : () -> ()
// CHECK: dw_tiling field 'base_k' given twice

// -----

// Required (non-defaulted) fields left out.
"test.op"() {tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>} : () -> ()
// CHECK: dw_tiling is missing field(s) m0, bl1_bound

// -----

// [DwTiling.errors] A field out of its domain: base_m is not a multiple of the 16-row fractal.
"test.op"() {tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 72, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>} : () -> ()
// CHECK: dw_tiling: base_m must be a multiple of 16, got 72

// -----

// [DwTiling.errors] The K steps of A1 and B1 must nest: neither is a multiple of the other.
"test.op"() {tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 2, step_kb = 3, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>} : () -> ()
// CHECK: dw_tiling: step_ka (2) and step_kb (3) must be multiples of one another

// -----

// [DwTiling.errors] A footprint over a buffer: baseN 256 × baseK 128 × 2 B, double-buffered, is 128 KiB in the 64 KiB L0B.
"test.op"() {tiling = #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 256, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0>} : () -> ()
// CHECK: dw_tiling: L0B overflow: base_n 256 x base_k 128 (16-aligned) x 2 B = 65536 B x2 = 131072 B, L0B has 65536 B

// -----

// The op's problem has batch 4, the tiling was made for batch 2.
%x, %dy = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 4x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 4x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0> : !ascend.gm_tensor<NDC1HWC0, 4x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 4x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK: Operation does not verify: tiling batch = 2 does not match the problem's 4

// -----

// Same output sizes, but the op pads D by (2, 0) and the tiling by (1, 1).
%x, %dy = "test.op"() : () -> (!ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>)
%dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [2, 0, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 tiling #ascend.dw_tiling<batch = 2, cin = 64, cout = 64, cin1_g = 4, cout1_g = 4, dout = 8, ho = 28, wo = 28, di = 8, hi = 28, wi = 28, dk = 3, hk = 3, wk = 3, group = 1, stride_d = 1, stride_h = 1, stride_w = 1, pad_front = 1, pad_back = 1, pad_up = 1, pad_down = 1, pad_left = 1, pad_right = 1, dilation_d = 1, dilation_h = 1, dilation_w = 1, channel_size = 16, al0_pbuffer = 2, bl0_pbuffer = 2, cl0_pbuffer = 2, al1_pbuffer = 2, bl1_pbuffer = 2, base_m = 64, base_k = 128, base_n = 128, m0 = 16, k0 = 16, n0 = 16, step_m = 1, step_n = 1, step_ka = 1, step_kb = 1, iterate_order = 0, bl1_bound = 7168, hf32_flag = 0, single_core_dk = 1, single_core_group = 1, single_core_cout = 64, single_core_ho = 28, single_core_batch = 2, single_core_cin = 64, batch_dim = 8, group_dim = 1, m_dim = 1, k_dim = 1, n_dim = 1, dk_dim = 3, single_core_m = 0, single_core_n = 0, single_core_k = 0> : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// CHECK: Operation does not verify: tiling pad_front = 1 does not match the problem's 2
