// check-ascendc --cann: the device compiler's keywords and builtin types, as the basic API of
// asc-devkit uses them when built for the CPU (ASCENDC_CPU_DEBUG). Written by ascend-xdsl; not
// the CANN file of this name (tikicpulib's, which an installed CANN has under
// tools/tikicpulib/lib/include and asc-devkit lacks): see README.md here.
#ifndef ASCEND_XDSL_PRELUDE_STUB_DEF_H
#define ASCEND_XDSL_PRELUDE_STUB_DEF_H

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "kernel_bf16.h"
#include "kernel_fp16.h"

// Function, address-space and pipe qualifiers: g++ has none, and in the CPU build they mean
// nothing (the basic API keeps its address-space overloads out of that build).
#define __global__
#define __aicore__
#define __host__
#define __host_aicore__
#define __cube__
#define __vector__
#define __gm__
#define __cbuf__
#define __ubuf__
#define __cc__
#define __ca__
#define __cb__
#define __fbuf__
#define __ssbuf__
#define __sync_alias__
#define __sync_noalias__
#define __check_sync_alias__
#define __sync_in__
#define __sync_out__
#define __inout_pipe__(...)
#define __in_pipe__(...)
#define __out_pipe__(...)
#define __WORKGROUP_LOCAL__
#define __BLOCK_LOCAL__
#define __VEC_SCOPE__
#define __simt_callee__
#define __simt_vf__
#define __simd_callee__
#define __simd_vf__
#define __no_simd_vf_fusion__
#define __disable_kernel_type_autoinfer__
#define LAUNCH_BOUND(x)
#define ASCENDC_HOST_AICORE

// The device compiler's builtin enums, with the enumerators the basic API names.
enum pipe_t {
    PIPE_S,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,
    PIPE_NUM,
};
enum event_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
// QuantMode_t is unscoped: the API names its enumerators both ways, QuantMode_t::F322F16 and
// a bare NoQuant (asc-devkit impl/adv_api/detail/conv_backprop/conv3d_backprop_input/
// dav_v220/conv3d_bp_input_sub_func.h), which only an unscoped enum accepts.
enum QuantMode_t : uint64_t {
    NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, DEQS16, VDEQS16, REQ8, VREQ8, REQ4, VREQ4,
    QF322B8_PRE, VQF322B8_PRE, QF162B8_PRE, VQF162B8_PRE, QF162S4_PRE, VQF162S4_PRE,
    QF162S16_PRE, VQF162S16_PRE, QF322F16_PRE, VQF322F16_PRE, QF322BF16_PRE, VQF322BF16_PRE,
    QS322BF16_PRE, VQS322BF16_PRE, QF322F32_PRE, VQF322F32_PRE, QF322FP8_PRE, VQF322FP8_PRE,
    QF322HIF8_PRE, VQF322HIF8_PRE, QF322HIF8_PRE_HYBRID, VQF322HIF8_PRE_HYBRID,
};
enum class cache_line_t : uint64_t { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class dcci_dst_t : uint64_t { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class Order_t : uint64_t { VALUE_INDEX, INDEX_VALUE, ONLY_VALUE, ONLY_INDEX };
enum class pad_t : uint64_t { PAD_NONE };
enum addr_cal_mode_t : uint64_t { inc, dec };
enum ub_addr8_t { VA0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };
enum vtype_t { L128, H128 };
enum mem_t : uint64_t {};
enum mem_dsb_t : uint64_t {};
enum atomic_type_t : uint64_t {};
enum atomic_op_t : uint64_t {};

// Narrow float and vector-register types the basic API's declarations name.
struct fp8_e4m3fn_t { uint8_t bits; };
struct fp8_e5m2_t { uint8_t bits; };
struct fp8_e8m0_t { uint8_t bits; };
struct fp4x2_e2m1_t { uint8_t bits; };
struct fp4x2_e1m2_t { uint8_t bits; };
struct hifloat8_t { uint8_t bits; };
struct int4x2_t { uint8_t data; };
using vector_bool = uint16_t;
struct vector_address { int64_t value; };
struct vector_align { int8_t bytes[32]; };

// The CPU build's per-block state, which the basic API reads.
extern int64_t block_idx;
extern int64_t block_num;
extern int32_t sub_block_idx;
extern int32_t g_coreType;
extern int32_t g_taskRation;
extern uint64_t g_fixpipeNdNzParam;
namespace AscendC {
extern bool g_isVdeq;
extern const int MIX_TYPE;
extern const int AIC_TYPE;
extern const int AIV_TYPE;
}  // namespace AscendC

#endif
