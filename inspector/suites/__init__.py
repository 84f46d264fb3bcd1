"""Fixture suites: loading, audit and result manifests (no UI imports)."""

from .load import (
    Case,
    CaseError,
    LoadError,
    Suite,
    bundled_root,
    bundled_suite_paths,
    load_answer,
    load_registry,
    load_request,
    load_suite,
    load_suites,
    parse_label,
)

__all__ = [
    "Case",
    "CaseError",
    "LoadError",
    "Suite",
    "bundled_root",
    "bundled_suite_paths",
    "load_answer",
    "load_registry",
    "load_request",
    "load_suite",
    "load_suites",
    "parse_label",
]
