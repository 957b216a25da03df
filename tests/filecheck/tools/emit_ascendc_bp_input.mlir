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

// Two groups of Cin 20 (not a multiple of 16): the one group's kernel, tiling (cin 20, group 1)
// and data, launched once per group on each buffer from g group sizes on; data.py makes and
// checks the whole grouped layer.
// RUN: ascend-conv bp-input --input 1,40,2,6,6 --weight 32,20,1,3,3 --groups 2 --cores 2 --emit ascendc -o %t/g2 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty
// RUN: filecheck %s --check-prefix=GROUPS-HOST --input-file %t/g2/main.cpp
// RUN: filecheck %s --check-prefix=GROUPS-DATA --input-file %t/g2/data.py
// RUN: filecheck %s --check-prefix=GROUPS-README --input-file %t/g2/README.md
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

// GROUPS-HOST:      t.conv3DDxTiling.cin = 20;
// GROUPS-HOST:      t.conv3DDxTiling.group = 1;
// GROUPS-HOST:      constexpr size_t kGroups = 2;
// GROUPS-HOST-NEXT: constexpr size_t kDyGroupBytes = 1024;  // a group's NDC1HWC0 of logical 1x16x2x4x4 f16
// GROUPS-HOST-NEXT: constexpr size_t kDyBytes = kGroups * kDyGroupBytes;
// GROUPS-HOST-NEXT: constexpr size_t kWGroupBytes = 9216;  // a group's FRACTAL_Z_3D of logical 16x20x1x3x3 f16
// GROUPS-HOST-NEXT: constexpr size_t kWBytes = kGroups * kWGroupBytes;
// GROUPS-HOST-NEXT: constexpr size_t kDxGroupBytes = 4608;  // a group's NDC1HWC0 of logical 1x20x2x6x6 f16
// GROUPS-HOST-NEXT: constexpr size_t kDxBytes = kGroups * kDxGroupBytes;
// GROUPS-HOST:      ReadFile(dataDir + "/dy.bin", dyHost.data(), kDyBytes)
// GROUPS-HOST:      constexpr uint32_t kBlockDim = 2;
// GROUPS-HOST-NEXT: for (size_t g = 0; g < kGroups; ++g) {
// GROUPS-HOST-NEXT:     Launch_conv3d_input_kernel(kBlockDim, stream,
// GROUPS-HOST-NEXT:         static_cast<uint8_t*>(dyDev) + g * kDyGroupBytes,
// GROUPS-HOST-NEXT:         static_cast<uint8_t*>(wDev) + g * kWGroupBytes,
// GROUPS-HOST-NEXT:         static_cast<uint8_t*>(dxDev) + g * kDxGroupBytes,
// GROUPS-HOST-NEXT:         static_cast<uint8_t*>(tilingDev));
// GROUPS-HOST-NEXT: }
// GROUPS-HOST-NEXT: CHECK_ACL(aclrtSynchronizeStream(stream));
// GROUPS-HOST:      WriteFile(dataDir + "/dx.bin", dxHost.data(), kDxBytes)

// GROUPS-DATA:      (1, 40, 2, 6, 6),
// GROUPS-DATA-NEXT: (32, 20, 1, 3, 3),
// GROUPS-DATA:      groups=2,
// GROUPS-DATA:      GROUPS = PROBLEM.groups
// GROUPS-DATA:      formats.grouped_oihw_to_fractal_z_3d(w, GROUPS, C0)

// GROUPS-README:      ## Groups
// GROUPS-README:      The layer has 2 groups.
// GROUPS-README:      One launch per group because the public tiling APIs take `groups` 1 only
