// ConvCommonApi::ConvFormat, for the `ascend-conv check-ascendc` syntax check. Not the CANN
// header: see ../../../README.md. As in hicann/asc-devkit include/adv_api/conv/common/conv_common.h:
// an enum class over uint32_t, and (kernel side) nothing else in ConvCommonApi.
#ifndef ASCEND_XDSL_CHECK_CONV_COMMON_H
#define ASCEND_XDSL_CHECK_CONV_COMMON_H

#include <cstdint>

namespace ConvCommonApi {
enum class ConvFormat : uint32_t {
    ND = 0,
    NCHW,
    NHWC,
    HWCN,
    DHWNC,
    DHWCN,
    NDHWC,
    NCDHW,
    NC1HWC0,
    NDC1HWC0,
    FRACTAL_Z_3D,
    MAX,
};
}  // namespace ConvCommonApi

#endif
