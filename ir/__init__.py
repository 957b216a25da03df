"""Queries on parsed or built IR that every layer above the dialects needs: parsing with source
locations (``locations``), dominance of SSA values (``dominance``) and the dW problem behind an
entry function (``program``). The simulator, the Ascend C emitter and ``ascend-opt`` use them, so
they live below all three."""
