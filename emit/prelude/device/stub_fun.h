// check-ascendc --cann: the device compiler's intrinsics and tikicpulib's CPU-debug hooks that
// the real basic API calls, as declarations. Written by ascend-xdsl; not the CANN file of this
// name (tikicpulib's, which an installed CANN has under tools/tikicpulib/lib/include and
// asc-devkit lacks): see README.md here.
#ifndef ASCEND_XDSL_PRELUDE_STUB_FUN_H
#define ASCEND_XDSL_PRELUDE_STUB_FUN_H

#include "stub_def.h"

// Each builtin takes whatever it is given: its operands are the device compiler's business,
// below the API the check is about. Those whose result the basic API uses return a 64-bit
// value; the rest return void (the basic API returns some of them from void functions).
#define ASCEND_XDSL_VALUE(name)                  \
    template <typename... Args>                  \
    inline uint64_t name(Args&&...)              \
    {                                            \
        return 0;                                \
    }
#define ASCEND_XDSL_VOID(name)     \
    template <typename... Args>    \
    inline void name(Args&&...) {}

// Intrinsics of the device compiler (bisheng) that the basic API for NPU architecture 2201
// calls: scalar, synchronisation, data movement, cube and vector instructions.
ASCEND_XDSL_VALUE(bcnt0) ASCEND_XDSL_VALUE(bcnt1) ASCEND_XDSL_VALUE(clz)
ASCEND_XDSL_VALUE(conv_f322f16o) ASCEND_XDSL_VALUE(conv_f322s32a)
ASCEND_XDSL_VALUE(conv_f322s32c) ASCEND_XDSL_VALUE(conv_f322s32f)
ASCEND_XDSL_VALUE(conv_f322s32r) ASCEND_XDSL_VALUE(create_cbuf_matrix)
// The forward Conv3D kernel's basic API calls these too (found compiling it, as above).
ASCEND_XDSL_VALUE(create_ca_matrix) ASCEND_XDSL_VALUE(create_cb_matrix)
ASCEND_XDSL_VALUE(load_gm_to_ca) ASCEND_XDSL_VALUE(load_gm_to_cb) ASCEND_XDSL_VALUE(load_gm_to_cbuf)
ASCEND_XDSL_VALUE(create_ca_matrix_bf16) ASCEND_XDSL_VALUE(create_cb_matrix_bf16)
ASCEND_XDSL_VALUE(create_cbuf_matrix_bf16)
ASCEND_XDSL_VALUE(get_acc_val) ASCEND_XDSL_VALUE(get_arch_ver) ASCEND_XDSL_VALUE(get_block_idx)
ASCEND_XDSL_VALUE(get_block_num) ASCEND_XDSL_VALUE(get_ctrl)
ASCEND_XDSL_VALUE(get_icache_prl_st) ASCEND_XDSL_VALUE(get_max_min_cnt)
ASCEND_XDSL_VALUE(get_pc) ASCEND_XDSL_VALUE(get_rsvd_cnt) ASCEND_XDSL_VALUE(get_st_atomic_cfg)
ASCEND_XDSL_VALUE(get_vms4_sr) ASCEND_XDSL_VALUE(ld_dev) ASCEND_XDSL_VALUE(sbitset0)
ASCEND_XDSL_VALUE(sbitset1) ASCEND_XDSL_VALUE(sff0) ASCEND_XDSL_VALUE(sff1)
ASCEND_XDSL_VALUE(sflbits)
ASCEND_XDSL_VOID(copy_cbuf_to_bt) ASCEND_XDSL_VOID(copy_cbuf_to_fbuf)
ASCEND_XDSL_VOID(copy_cbuf_to_gm) ASCEND_XDSL_VOID(copy_gm_to_cbuf)
ASCEND_XDSL_VOID(copy_gm_to_cbuf_multi_nd2nz_b16)
ASCEND_XDSL_VOID(copy_gm_to_cbuf_multi_nd2nz_b32s)
ASCEND_XDSL_VOID(copy_gm_to_cbuf_multi_nd2nz_b8) ASCEND_XDSL_VOID(copy_gm_to_ubuf)
ASCEND_XDSL_VOID(copy_gm_to_ubuf_align_b32) ASCEND_XDSL_VOID(copy_matrix_cc_to_gm)
ASCEND_XDSL_VOID(copy_ubuf_to_gm) ASCEND_XDSL_VOID(copy_ubuf_to_ubuf)
ASCEND_XDSL_VOID(dc_preload) ASCEND_XDSL_VOID(dcci) ASCEND_XDSL_VOID(dcci_dst_t)
ASCEND_XDSL_VOID(dsb) ASCEND_XDSL_VOID(ffts_cross_core_sync) ASCEND_XDSL_VOID(hset_flag)
ASCEND_XDSL_VOID(hwait_flag) ASCEND_XDSL_VOID(img2colv2_cbuf_to_ca)
ASCEND_XDSL_VOID(img2colv2_cbuf_to_ca_s4) ASCEND_XDSL_VOID(img2colv2_cbuf_to_cb)
ASCEND_XDSL_VOID(load_cbuf_to_ca) ASCEND_XDSL_VOID(load_cbuf_to_ca_s4)
ASCEND_XDSL_VOID(load_cbuf_to_cb) ASCEND_XDSL_VOID(load_cbuf_to_cb_s4)
ASCEND_XDSL_VOID(load_cbuf_to_cb_sp) ASCEND_XDSL_VOID(load_cbuf_to_cb_transpose_s4)
ASCEND_XDSL_VOID(mad) ASCEND_XDSL_VOID(mad_sp) ASCEND_XDSL_VOID(pipe_barrier)
ASCEND_XDSL_VOID(preload) ASCEND_XDSL_VOID(scatter_vnchwconv_b16)
ASCEND_XDSL_VOID(scatter_vnchwconv_b32) ASCEND_XDSL_VOID(scatter_vnchwconv_b8)
ASCEND_XDSL_VOID(set_aipp_spr_0) ASCEND_XDSL_VOID(set_aipp_spr_1)
ASCEND_XDSL_VOID(set_aipp_spr_18) ASCEND_XDSL_VOID(set_aipp_spr_19)
ASCEND_XDSL_VOID(set_aipp_spr_2) ASCEND_XDSL_VOID(set_aipp_spr_20)
ASCEND_XDSL_VOID(set_aipp_spr_21) ASCEND_XDSL_VOID(set_aipp_spr_3)
ASCEND_XDSL_VOID(set_aipp_spr_4) ASCEND_XDSL_VOID(set_aipp_spr_5)
ASCEND_XDSL_VOID(set_aipp_spr_6) ASCEND_XDSL_VOID(set_aipp_spr_7)
ASCEND_XDSL_VOID(set_aipp_spr_8) ASCEND_XDSL_VOID(set_aipp_spr_9)
ASCEND_XDSL_VOID(set_atomic_add) ASCEND_XDSL_VOID(set_atomic_bf16)
ASCEND_XDSL_VOID(set_atomic_f16) ASCEND_XDSL_VOID(set_atomic_f32)
ASCEND_XDSL_VOID(set_atomic_max) ASCEND_XDSL_VOID(set_atomic_min)
ASCEND_XDSL_VOID(set_atomic_none) ASCEND_XDSL_VOID(set_atomic_s16)
ASCEND_XDSL_VOID(set_atomic_s32) ASCEND_XDSL_VOID(set_atomic_s8) ASCEND_XDSL_VOID(set_cmpmask)
ASCEND_XDSL_VOID(set_ctrl) ASCEND_XDSL_VOID(set_data_exp_0) ASCEND_XDSL_VOID(set_data_exp_1)
ASCEND_XDSL_VOID(set_data_exp_2) ASCEND_XDSL_VOID(set_data_exp_3) ASCEND_XDSL_VOID(set_deqscale)
ASCEND_XDSL_VOID(set_ffts_base_addr) ASCEND_XDSL_VOID(set_flag) ASCEND_XDSL_VOID(set_fmatrix)
ASCEND_XDSL_VOID(set_fmatrix_b) ASCEND_XDSL_VOID(set_fpc) ASCEND_XDSL_VOID(set_l1_3d_size)
ASCEND_XDSL_VOID(set_l3d_rpt) ASCEND_XDSL_VOID(set_mask_count) ASCEND_XDSL_VOID(set_mask_norm)
ASCEND_XDSL_VOID(set_mov_pad_val) ASCEND_XDSL_VOID(set_nd_para) ASCEND_XDSL_VOID(set_padding)
ASCEND_XDSL_VOID(set_quant_pre) ASCEND_XDSL_VOID(set_st_atomic_cfg)
ASCEND_XDSL_VOID(set_va_reg_sb) ASCEND_XDSL_VOID(set_vector_mask) ASCEND_XDSL_VOID(st_dev)
ASCEND_XDSL_VOID(trap) ASCEND_XDSL_VOID(vabs) ASCEND_XDSL_VOID(vadd) ASCEND_XDSL_VOID(vadds)
ASCEND_XDSL_VOID(vand) ASCEND_XDSL_VOID(vbrcb) ASCEND_XDSL_VOID(vcadd) ASCEND_XDSL_VOID(vcgadd)
ASCEND_XDSL_VOID(vcgmax) ASCEND_XDSL_VOID(vcmax) ASCEND_XDSL_VOID(vcmpv_eq)
ASCEND_XDSL_VOID(vcmpv_ge) ASCEND_XDSL_VOID(vcmpv_gt) ASCEND_XDSL_VOID(vcmpv_le)
ASCEND_XDSL_VOID(vcmpv_lt) ASCEND_XDSL_VOID(vcmpv_ne) ASCEND_XDSL_VOID(vcmpvs_eq)
ASCEND_XDSL_VOID(vcmpvs_ge) ASCEND_XDSL_VOID(vcmpvs_gt) ASCEND_XDSL_VOID(vcmpvs_le)
ASCEND_XDSL_VOID(vcmpvs_lt) ASCEND_XDSL_VOID(vcmpvs_ne) ASCEND_XDSL_VOID(vconv_bf162f32)
ASCEND_XDSL_VOID(vconv_bf162s32a) ASCEND_XDSL_VOID(vconv_bf162s32c)
ASCEND_XDSL_VOID(vconv_bf162s32f) ASCEND_XDSL_VOID(vconv_bf162s32r)
ASCEND_XDSL_VOID(vconv_bf162s32z) ASCEND_XDSL_VOID(vconv_deq) ASCEND_XDSL_VOID(vconv_f162f32)
ASCEND_XDSL_VOID(vconv_f162s16a) ASCEND_XDSL_VOID(vconv_f162s16c)
ASCEND_XDSL_VOID(vconv_f162s16f) ASCEND_XDSL_VOID(vconv_f162s16r)
ASCEND_XDSL_VOID(vconv_f162s16z) ASCEND_XDSL_VOID(vconv_f162s32a)
ASCEND_XDSL_VOID(vconv_f162s32c) ASCEND_XDSL_VOID(vconv_f162s32f)
ASCEND_XDSL_VOID(vconv_f162s32r) ASCEND_XDSL_VOID(vconv_f162s32z) ASCEND_XDSL_VOID(vconv_f162s4)
ASCEND_XDSL_VOID(vconv_f162s4a) ASCEND_XDSL_VOID(vconv_f162s4c) ASCEND_XDSL_VOID(vconv_f162s4f)
ASCEND_XDSL_VOID(vconv_f162s4r) ASCEND_XDSL_VOID(vconv_f162s4z) ASCEND_XDSL_VOID(vconv_f162s8)
ASCEND_XDSL_VOID(vconv_f162s8a) ASCEND_XDSL_VOID(vconv_f162s8c) ASCEND_XDSL_VOID(vconv_f162s8f)
ASCEND_XDSL_VOID(vconv_f162s8r) ASCEND_XDSL_VOID(vconv_f162s8z) ASCEND_XDSL_VOID(vconv_f162u8)
ASCEND_XDSL_VOID(vconv_f162u8a) ASCEND_XDSL_VOID(vconv_f162u8c) ASCEND_XDSL_VOID(vconv_f162u8f)
ASCEND_XDSL_VOID(vconv_f162u8r) ASCEND_XDSL_VOID(vconv_f162u8z)
ASCEND_XDSL_VOID(vconv_f322bf16a) ASCEND_XDSL_VOID(vconv_f322bf16c)
ASCEND_XDSL_VOID(vconv_f322bf16f) ASCEND_XDSL_VOID(vconv_f322bf16r)
ASCEND_XDSL_VOID(vconv_f322bf16z) ASCEND_XDSL_VOID(vconv_f322f16)
ASCEND_XDSL_VOID(vconv_f322f16a) ASCEND_XDSL_VOID(vconv_f322f16c)
ASCEND_XDSL_VOID(vconv_f322f16f) ASCEND_XDSL_VOID(vconv_f322f16o)
ASCEND_XDSL_VOID(vconv_f322f16r) ASCEND_XDSL_VOID(vconv_f322f16z)
ASCEND_XDSL_VOID(vconv_f322f32a) ASCEND_XDSL_VOID(vconv_f322f32c)
ASCEND_XDSL_VOID(vconv_f322f32f) ASCEND_XDSL_VOID(vconv_f322f32r)
ASCEND_XDSL_VOID(vconv_f322f32z) ASCEND_XDSL_VOID(vconv_f322s16a)
ASCEND_XDSL_VOID(vconv_f322s16c) ASCEND_XDSL_VOID(vconv_f322s16f)
ASCEND_XDSL_VOID(vconv_f322s16r) ASCEND_XDSL_VOID(vconv_f322s16z)
ASCEND_XDSL_VOID(vconv_f322s32a) ASCEND_XDSL_VOID(vconv_f322s32c)
ASCEND_XDSL_VOID(vconv_f322s32f) ASCEND_XDSL_VOID(vconv_f322s32r)
ASCEND_XDSL_VOID(vconv_f322s32z) ASCEND_XDSL_VOID(vconv_f322s64a)
ASCEND_XDSL_VOID(vconv_f322s64c) ASCEND_XDSL_VOID(vconv_f322s64f)
ASCEND_XDSL_VOID(vconv_f322s64r) ASCEND_XDSL_VOID(vconv_f322s64z)
ASCEND_XDSL_VOID(vconv_s162f16) ASCEND_XDSL_VOID(vconv_s162f16a)
ASCEND_XDSL_VOID(vconv_s162f16c) ASCEND_XDSL_VOID(vconv_s162f16f)
ASCEND_XDSL_VOID(vconv_s162f16r) ASCEND_XDSL_VOID(vconv_s162f16z)
ASCEND_XDSL_VOID(vconv_s162f32) ASCEND_XDSL_VOID(vconv_s322f32) ASCEND_XDSL_VOID(vconv_s322f32a)
ASCEND_XDSL_VOID(vconv_s322f32c) ASCEND_XDSL_VOID(vconv_s322f32f)
ASCEND_XDSL_VOID(vconv_s322f32r) ASCEND_XDSL_VOID(vconv_s322f32z)
ASCEND_XDSL_VOID(vconv_s322s16) ASCEND_XDSL_VOID(vconv_s322s64) ASCEND_XDSL_VOID(vconv_s42f16)
ASCEND_XDSL_VOID(vconv_s642f32a) ASCEND_XDSL_VOID(vconv_s642f32c)
ASCEND_XDSL_VOID(vconv_s642f32f) ASCEND_XDSL_VOID(vconv_s642f32r)
ASCEND_XDSL_VOID(vconv_s642f32z) ASCEND_XDSL_VOID(vconv_s642s32) ASCEND_XDSL_VOID(vconv_s82f16)
ASCEND_XDSL_VOID(vconv_u82f16) ASCEND_XDSL_VOID(vcopy) ASCEND_XDSL_VOID(vdiv)
ASCEND_XDSL_VOID(vector_dup) ASCEND_XDSL_VOID(vexp) ASCEND_XDSL_VOID(vgather)
ASCEND_XDSL_VOID(vld_va_reg) ASCEND_XDSL_VOID(vln) ASCEND_XDSL_VOID(vmax)
ASCEND_XDSL_VOID(vmaxs) ASCEND_XDSL_VOID(vmin) ASCEND_XDSL_VOID(vmins) ASCEND_XDSL_VOID(vmul)
ASCEND_XDSL_VOID(vmulconv_f162s8) ASCEND_XDSL_VOID(vmulconv_f162u8) ASCEND_XDSL_VOID(vmuls)
ASCEND_XDSL_VOID(vnot) ASCEND_XDSL_VOID(vor) ASCEND_XDSL_VOID(vrec) ASCEND_XDSL_VOID(vreducev2)
ASCEND_XDSL_VOID(vsel) ASCEND_XDSL_VOID(vshr) ASCEND_XDSL_VOID(vsqrt) ASCEND_XDSL_VOID(vsub)
ASCEND_XDSL_VOID(vtranspose) ASCEND_XDSL_VOID(wait_flag) ASCEND_XDSL_VOID(wait_flag_dev)

// tikicpulib's hooks: the CPU-debug build's buffer and queue bookkeeping and its
// inter-block synchronisation, which the basic API calls under ASCENDC_CPU_DEBUG.
ASCEND_XDSL_VALUE(AscendCBufAbsAddr) ASCEND_XDSL_VALUE(AscendCBufAlloc)
ASCEND_XDSL_VALUE(AscendCBufGet) ASCEND_XDSL_VALUE(AscendCQueCreate)
ASCEND_XDSL_VOID(AscendCBufDeque) ASCEND_XDSL_VOID(AscendCBufEnque)
ASCEND_XDSL_VOID(AscendCBufFree) ASCEND_XDSL_VOID(AscendCBufInit)
ASCEND_XDSL_VOID(AscendCRecordPoolHierarchy) ASCEND_XDSL_VOID(AscendCTBufPoolInit)
ASCEND_XDSL_VOID(AscendCTBufPoolResetCheck) ASCEND_XDSL_VOID(AscendCUpdateTbufPoolStatus)
ASCEND_XDSL_VOID(__ib_set_stub) ASCEND_XDSL_VOID(__ib_wait_stub)
ASCEND_XDSL_VOID(__sync_all_stub)

#undef ASCEND_XDSL_VALUE
#undef ASCEND_XDSL_VOID

#endif
