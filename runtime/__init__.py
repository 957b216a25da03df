"""The numpy simulator of the dW kernel: instructions, memories, flags, reference, interpreter."""

from ascend_xdsl.runtime.api import Conv3dWeightResult, conv3d_weight, run_conv3d_weight

__all__ = ["Conv3dWeightResult", "conv3d_weight", "run_conv3d_weight"]
