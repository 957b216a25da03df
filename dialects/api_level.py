"""Placeholder until the api-level ops land."""

from xdsl.irdl import IRDLOperation

OPS: tuple[type[IRDLOperation], ...] = ()
