// The programs in examples/ parse, verify and print with ascend-opt and with plain xdsl-opt.
//
// RUN: ascend-opt %S/../../examples/op_level.mlir | filecheck %s --check-prefix=OP
// RUN: xdsl-opt %S/../../examples/op_level.mlir | filecheck %s --check-prefix=OP
// RUN: ascend-opt %S/../../examples/format_level.mlir | filecheck %s --check-prefix=FMT
// RUN: xdsl-opt %S/../../examples/format_level.mlir | filecheck %s --check-prefix=FMT
// RUN: ascend-opt %S/../../examples/api_level.mlir | filecheck %s --check-prefix=API
// RUN: xdsl-opt %S/../../examples/api_level.mlir | filecheck %s --check-prefix=API
// (api_level.mlir carries a #ascend.dw_tiling, whose verifier needs DwTiling.errors.)

// OP-LABEL: func.func @conv3d_dw(%x: memref<2x64x8x28x28xf16>, %dy: memref<2x64x8x28x28xf16>) -> memref<64x64x3x3x3xf32> {
// OP-NEXT:    %dw = ascend.conv3d_backprop_filter %x, %dy strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : memref<2x64x8x28x28xf16>, memref<2x64x8x28x28xf16> -> memref<64x64x3x3x3xf32>
// OP-NEXT:    func.return %dw : memref<64x64x3x3x3xf32>

// FMT-LABEL: func.func @conv3d_dw
// FMT-NEXT:    %x5 = ascend.trans_data %x : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// FMT-NEXT:    %dy5 = ascend.trans_data %dy : memref<2x64x8x28x28xf16> -> !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>
// FMT-NEXT:    %dwf = ascend.conv3d_backprop_filter %x5, %dy5 strides [1, 1, 1] pads [1, 1, 1, 1, 1, 1] dilations [1, 1, 1] groups 1 : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16> -> !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// FMT-NEXT:    %dw = ascend.trans_data %dwf : !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32> -> memref<64x64x3x3x3xf32>

// API-LABEL: func.func @conv3d_dw_kernel
// API:         %obj = ascend.create : [[OBJ:!ascend.conv3d_bp_filter<#ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, ND, i32>, #ascend.conv_type<GM, NDC1HWC0, f16>, #ascend.conv_type<GM, FRACTAL_Z_3D, f32>>]]
// API-NEXT:    ascend.init %obj tiling #ascend.dw_tiling<batch = 2, cin = 64, {{.*}}, base_m = 64, base_k = 128, base_n = 128, {{.*}}, single_core_batch = 16, single_core_cin = 64, batch_dim = 1, {{.*}}> : [[OBJ]]
// API:         ascend.set_single_shape %obj, %m, %n, %k : [[OBJ]]
// API:         scf.while () : () -> () {
// API-NEXT:      %more = ascend.iterate %obj : [[OBJ]]
// API-NEXT:      scf.condition(%more)
// API-NEXT:    } do {
// API-NEXT:      ascend.get_tensor_c %obj, %dw[%c0] atomic : [[OBJ]], !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
// API:         ascend.end %obj : [[OBJ]]
// API-LABEL: func.func @main
// API:         ascend.launch @conv3d_dw_kernel blocks 1 (%x, %dy, %dw) : !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<NDC1HWC0, 2x64x8x28x28xf16>, !ascend.gm_tensor<FRACTAL_Z_3D, 64x64x3x3x3xf32>
