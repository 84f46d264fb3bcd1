"""``Lab``: the lab of one main view, its three jobs in one object (``lab/__init__``'s docstring)."""

from __future__ import annotations

from .editing import Editing
from .mutating import Mutating
from .report import Report

__all__ = ["Lab"]


class Lab(Mutating, Editing, Report):
    """The lab of one main view: its keys, its state, its screens' results."""
