// Declarations of the AscendCL runtime calls an emitted host program uses, for the
// `ascend-conv check-ascendc` syntax check. Not the CANN header: see ../README.md. Written from
// the AscendCL API reference (aclInit, aclrtSetDevice, aclrtCreateStream, aclrtMalloc,
// aclrtMemcpy, aclrtMemset, aclrtSynchronizeStream, aclrtFree, ...).
#ifndef ASCEND_XDSL_CHECK_ACL_H
#define ASCEND_XDSL_CHECK_ACL_H

#include <cstddef>
#include <cstdint>

typedef int aclError;
typedef void* aclrtStream;

static const aclError ACL_SUCCESS = 0;

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
} aclrtMemMallocPolicy;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;

extern "C" {
aclError aclInit(const char* configPath);
aclError aclFinalize();
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void* devPtr);
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind);
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
}

#endif
