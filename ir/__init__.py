"""What every layer above the dialects needs of IR, without the simulator: parsing with source
locations (``locations``), dominance of SSA values (``dominance``), the dW problem behind an
entry function (``program``), the printer base that turns structured control flow and index
arithmetic into another language's source (``structured_printer``: the compiled executor's
Python and the emitter's C++), and reading an input file that a user names (``files``: a tiling
file, a layers file, an emitted project's sources), and the cycle collector's settings while
IR is built and thrown away in bulk (``collector``: compiles, simulations, tiling candidates).
The simulator, the Ascend C emitter and
``ascend-opt`` use them, so they live below all three."""
