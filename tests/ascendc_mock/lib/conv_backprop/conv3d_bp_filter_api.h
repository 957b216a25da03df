// Test-only CPU stand-in (see ../../README.md): every call prints one line. Iterate returns
// true once per single shape, so GetTensorC prints once per shape.
#ifndef ASCEND_XDSL_MOCK_CONV3D_BP_FILTER_API_H
#define ASCEND_XDSL_MOCK_CONV3D_BP_FILTER_API_H

#include <cstdint>
#include <cstdio>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

namespace ConvCommonApi {
enum class ConvFormat : uint8_t { ND = 0, NCHW, NHWC, HWCN, DHWNC, DHWCN, NDHWC, NCDHW, NC1HWC0,
                                  NDC1HWC0, FRACTAL_Z_3D, MAX };
}

namespace ConvBackpropApi {

template <AscendC::TPosition POSITION, ConvCommonApi::ConvFormat FORMAT, typename T>
struct ConvType {
    using Type = T;
};

template <class A, class B, class C, class D>
struct Conv3DBackpropFilter {
    using SrcT = typename A::Type;
    using DstT = typename D::Type;
    struct {
        bool isFirstIter_ = true;
    } ctx;
    bool pending = false;

    void Init(const TConv3DBpFilterTiling* t)
    {
        std::printf("Init %u %u %u %u %u %u %llu %llu\n", t->batch, t->cin1G, t->baseM, t->baseK,
                    t->baseN, t->bl1Bound, static_cast<unsigned long long>(t->singleCoreBatch),
                    static_cast<unsigned long long>(t->singleCoreCin));
    }
    void SetGradOutput(const AscendC::GlobalTensor<SrcT>& t)
    {
        pending = true;
        std::printf("SetGradOutput %llu\n", static_cast<unsigned long long>(t.offset));
    }
    void SetInput(const AscendC::GlobalTensor<SrcT>& t)
    {
        pending = true;
        std::printf("SetInput %llu\n", static_cast<unsigned long long>(t.offset));
    }
    void SetSingleShape(uint64_t m, uint64_t n, uint64_t k)
    {
        pending = true;
        std::printf("SetSingleShape %llu %llu %llu\n", static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(n), static_cast<unsigned long long>(k));
    }
    void SetStartPosition(uint32_t ho)
    {
        pending = true;
        std::printf("SetStartPosition %u\n", ho);
    }
    template <bool sync = true>
    bool Iterate(bool = false)
    {
        const bool more = pending;
        pending = false;
        return more;
    }
    template <bool sync = true>
    void GetTensorC(const AscendC::GlobalTensor<DstT>& t, uint8_t enAtomic = 1, bool = false)
    {
        std::printf("GetTensorC %llu %u\n", static_cast<unsigned long long>(t.offset), enAtomic);
    }
    void End() { std::printf("End\n"); }
};

}  // namespace ConvBackpropApi

#endif
