// The tiling structures of Conv3DBackpropFilter (and below, Conv3D's and
// Conv3DBackpropInput's) as plain structs, for the `ascend-conv
// check-ascendc` syntax check. Not the CANN header: see ../README.md. Field names, types and
// order follow DEVKIT include/adv_api/conv_backprop/conv3d_bp_filter_tilingdata.h and the doc
// TConv3DBpFilterTiling结构体.md (all uint32_t but the last two, uint64_t), each struct in
// #pragma pack(push, 8) as the generator of the real header writes it
// (impl/adv_api/cmake/scripts/gen_kernel_tiling_data_def.py).
#ifndef ASCEND_XDSL_CHECK_KERNEL_TILING_H
#define ASCEND_XDSL_CHECK_KERNEL_TILING_H

#include <cstdint>

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct TConv3DBpFilterTiling {
    uint32_t batch = 0;
    uint32_t cin = 0;
    uint32_t cout = 0;
    uint32_t cin1G = 0;
    uint32_t cout1G = 0;
    uint32_t dout = 0;
    uint32_t ho = 0;
    uint32_t wo = 0;
    uint32_t di = 0;
    uint32_t hi = 0;
    uint32_t wi = 0;
    uint32_t dk = 0;
    uint32_t hk = 0;
    uint32_t wk = 0;
    uint32_t group = 0;
    uint32_t strideD = 0;
    uint32_t strideH = 0;
    uint32_t strideW = 0;
    uint32_t padFront = 0;
    uint32_t padBack = 0;
    uint32_t padUp = 0;
    uint32_t padDown = 0;
    uint32_t padLeft = 0;
    uint32_t padRight = 0;
    uint32_t dilationD = 0;
    uint32_t dilationH = 0;
    uint32_t dilationW = 0;
    uint32_t channelSize = 0;
    uint32_t al0Pbuffer = 0;
    uint32_t bl0Pbuffer = 0;
    uint32_t cl0Pbuffer = 0;
    uint32_t al1Pbuffer = 0;
    uint32_t bl1Pbuffer = 0;
    uint32_t baseM = 0;
    uint32_t baseK = 0;
    uint32_t baseN = 0;
    uint32_t m0 = 0;
    uint32_t k0 = 0;
    uint32_t n0 = 0;
    uint32_t stepM = 0;
    uint32_t stepN = 0;
    uint32_t stepKa = 0;
    uint32_t stepKb = 0;
    uint32_t iterateOrder = 0;
    uint32_t bl1Bound = 0;
    uint32_t hf32Flag = 0;
    uint32_t singleCoreDk = 0;
    uint32_t singleCoreGroup = 0;
    uint32_t singleCoreCout = 0;
    uint32_t singleCoreHo = 0;
    uint64_t singleCoreBatch = 0;
    uint64_t singleCoreCin = 0;
};
#pragma pack(pop)

#pragma pack(push, 8)
struct Conv3DBpFilterParams {
    uint32_t totalL1Size = 0;
};
#pragma pack(pop)

#pragma pack(push, 8)
struct TConv3DBpFilterBasicBlockTiling {
    uint32_t singleCoreM = 0;
    uint32_t singleCoreN = 0;
    uint32_t singleCoreK = 0;
};
#pragma pack(pop)

// What the host hands the kernel: the API's Init takes &dwTiling.
#pragma pack(push, 8)
struct Conv3DBackpropFilterTilingData {
    Conv3DBpFilterParams params;
    TConv3DBpFilterTiling dwTiling;
    TConv3DBpFilterBasicBlockTiling basicBlockTiling;
};
#pragma pack(pop)

// The forward Conv3D's tiling (DEVKIT include/adv_api/conv/conv3d/conv3d_tilingdata.h and the
// doc TConv3DApiTiling结构体.md): the structure Init reads through its const void*.
#pragma pack(push, 8)
struct TConv3DApiTiling {
    uint64_t orgDo = 0;
    uint32_t orgCo = 0;
    uint64_t orgHo = 0;
    uint64_t orgWo = 0;
    uint64_t orgDi = 0;
    uint32_t orgCi = 0;
    uint64_t orgHi = 0;
    uint64_t orgWi = 0;
    uint32_t kernelD = 0;
    uint32_t kernelH = 0;
    uint32_t kernelW = 0;
    uint64_t singleCoreDo = 0;
    uint32_t singleCoreCo = 0;
    uint64_t singleCoreM = 0;
    uint32_t singleCoreGroupOpt = 0;
    uint32_t groups = 0;
    uint32_t strideH = 0;
    uint32_t strideW = 0;
    uint32_t strideD = 0;
    uint32_t dilationH = 0;
    uint32_t dilationW = 0;
    uint32_t dilationD = 0;
    uint32_t padHead = 0;
    uint32_t padTail = 0;
    uint32_t padUp = 0;
    uint32_t padDown = 0;
    uint32_t padLeft = 0;
    uint32_t padRight = 0;
    uint32_t mL0 = 0;
    uint32_t kL0 = 0;
    uint32_t nL0 = 0;
    uint32_t kAL1 = 0;
    uint32_t kAL1Tail = 0;
    uint32_t kBL1 = 0;
    uint32_t kBL1Tail = 0;
    uint32_t nBL1 = 0;
    uint32_t mAL1 = 0;
    uint32_t kBL1DivK0 = 0;
    uint32_t kBL1TailDivK0 = 0;
    uint32_t nBL1DivnL0 = 0;
    uint32_t mAL1DivmL0 = 0;
    uint32_t cin1InAL1 = 0;
    uint32_t cin1InAL1Tail = 0;
    uint32_t nL0xk0 = 0;
    uint64_t kL0xorgCoAlignN0 = 0;
    uint64_t kernelHxkernelW = 0;
    uint64_t cin1xOriHixOriWixk0 = 0;
    uint64_t oriHixOriWixk0 = 0;
    uint64_t oriWixk0 = 0;
    uint64_t orgHixWi = 0;
    uint64_t orgHoxWo = 0;
    uint32_t pBufferFlag = 0;
    uint32_t groupOpt = 0;
    uint32_t cinOpt = 0;
    uint32_t coutOpt = 0;
    int8_t offsetx = 0;
    uint8_t bl1FullLoad = 0;
    uint8_t al1FullLoad = 0;
    uint8_t bl1BypassFlag = 0;
    uint8_t iterateMNOrder = 0;
    uint8_t biasFullLoadFlag = 0;
    uint8_t fixpParamsFullLoadFlag = 0;
    uint8_t hf32Enable = 0;
    uint8_t hf32TransMode = 0;
    uint8_t resvered1 = 0;
    uint16_t resvered2 = 0;
    uint32_t resvered3 = 0;
};
#pragma pack(pop)

// The input gradient's tiling (DEVKIT include/adv_api/conv_backprop/conv3d_bp_input_tilingdata.h
// and the doc TConv3DBackpropInputTiling结构体.md: uint32_t but hf32Flag, initOutputFlag and
// reserved, int32_t, and the last three, uint64_t): what Conv3DBackpropInput's Init reads.
#pragma pack(push, 8)
struct TConv3DBackpropInputTiling {
    uint32_t batch = 0;
    uint32_t cin = 0;
    uint32_t cout = 0;
    uint32_t cout1 = 0;
    uint32_t cin1 = 0;
    uint32_t cout1G = 0;
    uint32_t cin1G = 0;
    uint32_t c0 = 0;
    uint32_t c0Bits = 0;
    uint32_t dout = 0;
    uint32_t ho = 0;
    uint32_t wo = 0;
    uint32_t di = 0;
    uint32_t hi = 0;
    uint32_t wi = 0;
    uint32_t dk = 0;
    uint32_t hk = 0;
    uint32_t wk = 0;
    uint32_t group = 0;
    uint32_t strideD = 0;
    uint32_t strideH = 0;
    uint32_t strideW = 0;
    uint32_t padFront = 0;
    uint32_t padBack = 0;
    uint32_t padUp = 0;
    uint32_t padDown = 0;
    uint32_t padLeft = 0;
    uint32_t padRight = 0;
    uint32_t backpropPadTail = 0;
    uint32_t backpropPadUp = 0;
    uint32_t backpropPadDown = 0;
    uint32_t backpropPadLeft = 0;
    uint32_t backpropPadRight = 0;
    uint32_t dilationD = 0;
    uint32_t dilationH = 0;
    uint32_t dilationW = 0;
    uint32_t al0Pbuffer = 0;
    uint32_t bl0Pbuffer = 0;
    uint32_t cl0Pbuffer = 0;
    uint32_t al1Pbuffer = 0;
    uint32_t bl1Pbuffer = 0;
    uint32_t singleCoreGroup = 0;
    uint32_t singleCoreCout = 0;
    uint32_t singleCoreCout1 = 0;
    uint32_t singleCoreCin1 = 0;
    uint32_t singleCoreDin = 0;
    uint32_t singleCoreHo = 0;
    uint32_t baseM = 0;
    uint32_t baseK = 0;
    uint32_t baseN = 0;
    uint32_t baseD = 0;
    uint32_t baseBatch = 0;
    uint32_t baseGroup = 0;
    uint32_t stepM = 0;
    uint32_t stepN = 0;
    uint32_t stepKa = 0;
    uint32_t stepKb = 0;
    uint32_t stepBatch = 0;
    uint32_t stepGroup = 0;
    uint32_t iterateOrder = 0;
    int32_t hf32Flag = 0;
    int32_t initOutputFlag = 0;
    int32_t reserved = 0;
    uint64_t singleCoreBatch = 0;
    uint64_t singleCoreM = 0;
    uint64_t singleCoreCin = 0;
};
#pragma pack(pop)

// What the host hands the kernel: the API's Init takes &conv3DDxTiling
// (Conv3DBackpropInput使用说明.md, step 2).
#pragma pack(push, 8)
struct Conv3DBackpropInputTilingData {
    TConv3DBackpropInputTiling conv3DDxTiling;
};
#pragma pack(pop)

}  // namespace tiling
}  // namespace AscendC

using AscendC::tiling::Conv3DBackpropFilterTilingData;
using AscendC::tiling::TConv3DBpFilterTiling;
using AscendC::tiling::TConv3DApiTiling;
using AscendC::tiling::Conv3DBackpropInputTilingData;
using AscendC::tiling::TConv3DBackpropInputTiling;

#endif
