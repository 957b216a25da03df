"""The two executors of a lowered program: xDSL's interpreter with functions for every ``ascend``
op (the reference) and the compiled executor that translates each kernel into Python once (the
default). Both drive the machine of ``runtime/machine/`` and give bit-identical results."""
