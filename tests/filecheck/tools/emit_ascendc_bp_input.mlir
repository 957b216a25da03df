// `ascend-conv bp-input --emit ascendc -o DIR` writes the API-level dX kernel as Ascend C on
// Conv3DBackpropInput: the calls in the docs' order, the D start from the block index, a
// negative H start (the top padding of the dilated dy), the isFirstIter_ reset after each
// Iterate series, the IR's scf.for over a core's dX depths when singleCoreDin is above 1 (one
// SetStartPosition and Iterate series a depth: asc-devkit's SetSingleShape sets Din to 1), and
// a host that fills TConv3DBackpropInputTiling field for field (docs/ascendc.md). This file
// only carries the CHECK lines.
// RUN: rm -rf %t && mkdir -p %t
// Stride 2 on two cores: each core two of the four dX depths (singleCoreDin 2, a static trip
// count), one SetStartPosition and Iterate series per depth; no warning, a README sentence.
// RUN: ascend-conv bp-input --input 1,16,4,8,8 --weight 32,16,3,3,3 --padding 1 --stride 2 --cores 2 --emit ascendc -o %t/s2 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty
// RUN: filecheck %s --check-prefix=KERNEL --input-file %t/s2/conv3d_input_kernel.asc
// RUN: filecheck %s --check-prefix=HOST --input-file %t/s2/main.cpp
// RUN: filecheck %s --check-prefix=README --input-file %t/s2/README.md
// Four cores: one depth each, no depth loop.
// RUN: ascend-conv bp-input --input 1,16,4,8,8 --weight 32,16,3,3,3 --padding 1 --stride 2 --cores 4 --emit ascendc -o %t/s4 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty
// RUN: filecheck %s --check-prefix=ONE --input-file %t/s4/conv3d_input_kernel.asc
// RUN: filecheck %s --check-prefix=ONE-README --input-file %t/s4/README.md
// Di 7 on two cores (singleCoreDin 4): the second core's share is the three-depth tail, so the
// loop runs the share the kernel computed, clipped at Di.
// RUN: ascend-conv bp-input --input 1,16,7,8,8 --weight 16,16,3,3,3 --padding 1 --cores 2 --emit ascendc -o %t/d7 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty
// RUN: filecheck %s --check-prefix=TAIL --input-file %t/d7/conv3d_input_kernel.asc

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
// KERNEL-NEXT: for (int64_t dl = 0; dl < 2; dl += 1) {
// KERNEL-NEXT:     const int64_t curDin = [[DIN]] + dl;
// KERNEL-NEXT:     gradInput.SetStartPosition(curDin, (-1));
// KERNEL-NEXT:     while (gradInput.Iterate()) {
// KERNEL-NEXT:         gradInput.GetTensorC(dxGm[0]);
// KERNEL-NEXT:     }
// KERNEL-NEXT:     gradInput.ctx.isFirstIter_ = true;
// KERNEL-NEXT: }
// KERNEL-NEXT: }
// KERNEL-NEXT: gradInput.End();
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

// README: The kernel loops over its `singleCoreDin` dX depths, one `SetStartPosition` and
// README-NEXT: `Iterate` series each, because asc-devkit's `SetSingleShape` sets the
// README-NEXT: single shape's Din to 1

// TAIL:      const int64_t [[DIN:v[0-9]+]] = {{v[0-9]+}} * 4;
// TAIL-NEXT: const int64_t [[REST:v[0-9]+]] = 7 - [[DIN]];
// TAIL-NEXT: const int64_t [[SHARE:v[0-9]+]] = Min(4, [[REST]]);
// TAIL:      gradInput.SetSingleShape(64, 432, 16);
// TAIL-NEXT: for (int64_t dl = 0; dl < [[SHARE]]; dl += 1) {
// TAIL-NEXT:     const int64_t curDin = [[DIN]] + dl;
// TAIL-NEXT:     gradInput.SetStartPosition(curDin, (-1));
// TAIL-NEXT:     while (gradInput.Iterate()) {
// TAIL-NEXT:         gradInput.GetTensorC(dxGm[0]);
// TAIL-NEXT:     }
// TAIL-NEXT:     gradInput.ctx.isFirstIter_ = true;
// TAIL-NEXT: }

// ONE-NOT:      for (int64_t dl
// ONE:          gradInput.SetSingleShape(
// ONE-NEXT:     gradInput.SetStartPosition(v{{[0-9]+}}, {{.*}});
// ONE-NEXT:     while (gradInput.Iterate()) {
// ONE-NOT:      for (int64_t dl

// ONE-README-NOT: Din to 1

// QUIET-NOT: warning
