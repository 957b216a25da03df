"""The simulated AI Core: its memories, the values the IR's types become at run time, what each
instruction does to the bytes (the numpy semantics), event flags, the synchronisation sanitizer
and the iteration budget. The executors (``runtime/executors/``) drive a :class:`core.Core`; the
cost model (``runtime/cost/``) observes it."""
