// check-ascendc --cann: the tiling-data registration of CANN's metadef component
// (hicann/metadef inc/external/register/tilingdata_base.h), which the tiling API's
// *_tilingdata.h headers include and asc-devkit lacks. Written by ascend-xdsl, declarations of
// the public interface only: each BEGIN_TILING_DATA_DEF class has set_/get_ per field, its
// struct fields as members, and TilingDef's SaveToBuffer and GetDataSize. See README.md here.
#ifndef ASCEND_XDSL_PRELUDE_TILINGDATA_BASE_H
#define ASCEND_XDSL_PRELUDE_TILINGDATA_BASE_H

#include <cstddef>
#include <cstdint>

namespace optiling {

class TilingDef {
public:
    void SaveToBuffer(void* pdata, size_t capacity);
    size_t GetDataSize() const;
    const char* GetTilingClassName() const;
    void SetDataPtr(void* dataPtr);
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)   \
    class class_name : public TilingDef {   \
    public:                                 \
        class_name();                       \
        explicit class_name(void* ptr);

#define TILING_DATA_FIELD_DEF(data_type, field_name)   \
public:                                                \
    void set_##field_name(data_type field_name);       \
    data_type get_##field_name();

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name) \
public:                                                           \
    void set_##field_name(arr_type* field_name);                  \
    arr_type* get_##field_name();

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name) \
public:                                                       \
    struct_type field_name{nullptr};

#define END_TILING_DATA_DEF \
    }                       \
    ;

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)

#endif
