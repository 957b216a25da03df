// Declarations of the Ascend C Conv3DBackpropInput high-level API, for the `ascend-conv
// check-ascendc` syntax check. Not the CANN header: see ../../README.md. Written from DEVKIT
// include/adv_api/conv_backprop/conv3d_bp_input_{api,intf,config}.h,
// common/conv3d_bp_config_base.h (ConvType, ConvBpContext, Conv3dConfig) and the doc
// Conv3DBackpropInput使用说明.md (tables 1 and 2, the call sequence).
#ifndef ASCEND_XDSL_CHECK_CONV3D_BP_INPUT_API_H
#define ASCEND_XDSL_CHECK_CONV3D_BP_INPUT_API_H

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/common/conv_common.h"
// ConvBackpropApi::ConvType is the same template for both backprop APIs
// (common/conv3d_bp_config_base.h): declared once, in the filter's header.
#include "lib/conv_backprop/conv3d_bp_filter_api.h"

namespace ConvBackpropApi {

// The object's compile-time configuration (conv3d_bp_config_base.h); the API's alias takes
// CONV3D_CFG_DEFAULT.
struct Conv3dConfig {
    uint8_t loadB2Condition = 1;
    bool enableKernelSplit = false;
};
constexpr Conv3dConfig CONV3D_CFG_DEFAULT = {};

// The documented operand rules (Conv3DBackpropInput使用说明.md, tables 1 and 2): every operand
// in GM; the weight FRACTAL_Z_3D, the input size ND int32_t, GradOutput NDC1HWC0, GradInput
// NDC1HWC0 (table 1) or NCDHW (the doc's example, and GetTensorC in the implementation: see
// GRAD_INPUT_FORMATS of ascend-xdsl's dialects/types.py); weight, GradOutput and GradInput all half or all bfloat16_t. The types are
// ConvBpContext's: SrcT the weight's, DstT GradInput's.
template <class WEIGHT_TYPE, class INPUT_TYPE, class GRAD_OUTPUT_TYPE, class GRAD_INPUT_TYPE,
          const Conv3dConfig& CONV3D_CONFIG = CONV3D_CFG_DEFAULT>
struct Conv3DBpInputCfg {
    using SrcT = typename WEIGHT_TYPE::Type;
    using DstT = typename GRAD_INPUT_TYPE::Type;
    using L0cT = float;
    static_assert(WEIGHT_TYPE::pos == AscendC::TPosition::GM &&
                      INPUT_TYPE::pos == AscendC::TPosition::GM &&
                      GRAD_OUTPUT_TYPE::pos == AscendC::TPosition::GM &&
                      GRAD_INPUT_TYPE::pos == AscendC::TPosition::GM,
                  "every Conv3DBackpropInput operand is in TPosition::GM");
    static_assert(WEIGHT_TYPE::format == ConvCommonApi::ConvFormat::FRACTAL_Z_3D,
                  "WEIGHT must be FRACTAL_Z_3D");
    static_assert(INPUT_TYPE::format == ConvCommonApi::ConvFormat::ND, "INPUT_SIZE must be ND");
    static_assert(GRAD_OUTPUT_TYPE::format == ConvCommonApi::ConvFormat::NDC1HWC0,
                  "GRAD_OUTPUT must be NDC1HWC0");
    static_assert(GRAD_INPUT_TYPE::format == ConvCommonApi::ConvFormat::NDC1HWC0 ||
                      GRAD_INPUT_TYPE::format == ConvCommonApi::ConvFormat::NCDHW,
                  "GRAD_INPUT must be NDC1HWC0 or NCDHW");
    static_assert(std::is_same<SrcT, half>::value || std::is_same<SrcT, bfloat16_t>::value,
                  "WEIGHT must be half or bfloat16_t");
    static_assert(std::is_same<typename INPUT_TYPE::Type, int32_t>::value,
                  "INPUT_SIZE is int32_t");
    static_assert(std::is_same<typename GRAD_OUTPUT_TYPE::Type, SrcT>::value &&
                      std::is_same<DstT, SrcT>::value,
                  "GRAD_OUTPUT and GRAD_INPUT have the type of WEIGHT");
};

template <typename Intf_, class Config_>
struct Conv3DBpInputImpl {
    // The object's state: Iterate clears isFirstIter_ and only Init (and IterateAll) set it
    // again (impl/.../conv3d_bp_input_func.h), so a caller sets it before a new single shape.
    struct ContextData {
        uint8_t isFirstIter_;
    };
};

// The public members of conv3d_bp_input_intf.h.
template <class Config_, template <typename, class> class Impl>
struct Conv3DBpInputIntf {
    using Config = Config_;
    using Ext = Impl<Conv3DBpInputIntf, Config>;
    using SrcT = typename Config::SrcT;
    using DstT = typename Config::DstT;
    using L0cT = typename Config::L0cT;
    using ContextData = typename Ext::ContextData;

    ContextData ctx;

    __aicore__ Conv3DBpInputIntf();
    __aicore__ void Init(const TConv3DBackpropInputTiling* __restrict tiling);
    __aicore__ void SetWeight(const AscendC::GlobalTensor<SrcT>& weight);
    __aicore__ void SetGradOutput(const AscendC::GlobalTensor<SrcT>& gradOutput);
    __aicore__ void SetSingleShape(uint64_t singleShapeM, uint64_t singleShapeK,
                                   uint32_t singleShapeN);
    __aicore__ void SetStartPosition(uint32_t curDinStartIdx, int32_t curHoStartIdx);
    template <bool sync = true>
    __aicore__ bool Iterate(bool enPartialSum = false);
    template <bool sync = true>
    __aicore__ void GetTensorC(const AscendC::GlobalTensor<DstT>& output, uint8_t enAtomic = 0,
                               bool enSequentialWrite = false);
    __aicore__ void End();
};

template <class WEIGHT_TYPE, class INPUT_TYPE, class GRAD_OUTPUT_TYPE, class GRAD_INPUT_TYPE>
using Conv3DBackpropInput = Conv3DBpInputIntf<
    Conv3DBpInputCfg<WEIGHT_TYPE, INPUT_TYPE, GRAD_OUTPUT_TYPE, GRAD_INPUT_TYPE, CONV3D_CFG_DEFAULT>,
    Conv3DBpInputImpl>;

}  // namespace ConvBackpropApi

#endif
