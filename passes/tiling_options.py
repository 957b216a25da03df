"""The values the tiler's ``strategy`` and ``dk`` options accept, defined once.

``ascend-tile-conv3d-bp-filter`` (``passes/tile_conv3d_bp_filter.py``) branches on them, and the
front door (``lowering/pipeline.py``) checks ``compile()``'s options against them before any pass
is resolved. They sit in a module of their own so that the pipeline can read them without
importing the tiler: the pipeline reaches every pass through the registry only, so a broken pass
fails the stage that needs it, not the import of the front door.
"""

STRATEGIES: tuple[str, ...] = ("heuristic", "fixed")
"""``heuristic``: the vendor host tiler re-derived; ``fixed``: a tiling given in a file."""

DK_MODES: tuple[str, ...] = ("separate", "fused")
"""``separate``: a kd driver loop in the kernel; ``fused``: kD folded into the GEMM's N."""
