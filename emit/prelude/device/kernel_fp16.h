// check-ascendc --cann: the device compiler's half, as the CPU build names it. Written by
// ascend-xdsl; not tikicpulib's file of this name: see README.md here.
#ifndef ASCEND_XDSL_PRELUDE_KERNEL_FP16_H
#define ASCEND_XDSL_PRELUDE_KERNEL_FP16_H
struct half {
    unsigned short bits;
    half() = default;
    half(float value);
    operator float() const;
    float ToFloat() const;
};
#endif
