// check-ascendc --cann: KERNEL_TASK_TYPE_DEFAULT as CANN's precompile pass defines it, included
// before the kernel source. Written by ascend-xdsl; see README.md here.
//
// In an ordinary compile the tree's macro expands to nothing
// (impl/basic_api/utils/kernel_utils_macros.h, ENABLE_FEATURE_FOR_COMPILE); the build's
// precompile pass (cmake/asc/legacy_modules/device_precompile_project, with
// __CHECK_FEATURE_AT_PRECOMPILE) expands it to a variable initialised with the kernel type, so
// an unknown type fails there. That define changes other parts of the basic API too, so the
// check takes only this macro from it (the tree's header leaves a macro defined first alone).
#ifndef ASCEND_XDSL_PRELUDE_KERNEL_TYPE_H
#define ASCEND_XDSL_PRELUDE_KERNEL_TYPE_H
#define __PLUGIN__KERNEL_TASK_TYPE_DEFAULT_DEFINED__
#define KERNEL_TASK_TYPE_DEFAULT(value) auto __enable_feature_for_compile_default = value
#endif
