// Declarations of the Ascend C Conv3DBackpropFilter high-level API, for the `ascend-conv
// check-ascendc` syntax check. Not the CANN header: see ../../README.md. Written from DEVKIT
// include/adv_api/conv_backprop/conv3d_bp_filter_{api,intf}.h, common/conv3d_bp_config_base.h,
// include/adv_api/conv/common/conv_common.h (via ../conv/common) and the doc Conv3DBackpropFilter使用说明.md.
#ifndef ASCEND_XDSL_CHECK_CONV3D_BP_FILTER_API_H
#define ASCEND_XDSL_CHECK_CONV3D_BP_FILTER_API_H

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/common/conv_common.h"

// Kernel side, ConvCommonApi holds only ConvFormat: the doc's ConvCommonApi::TPosition::GM is
// the host tiling API's spelling (matmul_tiling::TPosition) and does not name a kernel type.

namespace ConvBackpropApi {

// Where an operand lives, in which format, with which element type.
template <AscendC::TPosition POSITION, ConvCommonApi::ConvFormat FORMAT, typename T>
struct ConvType {
    constexpr static AscendC::TPosition pos = POSITION;
    constexpr static ConvCommonApi::ConvFormat format = FORMAT;
    using Type = T;
};

// The documented operand rules (Conv3DBackpropFilter使用说明.md, tables 1 and 2): every operand
// in GM; x and dy NDC1HWC0 of the same half or bfloat16_t; the weight size ND int32_t; dW
// FRACTAL_Z_3D float.
template <class A, class B, class C, class D>
struct Conv3DBpFilterCfg {
    using SrcT = typename A::Type;
    using DstT = typename D::Type;
    using L0cT = float;
    static_assert(A::pos == AscendC::TPosition::GM && B::pos == AscendC::TPosition::GM &&
                      C::pos == AscendC::TPosition::GM && D::pos == AscendC::TPosition::GM,
                  "every Conv3DBackpropFilter operand is in TPosition::GM");
    static_assert(A::format == ConvCommonApi::ConvFormat::NDC1HWC0, "INPUT must be NDC1HWC0");
    static_assert(B::format == ConvCommonApi::ConvFormat::ND, "WEIGHT (size) must be ND");
    static_assert(C::format == ConvCommonApi::ConvFormat::NDC1HWC0,
                  "GRAD_OUTPUT must be NDC1HWC0");
    static_assert(D::format == ConvCommonApi::ConvFormat::FRACTAL_Z_3D,
                  "GRAD_WEIGHT must be FRACTAL_Z_3D");
    static_assert(std::is_same<typename A::Type, half>::value ||
                      std::is_same<typename A::Type, bfloat16_t>::value,
                  "INPUT must be half or bfloat16_t");
    static_assert(std::is_same<typename B::Type, int32_t>::value, "WEIGHT (size) is int32_t");
    static_assert(std::is_same<typename C::Type, typename A::Type>::value,
                  "GRAD_OUTPUT has the type of INPUT");
    static_assert(std::is_same<typename D::Type, float>::value, "GRAD_WEIGHT must be float");
};

template <typename Intf_, class Config_>
struct Conv3DBpFilterImpl {
    // The object's state; the Iterate doc tells a caller to set isFirstIter_ before a new
    // single shape.
    struct ContextData {
        bool isFirstIter_;
    };
};

template <class Config_, template <typename, class> class Impl>
struct Conv3DBpFilterIntf {
    using Config = Config_;
    using Ext = Impl<Conv3DBpFilterIntf, Config>;
    using SrcT = typename Config::SrcT;
    using DstT = typename Config::DstT;
    using L0cT = typename Config::L0cT;
    using ContextData = typename Ext::ContextData;

    ContextData ctx;

    __aicore__ Conv3DBpFilterIntf();
    __aicore__ void Init(const TConv3DBpFilterTiling* __restrict tiling);
    __aicore__ void SetInput(const AscendC::GlobalTensor<SrcT>& input);
    __aicore__ void SetGradOutput(const AscendC::GlobalTensor<SrcT>& gradOutput);
    __aicore__ void SetSingleShape(uint64_t singleCoreM, uint64_t singleCoreN,
                                   uint64_t singleCoreK);
    __aicore__ void SetStartPosition(uint32_t hoStartIdx);
    template <bool sync = true>
    __aicore__ bool Iterate(bool enPartialSum = false);
    template <bool sync = true>
    __aicore__ void GetTensorC(const AscendC::GlobalTensor<DstT>& output, uint8_t enAtomic = 1,
                               bool enSequentialWrite = false);
    __aicore__ void End();
};

template <class INPUT_TYPE, class WEIGHT_TYPE, class GRAD_OUTPUT_TYPE, class GRAD_WEIGHT_TYPE>
using Conv3DBackpropFilter =
    Conv3DBpFilterIntf<Conv3DBpFilterCfg<INPUT_TYPE, WEIGHT_TYPE, GRAD_OUTPUT_TYPE, GRAD_WEIGHT_TYPE>,
                       Conv3DBpFilterImpl>;

}  // namespace ConvBackpropApi

#endif
