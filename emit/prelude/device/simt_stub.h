// check-ascendc --cann: tikicpulib's SIMT stand-ins, which the basic API includes
// (include/simt_api/device_types.h) and a Cube kernel does not use. Written by ascend-xdsl;
// empty on purpose: see README.md here.
