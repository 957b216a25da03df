"""Placeholder until the op-level ops land."""

from xdsl.irdl import IRDLOperation

OPS: tuple[type[IRDLOperation], ...] = ()
