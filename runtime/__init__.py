"""The numpy simulator of the dW kernel and its front door.

The public API: ``conv3d_weight`` / ``run_conv3d_weight`` (``runtime/api.py``), and the runner
they, ``ascend-conv`` and ``ascend-run`` share (``runtime/runner.py``): ``run`` a
``CompileJob`` (a problem with its ``CompileOptions``) or a ``ModuleJob`` (a module as it is)
with ``RunOptions``, getting one ``RunResult``.

The training-step drop-in (``Conv3d``, ``Conv3dFunction``, ``conv3d_autograd``,
``replace_conv3d``: ``runtime/autograd.py``) imports torch, an optional dependency, so it is
exported lazily: importing the runtime never imports torch, the first use of one of its names
does.
"""

from typing import Any

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

_TORCH_NAMES = ("Conv3d", "Conv3dFunction", "conv3d_autograd", "replace_conv3d")


def __getattr__(name: str) -> Any:
    if name in _TORCH_NAMES:
        from ascend_xdsl.runtime import autograd

        return getattr(autograd, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
