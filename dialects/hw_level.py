"""Placeholder until the hw-level ops land."""

from xdsl.irdl import IRDLOperation

OPS: tuple[type[IRDLOperation], ...] = ()
