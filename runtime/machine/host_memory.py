"""Host memory a full simulator run needs, checked before anything is allocated.

A full run holds every tensor of the problem several times: the 16-bit inputs, their global
memory copies in NDC1HWC0 / FRACTAL_Z_3D, the float32 decodes the machine reads
(``GmTensor.as_f32``) and the reference's float32 dW. Measured with ``tracemalloc`` on the
embedded default layer and on a 1x16x8x56x56 layer, the peak was 8.4 times the bytes of x, dy
and dW; :data:`RUN_FACTOR` is that ratio. A layer whose estimate exceeds the memory the machine
has available (``MemAvailable`` of ``/proc/meminfo``) is refused with a message that names the
size and points at the cost-only mode, instead of numpy's ``MemoryError`` half-way through (or
the machine swapping for an hour first).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

RUN_FACTOR = 8.5
"""Peak host bytes of a full run per byte of its problem's tensors (measured, see above)."""


class HostMemoryError(ValueError):
    """A run that would need more host memory than the machine has."""


def available_bytes() -> int | None:
    """The memory the machine can give a new allocation without swapping, or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def tensor_bytes(tensors: Iterable[tuple[Sequence[int], int]]) -> int:
    """Bytes of ``(shape, element size)`` tensors."""
    return sum(math.prod(shape) * size for shape, size in tensors)


def _gib(n: float) -> str:
    return f"{n / 2**30:,.1f} GiB"


def check_host_bytes(needed: int, what: str, hint: str, available: int | None = None) -> None:
    """Raise :class:`HostMemoryError` if ``needed`` bytes (for ``what``) exceed the memory
    available (``available``, default: :func:`available_bytes`); ``hint`` says what to do."""
    free = available_bytes() if available is None else available
    if free is not None and needed > free:
        raise HostMemoryError(
            f"{what} needs about {_gib(needed)} of host memory, this machine has {_gib(free)} "
            f"available: {hint}"
        )
