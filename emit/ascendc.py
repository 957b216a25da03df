"""Ascend C from the API-level IR: the kernel, the host program and a CMake project for CANN.

The API level of the IR is the Ascend C ``Conv3DBackpropFilter`` API call for call
(``dialects/api_level.py``), so the compiler can write the source a CANN user would otherwise
write by hand. :func:`emit_project` walks an API-level module and returns the project's files:

* ``<kernel>.asc`` (``.cpp`` in the legacy build) — the ``func.func`` with ``ascend.kernel``,
  statement for statement: the
  ``ConvType<TPosition, ConvFormat, T>`` of each operand and the ``Conv3DBackpropFilter`` alias
  from the object's type, one ``GlobalTensor`` per kernel argument, ``ascend.get_block_idx`` as
  ``AscendC::GetBlockIdx()``, each ``arith`` op as one C++ expression, ``scf.for`` / ``scf.if``
  as ``for`` / ``if``, the ``scf.while`` around ``ascend.iterate`` as
  ``while (obj.Iterate()) { ... }`` and every other ``ascend.*`` call as the member call of the
  same name (``Init``, ``SetGradOutput``, ``SetInput``, ``SetSingleShape``,
  ``SetStartPosition``, ``GetTensorC`` with ``enAtomic``, ``End``);
* ``main.cpp`` — the host ``func.func``: the ``ascend.trans_data`` inputs read from files, the
  ``ascend.alloc_gm`` as a zeroed device buffer, and the ``ascend.launch`` as the tiling the
  vendor's tiling API gives for the IR's problem (``GetTiling``, the documented way; or, with
  ``--host-tiling fixed``, the kernel's ``#ascend.dw_tiling`` filled in field by field) and a
  launch on the launch's block count;
* ``CMakeLists.txt`` of the current asc-devkit examples (``.asc`` sources, ``find_package(ASC)``,
  the kernel's ``<<<>>>`` launch next to it) or, with ``--build legacy``, of the older
  kernel-invocation samples (``ascendc_library``), a ``README.md``, and ``data.py``, which
  makes the host's input files and checks its output file with this package's layouts, its
  reference check and CANN's precision standard (for the problem the launch's ``ascend.conv``
  names).

The parts: ``emit/kernel.py`` writes the kernel, ``emit/host.py`` the host, ``emit/files.py``
the build, README and data script, ``emit/common.py`` what they share; ``emit/project.py``
writes the folder and ``emit/check.py`` is ``check-ascendc``.

Every number in the emitted code comes from the IR (the tiling attribute, the constants, the
tensor types, the block count) or from the hardware description (``params.totalL1Size``, the
SoC name); the templates here hold only the fixed parts of the API. IR the emitter has no
spelling for is an :class:`EmitError` naming the op and the function it is in.

Sources: hicann/asc-devkit ``include/adv_api/conv_backprop/conv3d_bp_filter_intf.h`` (member
signatures), ``docs/zh/api/SIMD-API/高阶API/卷积计算/.../Conv3DBackpropFilter使用说明.md`` (the
call sequence, the ``ConvType`` aliases, ``Init(&tilingData->dwTiling)``), ``Iterate`` doc (the
``ctx.isFirstIter_`` reset between single shapes), ``kernel_tiling/kernel_tiling.h`` (the
``AscendC::tiling`` structs).
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from ascend_xdsl.dialects import api_level as api
from ascend_xdsl.dialects.launch import LaunchOp
from ascend_xdsl.dialects.types import GmTensorType
from ascend_xdsl.emit.common import (
    C_IDENTIFIER,
    CMAKE_FILE,
    DATA_FILE,
    FIXED_TILING_WARNING,
    HOST_FILE,
    HOST_TILING_FIXED,
    OPS_NN_OPERATOR,
    README_FILE,
    EmitError,
    EmitOptions,
    Project,
    camel_case,
    kernel_file,
    operands_line,
    tiling_fields,
)
from ascend_xdsl.emit.files import emit_cmake, emit_data_script, emit_readme
from ascend_xdsl.emit.host import emit_host
from ascend_xdsl.emit.kernel import emit_kernel

__all__ = [
    "HOST_FILE",
    "EmitError",
    "Project",
    "camel_case",
    "emit_project",
    "tiling_fields",
]


def find_launch(
    module: ModuleOp, create: type = api.CreateOp, api_name: str = "Conv3DBackpropFilter"
) -> tuple[func.FuncOp, LaunchOp, func.FuncOp]:
    """The host function, its one launch and the kernel it launches, which must make an
    ``api_name`` object (``create``)."""
    launches = [op for op in module.walk() if isinstance(op, LaunchOp)]
    if len(launches) != 1:
        raise EmitError(
            f"--emit ascendc needs exactly one ascend.launch at the API level, got {len(launches)}"
        )
    (launch,) = launches
    host = launch.parent_op()
    if not isinstance(host, func.FuncOp):
        raise EmitError("ascend.launch must be in a func.func")
    callee = launch.callee.string_value()
    kernel = next(
        (op for op in module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == callee),
        None,
    )
    if kernel is None:
        raise EmitError(f"ascend.launch of '{callee}', which is not in the module")
    if not any(isinstance(op, create) for op in kernel.walk()):
        raise EmitError(
            f"@{callee} makes no {api_name} object ({create.name}): --emit ascendc "  # type: ignore[attr-defined]
            "takes the API level"
        )
    return host, launch, kernel


def emit_project(
    module: ModuleOp, hw: str, command: str, options: EmitOptions | None = None
) -> Project:
    """The project of an API-level module; ``command`` is what to quote as its origin."""
    options = options or EmitOptions()
    host, launch, kernel = find_launch(module)
    name, program = kernel.sym_name.data, host.sym_name.data
    for symbol in (name, program):
        if not C_IDENTIFIER.match(symbol):
            raise EmitError(f"function name '{symbol}' is not a C identifier")
    options, warnings = _host_tiling(kernel, launch, options)
    kernel_text = emit_kernel(kernel, operands_line(launch), options.build)
    host_text = emit_host(host, launch, kernel, hw, options)
    data = emit_data_script(host)
    files = {
        kernel_file(name, options.build): kernel_text,
        HOST_FILE: host_text,
        CMAKE_FILE: emit_cmake(program, name, hw, options),
        README_FILE: emit_readme(program, name, launch, hw, command, data is not None, options),
        **({DATA_FILE: data} if data is not None else {}),
    }
    return Project(name, files, warnings, options.build)


def _host_tiling(
    kernel: func.FuncOp, launch: LaunchOp, options: EmitOptions
) -> tuple[EmitOptions, tuple[str, ...]]:
    """The host tiling to emit and what to warn about. The public tiling API takes neither
    groups > 1 (``CheckInputAttr`` rejects them) nor kD fused into N (it assumes separate
    Dk): such a layer gets the compiler's own tiling, with a warning naming the supported
    route."""
    if options.host_tiling == HOST_TILING_FIXED:
        return options, (FIXED_TILING_WARNING,)
    groups = max(
        (a.type.groups.data for a in launch.args if isinstance(a.type, GmTensorType)), default=1
    )
    init = next(op for op in kernel.walk() if isinstance(op, api.InitOp))
    outside = (
        f"groups {groups}"
        if groups > 1
        else "kD fused into N"
        if init.tiling.tiling.fused_dk
        else None
    )
    if outside is None:
        return options, ()
    why = (
        "CheckInputAttr rejects groups != 1"
        if groups > 1
        else "the public tiler assumes a separate Dk"
    )
    return replace(options, host_tiling=HOST_TILING_FIXED), (
        f"{outside} is outside what the public tiling API accepts ({why}): the host gets "
        f"--host-tiling fixed, the compiler's own tiling, which the docs do not support; the "
        f"supported route for this layer is {OPS_NN_OPERATOR}",
    )
