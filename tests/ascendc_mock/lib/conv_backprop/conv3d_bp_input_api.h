// Test-only CPU stand-in (see ../../README.md) of Conv3DBackpropInput: every call prints one
// line. Iterate models asc-devkit's depth walk (impl/adv_api/detail/conv_backprop/
// conv3d_backprop_input/conv3d_bp_input_func.h) and nothing else: SetSingleShape sets the single
// shape's Din to 1, the first Iterate after ctx.isFirstIter_ is set starts at the D start of
// SetStartPosition, each later one moves one depth on and is false past Din depths; the stand-in
// has one tile per depth (no M or N tiles), and GetTensorC prints the depth it writes. An
// Iterate after a false one without the isFirstIter_ reset aborts: asc-devkit's would carry on
// from the finished shape's loop indices. Init prints the tiling fields that decide the
// kernel's calls, as the kernel's copy of the host's structure holds them.
#ifndef ASCEND_XDSL_MOCK_CONV3D_BP_INPUT_API_H
#define ASCEND_XDSL_MOCK_CONV3D_BP_INPUT_API_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv_backprop/conv3d_bp_filter_api.h"  // ConvType, ConvFormat

namespace ConvBackpropApi {

template <class WEIGHT, class INPUT_SIZE, class GRAD_OUTPUT, class GRAD_INPUT>
struct Conv3DBackpropInput {
    using SrcT = typename WEIGHT::Type;
    using DstT = typename GRAD_INPUT::Type;
    struct {
        uint8_t isFirstIter_ = true;
    } ctx;
    uint32_t singleShapeDin = 1;
    uint32_t curDinStartIdx = 0;
    uint32_t curDinIdx = 0;
    bool finished = false;  // the last Iterate returned false

    void Init(const TConv3DBackpropInputTiling* t)
    {
        ctx.isFirstIter_ = true;
        std::printf("Init %u %u %u %u %u %u %u %llu %llu\n", t->batch, t->cin1G, t->baseM,
                    t->baseK, t->baseN, t->singleCoreDin, t->stepM,
                    static_cast<unsigned long long>(t->singleCoreM),
                    static_cast<unsigned long long>(t->singleCoreCin));
    }
    void SetGradOutput(const AscendC::GlobalTensor<SrcT>& t)
    {
        std::printf("SetGradOutput %llu\n", static_cast<unsigned long long>(t.offset));
    }
    void SetWeight(const AscendC::GlobalTensor<SrcT>& t)
    {
        std::printf("SetWeight %llu\n", static_cast<unsigned long long>(t.offset));
    }
    void SetSingleShape(uint64_t m, uint64_t k, uint32_t n)
    {
        singleShapeDin = 1;
        std::printf("SetSingleShape %llu %llu %u\n", static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(k), n);
    }
    void SetStartPosition(uint32_t din, int32_t ho)
    {
        curDinStartIdx = din;
        std::printf("SetStartPosition %u %d\n", din, ho);
    }
    template <bool sync = true>
    bool Iterate(bool = false)
    {
        if (ctx.isFirstIter_) {
            ctx.isFirstIter_ = false;
            finished = false;
            curDinIdx = curDinStartIdx;
            return true;
        }
        if (finished) {
            std::fprintf(stderr, "Iterate after a false Iterate without ctx.isFirstIter_ = true\n");
            std::abort();
        }
        finished = ++curDinIdx >= curDinStartIdx + singleShapeDin;
        return !finished;
    }
    template <bool sync = true>
    void GetTensorC(const AscendC::GlobalTensor<DstT>& t, uint8_t enAtomic = 0, bool = false)
    {
        std::printf("GetTensorC %llu %u %u\n", static_cast<unsigned long long>(t.offset), enAtomic,
                    curDinIdx);
    }
    void End() { std::printf("End\n"); }
};

}  // namespace ConvBackpropApi

#endif
