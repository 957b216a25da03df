// check-ascendc --cann: CANN's platform header that asc-devkit's
// include/utils/tiling/platform/platform_ascendc.h includes first and that asc-devkit lacks
// (it comes from another CANN component). Written by ascend-xdsl; empty on purpose: the
// tiling API's platform header declares every name the host uses itself (fe::PlatFormInfos
// only by a forward declaration). See README.md here.
