"""Placeholder until the format-level ops land."""

from xdsl.irdl import IRDLOperation

OPS: tuple[type[IRDLOperation], ...] = ()
