// `ascend-conv bp-filter --emit ascendc -o DIR` writes the API-level kernel as Ascend C: one
// statement per op, the per-core split from the block index, the driver loops and the atomic
// GetTensorC as the IR has them (docs/ascendc.md). This file only carries the CHECK lines.
// RUN: rm -rf %t && mkdir -p %t
// Groups: the enlarged-group loop outermost, its M/N tails (Min) in SetSingleShape.
// RUN: ascend-conv bp-filter --input 1,32,3,6,6 --weight 32,16,2,3,3 --groups 2 --cores 1 --emit ascendc -o %t/groups 2>/dev/null
// RUN: filecheck %s --check-prefix=GROUPS --input-file %t/groups/conv3d_bp_filter_kernel.asc
// RUN: filecheck %s --check-prefix=GROUPS-HOST --input-file %t/groups/main.cpp
// groups > 1 is outside the public tiling API: the compiler's own tiling, and a warning.
// RUN: ascend-conv bp-filter --input 1,32,3,6,6 --weight 32,16,2,3,3 --groups 2 --cores 1 --emit ascendc -o %t/groups 2>&1 >/dev/null | filecheck %s --check-prefix=GROUPS-WARN
// kD fused into N: the kd rows the depth padding clips, as Max/Min of the output depth.
// RUN: ascend-conv bp-filter --input 1,20,5,6,6 --weight 24,20,3,3,3 --padding 1 --dk fused --emit ascendc -o %t/fused 2>/dev/null
// RUN: filecheck %s --check-prefix=FUSED --input-file %t/fused/conv3d_bp_filter_kernel.asc
// No driver loop is left on a core of this split: one single shape per core (batch*dout 5).
// RUN: filecheck %s --check-prefix=FUSED-LOOPS --input-file %t/fused/conv3d_bp_filter_kernel.asc
// K split over 8 cores: each core's Ho rows from the block index, the last core's K tail.
// RUN: ascend-conv bp-filter --input 1,16,1,64,64 --weight 16,16,1,3,3 --padding 0,1,1 --host-tiling fixed --build legacy --emit ascendc -o %t/ksplit 2>/dev/null
// RUN: filecheck %s --check-prefix=KSPLIT --input-file %t/ksplit/conv3d_bp_filter_kernel.cpp
// RUN: filecheck %s --check-prefix=KSPLIT-HOST --input-file %t/ksplit/main.cpp
// RUN: filecheck %s --check-prefix=CMAKE --input-file %t/ksplit/CMakeLists.txt
// Atlas A3: the SoC of the platform file in both builds; the host asks the tiling API.
// RUN: ascend-conv bp-filter --input 1,16,4,8,8 --weight 16,16,3,3,3 --padding 1 --hw atlas-a3-9392 --emit ascendc -o %t/a3
// RUN: filecheck %s --check-prefix=A3-CMAKE --input-file %t/a3/CMakeLists.txt
// RUN: filecheck %s --check-prefix=A3-HOST --input-file %t/a3/main.cpp
// RUN: filecheck %s --check-prefix=A3-KERNEL --input-file %t/a3/conv3d_bp_filter_kernel.asc
// RUN: ascend-conv bp-filter --input 1,16,4,8,8 --weight 16,16,3,3,3 --padding 1 --hw atlas-a3-9392 --build legacy --emit ascendc -o %t/a3legacy
// RUN: filecheck %s --check-prefix=A3-LEGACY --input-file %t/a3legacy/CMakeLists.txt

// GROUPS:      using InputType = ConvBackpropApi::ConvType<AscendC::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, half>;
// GROUPS-NEXT: using WeightSizeType = ConvBackpropApi::ConvType<AscendC::TPosition::GM, ConvCommonApi::ConvFormat::ND, int32_t>;
// GROUPS-NEXT: using GradOutputType = ConvBackpropApi::ConvType<AscendC::TPosition::GM, ConvCommonApi::ConvFormat::NDC1HWC0, half>;
// GROUPS-NEXT: using GradWeightType = ConvBackpropApi::ConvType<AscendC::TPosition::GM, ConvCommonApi::ConvFormat::FRACTAL_Z_3D, float>;
// GROUPS:      __global__ __cube__ void conv3d_bp_filter_kernel(GM_ADDR x, GM_ADDR dy, GM_ADDR dw, GM_ADDR tiling)
// GROUPS:        const int64_t v0 = AscendC::GetBlockIdx();
// GROUPS-NEXT:   Conv3DBpFilter bpFilter;
// GROUPS-NEXT:   bpFilter.Init(&tilingData.dwTiling);
// GROUPS-NEXT:   for (int64_t gi = 0; gi < 2; gi += 1) {
// GROUPS-NEXT:       const int64_t v1 = 2 - gi;
// GROUPS-NEXT:       const int64_t v2 = Min(1, v1);
// GROUPS:            for (int64_t bdi = 0; bdi < 2; bdi += 1) {
// GROUPS:                for (int64_t dki = 0; dki < 2; dki += 1) {
// GROUPS:                    const int64_t [[GOFF:v[0-9]+]] = gi * 256;
// GROUPS:                    const int64_t [[WOFF:v[0-9]+]] = gi * 4608;
// GROUPS:                    bpFilter.SetGradOutput(dyGm[{{v[0-9]+}}]);
// GROUPS-NEXT:               bpFilter.SetInput(xGm[{{v[0-9]+}}]);
// GROUPS-NEXT:               bpFilter.SetSingleShape({{v[0-9]+}}, {{v[0-9]+}}, 16);
// GROUPS-NEXT:               bpFilter.SetStartPosition(0);
// GROUPS-NEXT:               while (bpFilter.Iterate()) {
// GROUPS-NEXT:                   bpFilter.GetTensorC(dwGm[{{v[0-9]+}}], 1);
// GROUPS-NEXT:               }
// GROUPS-NEXT:               bpFilter.ctx.isFirstIter_ = true;
// GROUPS:        bpFilter.End();
// GROUPS-NEXT: }

// GROUPS-WARN: ascend-conv: warning: groups 2 is outside what the public tiling API accepts (CheckInputAttr rejects groups != 1): the host gets --host-tiling fixed, the compiler's own tiling, which the docs do not support; the supported route for this layer is the ops-nn operator Conv3DBackpropFilterV2 (hicann/ops-nn conv/conv3d_backprop_filter_v2, through aclnnConvolutionBackward)

// GROUPS-HOST: // The core split behind the launch's block count: batchDim 1, groupDim 1, mDim 1, kDim 1, nDim 1, dkDim 1.
// GROUPS-HOST: t.dwTiling.cin1G = 1;
// GROUPS-HOST: t.dwTiling.group = 2;
// GROUPS-HOST: t.dwTiling.singleCoreGroup = 2;
// GROUPS-HOST: constexpr size_t kDwBytes = 36864;  // FRACTAL_Z_3D of logical 32x16x2x3x3 f32, groups 2
// GROUPS-HOST: constexpr uint32_t kBlockDim = 1;

// FUSED:        const int64_t v0 = AscendC::GetBlockIdx();
// FUSED-NEXT:   const int64_t v1 = v0 % 5;
// FUSED:        const int64_t [[LO:v[0-9]+]] = Max(0, {{v[0-9]+}});
// FUSED:        const int64_t [[HI:v[0-9]+]] = Min(3, {{v[0-9]+}});
// FUSED:        const int64_t [[N:v[0-9]+]] = {{v[0-9]+}} * 144;
// FUSED:        bpFilter.SetSingleShape(32, [[N]], 36);
// FUSED:        bpFilter.End();

// FUSED-LOOPS-NOT: for (int64_t

// KSPLIT:      const int64_t v0 = AscendC::GetBlockIdx();
// KSPLIT-NEXT: const int64_t v1 = v0 % 8;
// KSPLIT:      const int64_t [[HO:v[0-9]+]] = v1 * 8;
// KSPLIT-NEXT: const int64_t [[REST:v[0-9]+]] = 64 - [[HO]];
// KSPLIT-NEXT: const int64_t [[ROWS:v[0-9]+]] = Min(8, [[REST]]);
// KSPLIT:      const int64_t [[K:v[0-9]+]] = [[ROWS]] * 64;
// KSPLIT:      bpFilter.SetSingleShape(16, 144, [[K]]);
// KSPLIT-NEXT: bpFilter.SetStartPosition([[HO]]);

// KSPLIT-HOST: // The core split behind the launch's block count: batchDim 1, groupDim 1, mDim 1, kDim 8, nDim 1, dkDim 1.
// KSPLIT-HOST: t.dwTiling.singleCoreHo = 8;
// KSPLIT-HOST: constexpr uint32_t kBlockDim = 8;
// KSPLIT-HOST-NEXT: ACLRT_LAUNCH_KERNEL(conv3d_bp_filter_kernel)(kBlockDim, stream, xDev, dyDev, dwDev, tilingDev);

// CMAKE: set(SOC_VERSION "Ascend910B2" CACHE STRING "system on chip type")
// CMAKE: include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
// CMAKE: ascendc_library(kernels STATIC conv3d_bp_filter_kernel.cpp)
// CMAKE: add_executable(conv3d_bp_filter main.cpp)
// CMAKE: target_link_libraries(conv3d_bp_filter PRIVATE kernels ascendcl)

// A3-CMAKE:      # --hw atlas-a3-9392: SoC Ascend910_9392, NPU architecture dav-2201.
// A3-CMAKE:      set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "NPU architecture")
// A3-CMAKE:      find_package(ASC REQUIRED)
// A3-CMAKE:      project(conv3d_bp_filter LANGUAGES ASC CXX)
// A3-CMAKE:      add_executable(conv3d_bp_filter conv3d_bp_filter_kernel.asc main.cpp)
// A3-CMAKE:      target_link_libraries(conv3d_bp_filter PRIVATE ascendcl tiling_api register platform m dl)

// A3-HOST:      ConvBackpropApi::Conv3dBpFilterTiling tiler(*platform);
// A3-HOST:      tiler.SetInputShape(1, 16, 4, 8, 8);
// A3-HOST-NEXT: tiler.SetGradOutputShape(1, 16, 4, 8, 8);
// A3-HOST-NEXT: tiler.SetWeightShape(16, 16, 3, 3, 3);
// A3-HOST-NEXT: tiler.SetPadding(1, 1, 1, 1, 1, 1);
// A3-HOST-NEXT: tiler.SetStride(1, 1, 1);
// A3-HOST-NEXT: tiler.SetDilation(1, 1, 1);
// A3-HOST:      optiling::Conv3DBackpropFilterTilingData tiling;
// A3-HOST-NEXT: if (tiler.GetTiling(tiling) == -1) {
// A3-HOST:      Launch_conv3d_bp_filter_kernel(kBlockDim, stream,

// A3-KERNEL:      __global__ __cube__ void conv3d_bp_filter_kernel(GM_ADDR x, GM_ADDR dy, GM_ADDR dw, GM_ADDR tiling)
// A3-KERNEL:      conv3d_bp_filter_kernel<<<blockDim, nullptr, stream>>>(x, dy, dw, tiling);

// A3-LEGACY: set(SOC_VERSION "Ascend910_9392" CACHE STRING "system on chip type")
// A3-LEGACY: ascendc_library(kernels STATIC conv3d_bp_filter_kernel.cpp)
// A3-LEGACY: target_link_libraries(conv3d_bp_filter PRIVATE kernels ascendcl tiling_api register platform)
