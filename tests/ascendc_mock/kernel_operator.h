// Test-only CPU stand-in (see README.md): GlobalTensor tracks its element offset, and
// GetBlockIdx returns the block the mock launch is running; TPipe is empty.
#ifndef ASCEND_XDSL_MOCK_KERNEL_OPERATOR_H
#define ASCEND_XDSL_MOCK_KERNEL_OPERATOR_H

#include <cstdint>
#include <cstdio>

#define __aicore__
#define __global__
#define __cube__
#define __gm__
#define GM_ADDR uint8_t*

struct half {
    uint16_t bits;
};
struct bfloat16_t {
    uint16_t bits;
};

inline int64_t g_mock_block = 0;

enum KernelMetaType { KERNEL_TYPE_AIC_ONLY, KERNEL_TYPE_MIX_AIC_1_0 };
#define KERNEL_TASK_TYPE_DEFAULT(type) static_cast<void>(type)

namespace AscendC {

enum class TPosition : uint8_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC };

template <typename T>
class GlobalTensor {
public:
    void SetGlobalBuffer(T* buffer)
    {
        base = buffer;
        offset = 0;
    }
    GlobalTensor operator[](const uint64_t more) const
    {
        GlobalTensor t = *this;
        t.offset += more;
        return t;
    }
    T* base = nullptr;
    uint64_t offset = 0;
};

// The forward kernel makes one before Conv3D's Init; the stand-in has no buffers to manage.
class TPipe {
};

inline int64_t GetBlockIdx() { return g_mock_block; }

// The stand-in's line of a call that takes a tensor: the member's name and the tensor's offset.
template <typename T>
inline void MockTensorCall(const char* member, const GlobalTensor<T>& t)
{
    std::printf("%s %llu\n", member, static_cast<unsigned long long>(t.offset));
}

}  // namespace AscendC

#endif
