// The tiling structures of Conv3DBackpropFilter as plain structs, for the `ascend-conv
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

}  // namespace tiling
}  // namespace AscendC

using AscendC::tiling::Conv3DBackpropFilterTilingData;
using AscendC::tiling::TConv3DBpFilterTiling;

#endif
