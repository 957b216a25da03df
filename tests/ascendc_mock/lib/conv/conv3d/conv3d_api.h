// Test-only CPU stand-in (see ../../../README.md) of the Conv3D (forward) API: every public
// member the emitted kernel calls prints one line. IterateAll models asc-devkit's walk
// (impl/adv_api/detail/conv/conv3d/conv3d_common_func.h, IterateAllBase) and nothing else: an
// Iterate per L0 tile of the last SetSingleOutputShape, singleDo depths (ddr2l1LoopD) times
// ceil(singleM / mL0) times ceil(singleCo / nL0), each followed by a GetTensorC; it prints the
// output offset, that tile count and whether SetBias enabled the bias (the bias is loaded once
// when the tiling's biasFullLoadFlag is set). An IterateAll before SetInput and SetWeight
// aborts. Init prints the tiling fields that decide the kernel's calls, as the kernel's copy of
// the host's structure holds them.
#ifndef ASCEND_XDSL_MOCK_CONV3D_API_H
#define ASCEND_XDSL_MOCK_CONV3D_API_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv/common/conv_common.h"

namespace ConvApi {

template <AscendC::TPosition POSITION, ConvCommonApi::ConvFormat FORMAT, typename TYPE>
struct ConvType {
    using T = TYPE;
};

}  // namespace ConvApi

namespace Conv3dApi {

using biasType = ConvApi::ConvType<AscendC::TPosition::GM, ConvCommonApi::ConvFormat::ND, float>;

template <class INPUT, class WEIGHT, class OUTPUT, class BIAS = biasType>
struct Conv3D {
    using InputT = typename INPUT::T;
    using WeightT = typename WEIGHT::T;
    using OutputT = typename OUTPUT::T;
    using BiasT = typename BIAS::T;

    uint64_t mL0 = 1;
    uint64_t nL0 = 1;
    uint64_t singleCo = 0;
    uint64_t singleDo = 0;
    uint64_t singleM = 0;
    bool input = false;
    bool weight = false;
    bool enableBias = false;
    uint64_t tiles = 0;

    void Init(const void* tiling)
    {
        const auto* t = static_cast<const AscendC::tiling::TConv3DApiTiling*>(tiling);
        mL0 = t->mL0;
        nL0 = t->nL0;
        input = weight = enableBias = false;
        std::printf("Init %llu %u %llu %u %u %u %u\n",
                    static_cast<unsigned long long>(t->singleCoreDo), t->singleCoreCo,
                    static_cast<unsigned long long>(t->singleCoreM), t->mL0, t->kL0, t->nL0,
                    static_cast<unsigned>(t->biasFullLoadFlag));
    }
    void SetInput(const AscendC::GlobalTensor<InputT>& t)
    {
        input = true;
        AscendC::MockTensorCall("SetInput", t);
    }
    void SetWeight(const AscendC::GlobalTensor<WeightT>& t)
    {
        weight = true;
        AscendC::MockTensorCall("SetWeight", t);
    }
    void SetBias(const AscendC::GlobalTensor<BiasT>& t)
    {
        enableBias = true;
        AscendC::MockTensorCall("SetBias", t);
    }
    void SetSingleOutputShape(uint64_t co, uint64_t dout, uint64_t m)
    {
        singleCo = co;
        singleDo = dout;
        singleM = m;
        std::printf("SetSingleOutputShape %llu %llu %llu\n", static_cast<unsigned long long>(co),
                    static_cast<unsigned long long>(dout), static_cast<unsigned long long>(m));
    }
    void SetInputStartPosition(int64_t di, int64_t m)
    {
        std::printf("SetInputStartPosition %lld %lld\n", static_cast<long long>(di),
                    static_cast<long long>(m));
    }
    template <bool sync = true>
    void IterateAll(const AscendC::GlobalTensor<OutputT>& t, bool = false)
    {
        if (!input || !weight) {
            std::fprintf(stderr, "IterateAll before SetInput and SetWeight\n");
            std::abort();
        }
        tiles = 0;
        while (Iterate()) {
            GetTensorC();
        }
        std::printf("IterateAll %llu %llu %d\n", static_cast<unsigned long long>(t.offset),
                    static_cast<unsigned long long>(tiles), enableBias ? 1 : 0);
    }
    void End() { std::printf("End\n"); }

private:
    uint64_t walked = 0;  // the tiles Iterate has started in this IterateAll

    bool Iterate()
    {
        const uint64_t all = singleDo * ((singleM + mL0 - 1) / mL0) * ((singleCo + nL0 - 1) / nL0);
        if (walked == all) {
            walked = 0;  // IterateAll's isFirstIterate reset
            return false;
        }
        ++walked;
        return true;
    }
    void GetTensorC() { ++tiles; }
};

}  // namespace Conv3dApi

#endif
