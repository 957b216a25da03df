// `ascend-conv bp-input --emit ascendc -o DIR` writes the API-level dX kernel as Ascend C on
// Conv3DBackpropInput: the calls in the docs' order, the D start from the block index, a
// negative H start (the top padding of the dilated dy), the isFirstIter_ reset after each
// single shape, and a host that fills TConv3DBackpropInputTiling field for field
// (docs/ascendc.md). This file only carries the CHECK lines.
// RUN: rm -rf %t && mkdir -p %t
// Stride 2 on two cores: each core two of the four dX depths (singleCoreDin 2), and the warning
// that asc-devkit's SetSingleShape computes one depth per single shape.
// RUN: ascend-conv bp-input --input 1,16,4,8,8 --weight 32,16,3,3,3 --padding 1 --stride 2 --cores 2 --emit ascendc -o %t/s2 2>/dev/null
// RUN: filecheck %s --check-prefix=KERNEL --input-file %t/s2/conv3d_input_kernel.asc
// RUN: filecheck %s --check-prefix=HOST --input-file %t/s2/main.cpp
// RUN: ascend-conv bp-input --input 1,16,4,8,8 --weight 32,16,3,3,3 --padding 1 --stride 2 --cores 2 --emit ascendc -o %t/s2 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// Four cores: one depth each, no warning.
// RUN: ascend-conv bp-input --input 1,16,4,8,8 --weight 32,16,3,3,3 --padding 1 --stride 2 --cores 4 --emit ascendc -o %t/s4 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

// KERNEL:      #include "lib/conv_backprop/conv3d_bp_input_api.h"
// KERNEL:      using Conv3DBpInput = ConvBackpropApi::Conv3DBackpropInput<WeightType, InputSizeType, GradOutputType, GradInputType>;
// KERNEL:      __global__ __cube__ void conv3d_input_kernel(GM_ADDR dy, GM_ADDR w, GM_ADDR dx, GM_ADDR tiling)
// KERNEL:      const int64_t [[BLOCK:v[0-9]+]] = AscendC::GetBlockIdx();
// KERNEL-NEXT: const int64_t [[CD:v[0-9]+]] = [[BLOCK]] % 2;
// KERNEL:      Conv3DBpInput gradInput;
// KERNEL-NEXT: gradInput.Init(&tilingData.conv3DDxTiling);
// KERNEL-NEXT: const int64_t [[DIN:v[0-9]+]] = [[CD]] * 2;
// KERNEL:      gradInput.SetGradOutput(dyGm[0]);
// KERNEL-NEXT: gradInput.SetWeight(wGm[0]);
// KERNEL-NEXT: gradInput.SetSingleShape(64, 864, 16);
// KERNEL-NEXT: gradInput.SetStartPosition([[DIN]], (-1));
// KERNEL-NEXT: while (gradInput.Iterate()) {
// KERNEL-NEXT:     gradInput.GetTensorC(dxGm[0]);
// KERNEL-NEXT: }
// KERNEL-NEXT: gradInput.ctx.isFirstIter_ = true;
// KERNEL:      gradInput.End();
// KERNEL:      conv3d_input_kernel<<<blockDim, nullptr, stream>>>(dy, w, dx, tiling);

// HOST:      void FillTiling(Conv3DBackpropInputTilingData& t)
// HOST-NEXT: {
// HOST-NEXT:     t.conv3DDxTiling.batch = 1;
// HOST:          t.conv3DDxTiling.strideH = 2;
// HOST:          t.conv3DDxTiling.backpropPadUp = 1;
// HOST-NEXT:     t.conv3DDxTiling.backpropPadDown = 2;
// HOST:          t.conv3DDxTiling.singleCoreDin = 2;
// HOST:          t.conv3DDxTiling.singleCoreCin = 16;
// HOST-NEXT: }
// HOST:      constexpr uint32_t kBlockDim = 2;

// WARN: ascend-conv: warning: the kernel's single shapes span singleCoreDin 2 dX depths; asc-devkit's Conv3DBackpropInput::SetSingleShape sets the single shape's Din to 1

// QUIET-NOT: warning
