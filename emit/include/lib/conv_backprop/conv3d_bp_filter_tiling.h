// Declarations of the host-side Conv3DBackpropFilter tiling API, for the `ascend-conv
// check-ascendc` syntax check. Not the CANN header: see ../../README.md. Written from
// hicann/asc-devkit include/adv_api/conv_backprop/conv3d_bp_filter_tiling{,_base}.h,
// conv3d_bp_filter_tilingdata.h, conv3d_bp_tiling_base.h, matmul/matmul_tiling_base.h
// (TPosition), impl/adv_api/detail/conv/common/conv_common.h (ConvDtype) and the docs
// Conv3DBackpropFilter-Tiling使用说明.md and GetTiling.
#ifndef ASCEND_XDSL_CHECK_CONV3D_BP_FILTER_TILING_H
#define ASCEND_XDSL_CHECK_CONV3D_BP_FILTER_TILING_H

#include <cstddef>
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/common/conv_common.h"
#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {
enum class TPosition : int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC };
}  // namespace matmul_tiling

// Host side, ConvCommonApi has the tiling API's position and data types.
namespace ConvCommonApi {
using matmul_tiling::TPosition;
enum class ConvDtype : uint32_t { FLOAT16 = 0, FLOAT32, BF16, INT4, INT8, UINT8, INT32, INT64, UINT64, CONVDTYPEMAX };
}  // namespace ConvCommonApi

namespace optiling {
// The tiling data class (register/tilingdata_base.h): serialised for the kernel with
// SaveToBuffer, GetDataSize bytes.
class Conv3DBackpropFilterTilingData {
public:
    size_t GetDataSize() const;
    void SaveToBuffer(void* pData, size_t capacity);
};
}  // namespace optiling

namespace ConvBackpropApi {

class Conv3dBpFilterTiling {
public:
    Conv3dBpFilterTiling();
    explicit Conv3dBpFilterTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform);
    int64_t GetTiling(optiling::Conv3DBackpropFilterTilingData& tiling);
    int64_t GetTiling(AscendC::tiling::Conv3DBackpropFilterTilingData& tiling);
    void SetWeightShape(int64_t cout, int64_t cin, int64_t d, int64_t h, int64_t w);
    void SetInputShape(int64_t n, int64_t c, int64_t d, int64_t h, int64_t w);
    void SetGradOutputShape(int64_t n, int64_t c, int64_t d, int64_t h, int64_t w);
    void SetWeightType(ConvCommonApi::TPosition pos, ConvCommonApi::ConvFormat format,
                       ConvCommonApi::ConvDtype dtype);
    void SetInputType(ConvCommonApi::TPosition pos, ConvCommonApi::ConvFormat format,
                      ConvCommonApi::ConvDtype dtype);
    void SetGradOutputType(ConvCommonApi::TPosition pos, ConvCommonApi::ConvFormat format,
                           ConvCommonApi::ConvDtype dtype);
    void SetPadding(int64_t padFront, int64_t padBack, int64_t padUp, int64_t padDown,
                    int64_t padLeft, int64_t padRight);
    void SetStride(int64_t strideD, int64_t strideH, int64_t strideW);
    void SetDilation(int64_t dilationD, int64_t dilationH, int64_t dilationW);
};

}  // namespace ConvBackpropApi

#endif
