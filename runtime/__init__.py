"""The numpy simulator of the dW kernel and its front door.

The public API: ``conv3d_weight`` / ``run_conv3d_weight`` (``runtime/api.py``), and the runner
they, ``ascend-conv`` and ``ascend-run`` share (``runtime/runner.py``): ``run`` a
``CompileJob`` (a problem with its ``CompileOptions``) or a ``ModuleJob`` (a module as it is)
with ``RunOptions``, getting one ``RunResult``.
"""

from ascend_xdsl.lowering.options import CompileOptions
from ascend_xdsl.runtime.api import Conv3dWeightResult, conv3d_weight, run_conv3d_weight
from ascend_xdsl.runtime.runner import CompileJob, ModuleJob, RunOptions, RunResult, run

__all__ = [
    "CompileJob",
    "CompileOptions",
    "Conv3dWeightResult",
    "ModuleJob",
    "RunOptions",
    "RunResult",
    "conv3d_weight",
    "run",
    "run_conv3d_weight",
]
