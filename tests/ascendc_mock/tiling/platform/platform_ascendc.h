// Test-only CPU stand-in (see ../../README.md): the platform the tiling API is built over.
#ifndef ASCEND_XDSL_MOCK_PLATFORM_ASCENDC_H
#define ASCEND_XDSL_MOCK_PLATFORM_ASCENDC_H

namespace platform_ascendc {

class PlatformAscendC {};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance()
    {
        static PlatformAscendC platform;
        return &platform;
    }
};

}  // namespace platform_ascendc

#endif
