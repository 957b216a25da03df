// Test-only CPU stand-in (see ../README.md): device memory is host memory.
#ifndef ASCEND_XDSL_MOCK_ACL_H
#define ASCEND_XDSL_MOCK_ACL_H

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

typedef int aclError;
typedef void* aclrtStream;
static const aclError ACL_SUCCESS = 0;
enum aclrtMemMallocPolicy { ACL_MEM_MALLOC_HUGE_FIRST };
enum aclrtMemcpyKind { ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST };

inline aclError aclInit(const char*) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }
inline aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream* s)
{
    *s = nullptr;
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtMalloc(void** p, size_t size, aclrtMemMallocPolicy)
{
    // Filled with a non-zero pattern, so a missing aclrtMemset shows in the output.
    *p = std::malloc(size);
    std::memset(*p, 0x7f, size);
    return *p ? ACL_SUCCESS : 1;
}
inline aclError aclrtFree(void* p)
{
    std::free(p);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpy(void* dst, size_t max, const void* src, size_t count, aclrtMemcpyKind)
{
    if (count > max) {
        return 1;
    }
    std::memcpy(dst, src, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemset(void* p, size_t max, int32_t value, size_t count)
{
    if (count > max) {
        return 1;
    }
    std::memset(p, value, count);
    return ACL_SUCCESS;
}

#endif
