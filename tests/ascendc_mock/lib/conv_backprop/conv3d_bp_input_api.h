// Test-only CPU stand-in (see ../../README.md) of Conv3DBackpropInput: every call prints one
// line. Iterate returns true once per single shape, so GetTensorC prints once per shape; Init
// prints the tiling fields that decide the kernel's calls, as the kernel's copy of the host's
// structure holds them.
#ifndef ASCEND_XDSL_MOCK_CONV3D_BP_INPUT_API_H
#define ASCEND_XDSL_MOCK_CONV3D_BP_INPUT_API_H

#include <cstdint>
#include <cstdio>

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
    bool pending = false;

    void Init(const TConv3DBackpropInputTiling* t)
    {
        std::printf("Init %u %u %u %u %u %u %u %llu %llu\n", t->batch, t->cin1G, t->baseM,
                    t->baseK, t->baseN, t->singleCoreDin, t->stepM,
                    static_cast<unsigned long long>(t->singleCoreM),
                    static_cast<unsigned long long>(t->singleCoreCin));
    }
    void SetGradOutput(const AscendC::GlobalTensor<SrcT>& t)
    {
        pending = true;
        std::printf("SetGradOutput %llu\n", static_cast<unsigned long long>(t.offset));
    }
    void SetWeight(const AscendC::GlobalTensor<SrcT>& t)
    {
        pending = true;
        std::printf("SetWeight %llu\n", static_cast<unsigned long long>(t.offset));
    }
    void SetSingleShape(uint64_t m, uint64_t k, uint32_t n)
    {
        pending = true;
        std::printf("SetSingleShape %llu %llu %u\n", static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(k), n);
    }
    void SetStartPosition(uint32_t din, int32_t ho)
    {
        pending = true;
        std::printf("SetStartPosition %u %d\n", din, ho);
    }
    template <bool sync = true>
    bool Iterate(bool = false)
    {
        const bool more = pending;
        pending = false;
        return more;
    }
    template <bool sync = true>
    void GetTensorC(const AscendC::GlobalTensor<DstT>& t, uint8_t enAtomic = 0, bool = false)
    {
        std::printf("GetTensorC %llu %u\n", static_cast<unsigned long long>(t.offset), enAtomic);
    }
    void End() { std::printf("End\n"); }
};

}  // namespace ConvBackpropApi

#endif
