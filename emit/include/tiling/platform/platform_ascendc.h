// Declarations of the platform information the host's tiling API call uses, for the
// `ascend-conv check-ascendc` syntax check. Not the CANN header: see ../../README.md. Written
// from hicann/asc-devkit include/utils/tiling/platform/platform_ascendc.h.
#ifndef ASCEND_XDSL_CHECK_PLATFORM_ASCENDC_H
#define ASCEND_XDSL_CHECK_PLATFORM_ASCENDC_H

#include <cstdint>

namespace platform_ascendc {

class PlatformAscendC {
public:
    uint32_t GetCoreNumAic() const;
};

// The platform of the device the program runs on (GetInstance()), or of a named SoC.
class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance();
    static PlatformAscendC* GetInstance(const char* customSocVersion);
};

}  // namespace platform_ascendc

#endif
