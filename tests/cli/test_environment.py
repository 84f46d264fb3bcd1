"""COLUMNS and LINES that rich cannot read (``²`` passes ``str.isdigit``, then
``int`` raises; so do 4,301 digits): dropped before anything reads them, so a
report or the inspector starts instead of stopping with "internal error"."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from support import ROOT, decoded
from inspector.cli.environment import drop_unreadable_size_hints


@pytest.mark.parametrize("columns", ["²", "9" * 4301])
def test_a_report_prints_whatever_columns_says(columns):
    proc = subprocess.run([sys.executable, "-m", "inspector", "audit"], capture_output=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1", "COLUMNS": columns,
                               "LINES": "²"})
    out, err = decoded(proc)
    assert proc.returncode == 0, err
    assert "all verdicts match their frozen labels" in out and err == ""


def test_the_inspector_s_app_is_made_once_the_hints_are_dropped(monkeypatch):
    from inspector.suites.load import load_suite
    from inspector.tui.app import make_app

    monkeypatch.setenv("COLUMNS", "²")
    monkeypatch.setenv("LINES", "40")
    assert drop_unreadable_size_hints() == ["COLUMNS"]
    assert "COLUMNS" not in os.environ and os.environ["LINES"] == "40"
    make_app([load_suite(ROOT / "fixtures" / "article.json")])  # rich's console read COLUMNS: ValueError before
