// Declarations (not definitions) of the Ascend C basics an emitted kernel uses, for the
// `ascend-conv check-ascendc` syntax check with g++. Not the CANN header: see README.md here.
#ifndef ASCEND_XDSL_CHECK_KERNEL_OPERATOR_H
#define ASCEND_XDSL_CHECK_KERNEL_OPERATOR_H

#include <cstdint>

// Function and address-space qualifiers of the device compiler; g++ has none of them.
#define __aicore__
#define __global__
#define __cube__
#define __gm__
#define GM_ADDR __gm__ uint8_t*

// The device compiler's 16-bit float types; only their names matter for the check.
struct half {
    uint16_t bits;
};
struct bfloat16_t {
    uint16_t bits;
};

// The kernel types of KERNEL_TASK_TYPE_DEFAULT (设置Kernel类型.md); the macro is the
// toolchain's, here it only checks that its argument is one of these names.
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
};
#define KERNEL_TASK_TYPE_DEFAULT(type) static_cast<void>(static_cast<KernelMetaType>(type))

namespace AscendC {

// Logical buffer positions (DEVKIT docs, 通用说明和约束.md, table 1).
enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
};

// A tensor in global memory: a typed view of a GM address (GlobalTensor docs).
template <typename T>
class GlobalTensor {
public:
    __aicore__ GlobalTensor();
    __aicore__ void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize);
    __aicore__ void SetGlobalBuffer(__gm__ T* buffer);
    // The same buffer from element `offset` on.
    __aicore__ GlobalTensor operator[](const uint64_t offset) const;
};

// The pipe that manages the kernel's queues and buffers; the Conv3D API's Init takes it from
// the kernel (Init doc: a TPipe must exist before Init).
class TPipe {
public:
    __aicore__ TPipe();
};

// The index of the AI Core running this instance, 0 .. blockDim - 1.
__aicore__ int64_t GetBlockIdx();
// blockDim of the launch.
__aicore__ int64_t GetBlockNum();

}  // namespace AscendC

#endif
