"""``lower-ascend-api-to-hw``: API level → hardware level (what Init, Iterate and GetTensorC do).

Each ``Conv3DBackpropFilter`` object made by ``ascend.create`` becomes the buffers ``Init``
allocates, and each ``while (iterate) { get_tensor_c }`` loop on it becomes the tile walk of
``Iterate`` and the loads, mmads and fixpipes it issues, as ``scf.for`` loops over hardware ops,
for the single shape set by the ``set_*`` calls before the loop in its block. Synchronisation is
not emitted here (``ascend-insert-sync`` derives it from the buffer accesses), nor are addresses
(``ascend-plan-buffers``).

One concept a module, in reading order:

* ``patterns.py``: the pass, a walk of small rewrite patterns, one per call to lower;
* ``calls.py``: how the patterns read the object's state through SSA (the private
  ``InitState`` op, the iterate loop, the single shape a loop's ``set_*`` calls set);
* ``buffers.py``: the buffers ``Init`` allocates;
* ``tile_walk.py``: the walk over the L0C tiles and k steps of one single shape;
* ``l1_loads.py``: the K blocks in A1 and B1 and the GM → L1 copies that fill them.
"""

from ascend_xdsl.lowering.lower_api_to_hw.patterns import LowerAscendApiToHwPass

__all__ = ["LowerAscendApiToHwPass"]
