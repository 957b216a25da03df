// Test-only CPU stand-in (see ../../README.md) of the host tiling API: every Set* call prints
// one line with its arguments, and GetTiling hands back the values the test wrote into
// mock_tiling_values.h (MockTilingValues), serialised as the real optiling class does.
#ifndef ASCEND_XDSL_MOCK_CONV3D_BP_FILTER_TILING_H
#define ASCEND_XDSL_MOCK_CONV3D_BP_FILTER_TILING_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/conv_backprop/conv3d_bp_filter_api.h"
#include "mock_tiling_values.h"
#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {
enum class TPosition : int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC };
}

namespace ConvCommonApi {
using matmul_tiling::TPosition;
enum class ConvDtype : uint32_t { FLOAT16 = 0, FLOAT32, BF16 };
}  // namespace ConvCommonApi

namespace optiling {
struct Conv3DBackpropFilterTilingData {
    AscendC::tiling::Conv3DBackpropFilterTilingData data{};
    size_t GetDataSize() const { return sizeof(data); }
    void SaveToBuffer(void* p, size_t n) { std::memcpy(p, &data, n); }
};
}  // namespace optiling

namespace ConvBackpropApi {

class Conv3dBpFilterTiling {
public:
    explicit Conv3dBpFilterTiling(const platform_ascendc::PlatformAscendC&) {}
    void SetWeightType(ConvCommonApi::TPosition p, ConvCommonApi::ConvFormat f,
                       ConvCommonApi::ConvDtype d)
    {
        Type("SetWeightType", p, f, d);
    }
    void SetInputType(ConvCommonApi::TPosition p, ConvCommonApi::ConvFormat f,
                      ConvCommonApi::ConvDtype d)
    {
        Type("SetInputType", p, f, d);
    }
    void SetGradOutputType(ConvCommonApi::TPosition p, ConvCommonApi::ConvFormat f,
                           ConvCommonApi::ConvDtype d)
    {
        Type("SetGradOutputType", p, f, d);
    }
    void SetInputShape(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e)
    {
        Ints("SetInputShape", {a, b, c, d, e}, 5);
    }
    void SetGradOutputShape(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e)
    {
        Ints("SetGradOutputShape", {a, b, c, d, e}, 5);
    }
    void SetWeightShape(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e)
    {
        Ints("SetWeightShape", {a, b, c, d, e}, 5);
    }
    void SetPadding(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f)
    {
        Ints("SetPadding", {a, b, c, d, e, f}, 6);
    }
    void SetStride(int64_t a, int64_t b, int64_t c) { Ints("SetStride", {a, b, c}, 3); }
    void SetDilation(int64_t a, int64_t b, int64_t c) { Ints("SetDilation", {a, b, c}, 3); }
    int64_t GetTiling(optiling::Conv3DBackpropFilterTilingData& tiling)
    {
        std::printf("GetTiling\n");
        MockTilingValues(tiling.data);
        return 0;
    }

private:
    static void Type(const char* name, ConvCommonApi::TPosition p, ConvCommonApi::ConvFormat f,
                     ConvCommonApi::ConvDtype d)
    {
        std::printf("%s %d %d %d\n", name, static_cast<int>(p), static_cast<int>(f),
                    static_cast<int>(d));
    }
    static void Ints(const char* name, const int64_t (&v)[6], int n)
    {
        std::printf("%s", name);
        for (int i = 0; i < n; ++i) {
            std::printf(" %lld", static_cast<long long>(v[i]));
        }
        std::printf("\n");
    }
};

}  // namespace ConvBackpropApi

#endif
