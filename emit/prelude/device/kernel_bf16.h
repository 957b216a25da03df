// check-ascendc --cann: the device compiler's bfloat16_t, as the CPU build names it. Written by
// ascend-xdsl; not tikicpulib's file of this name: see README.md here.
#ifndef ASCEND_XDSL_PRELUDE_KERNEL_BF16_H
#define ASCEND_XDSL_PRELUDE_KERNEL_BF16_H
struct bfloat16_t {
    unsigned short bits;
    bfloat16_t() = default;
    bfloat16_t(float value);
    operator float() const;
    float ToFloat() const;
};
#endif
