// Declarations of the Ascend C Conv3D (forward) high-level API, for the `ascend-conv
// check-ascendc` syntax check. Not the CANN header: see ../../../README.md. Written from DEVKIT
// include/adv_api/conv/conv3d/conv3d_{api,intf,config}.h, include/adv_api/conv/common/
// conv_forward_config.h (ConvApi::ConvType, ConvDataType) and the doc Conv3D使用说明.md.
#ifndef ASCEND_XDSL_CHECK_CONV3D_API_H
#define ASCEND_XDSL_CHECK_CONV3D_API_H

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/common/conv_common.h"

namespace ConvApi {

// Where an operand lives, in which format, with which element type (conv_forward_config.h).
template <AscendC::TPosition POSITION, ConvCommonApi::ConvFormat FORMAT, typename TYPE>
struct ConvType {
    constexpr static AscendC::TPosition pos = POSITION;
    constexpr static ConvCommonApi::ConvFormat format = FORMAT;
    using T = TYPE;
};

struct ConvParam {
};

template <class INPUT_TYPE, class WEIGHT_TYPE, class OUTPUT_TYPE, class BIAS_TYPE, class CONV_CFG>
struct ConvDataType {
    using ConvParam = CONV_CFG;
    using SrcAT = typename INPUT_TYPE::T;
    using SrcBT = typename WEIGHT_TYPE::T;
    using DstT = typename OUTPUT_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    // The documented operand rules (Conv3D使用说明.md, tables 1 and 2): every operand in GM;
    // input and output NDC1HWC0, the weight FRACTAL_Z_3D, the bias ND; input, weight and
    // output of one type, half or bfloat16_t; the bias half or float.
    static_assert(INPUT_TYPE::pos == AscendC::TPosition::GM &&
                      WEIGHT_TYPE::pos == AscendC::TPosition::GM &&
                      OUTPUT_TYPE::pos == AscendC::TPosition::GM &&
                      BIAS_TYPE::pos == AscendC::TPosition::GM,
                  "every Conv3D operand is in TPosition::GM");
    static_assert(INPUT_TYPE::format == ConvCommonApi::ConvFormat::NDC1HWC0,
                  "INPUT must be NDC1HWC0");
    static_assert(WEIGHT_TYPE::format == ConvCommonApi::ConvFormat::FRACTAL_Z_3D,
                  "WEIGHT must be FRACTAL_Z_3D");
    static_assert(OUTPUT_TYPE::format == ConvCommonApi::ConvFormat::NDC1HWC0,
                  "OUTPUT must be NDC1HWC0");
    static_assert(BIAS_TYPE::format == ConvCommonApi::ConvFormat::ND, "BIAS must be ND");
    static_assert(std::is_same<SrcAT, half>::value || std::is_same<SrcAT, bfloat16_t>::value,
                  "INPUT must be half or bfloat16_t");
    static_assert(std::is_same<SrcBT, SrcAT>::value && std::is_same<DstT, SrcAT>::value,
                  "WEIGHT and OUTPUT have the type of INPUT");
    static_assert(std::is_same<BiasT, half>::value || std::is_same<BiasT, float>::value,
                  "BIAS must be half or float");
};

}  // namespace ConvApi

namespace Conv3dApi {

using biasType = ConvApi::ConvType<AscendC::TPosition::GM, ConvCommonApi::ConvFormat::ND, float>;

struct Conv3dParam : public ConvApi::ConvParam {
};

template <class ConvDataType>
struct Conv3dCfg : public ConvDataType {
};

// The public members of conv3d_intf.h; Iterate and GetTensorC are private there.
template <class Config>
struct Conv3dIntf {
    using InputT = typename Config::SrcAT;
    using WeightT = typename Config::SrcBT;
    using OutputT = typename Config::DstT;
    using BiasT = typename Config::BiasT;

    __aicore__ Conv3dIntf();
    __aicore__ void Init(const void* __restrict cubeTiling);
    __aicore__ void SetInput(const AscendC::GlobalTensor<InputT>& input);
    __aicore__ void SetWeight(const AscendC::GlobalTensor<WeightT>& weight);
    __aicore__ void SetBias(const AscendC::GlobalTensor<BiasT>& bias);
    __aicore__ void SetSingleOutputShape(uint64_t singleCo, uint64_t singleDo, uint64_t singleM);
    __aicore__ void SetInputStartPosition(int64_t diStartPos, int64_t mStartPos);
    template <bool sync = true>
    __aicore__ void IterateAll(const AscendC::GlobalTensor<OutputT>& output,
                               bool enPartialSum = false);
    __aicore__ void End();

private:
    template <bool sync = true>
    __aicore__ bool Iterate(bool enPartialSum = false);
    template <bool sync = true>
    __aicore__ void GetTensorC(const AscendC::GlobalTensor<OutputT>& output,
                               bool enSequentialWrite = false);
};

template <class INPUT_TYPE, class WEIGHT_TYPE, class OUTPUT_TYPE, class BIAS_TYPE = biasType,
          class CONV_CFG = Conv3dParam>
using Conv3D = Conv3dIntf<
    Conv3dCfg<ConvApi::ConvDataType<INPUT_TYPE, WEIGHT_TYPE, OUTPUT_TYPE, BIAS_TYPE, CONV_CFG>>>;

}  // namespace Conv3dApi

#endif
