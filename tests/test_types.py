"""The package type-checks: mypy (``[tool.mypy]`` in pyproject.toml, docs/architecture.md)
finds no error in inspector/, strict over the core floors and the presentation, the
untyped functions of the rest checked too.  Run as a user runs it (the virtualenv's
``python -m mypy`` from the checkout), with mypy's incremental cache (.mypy_cache/,
ignored by git): only the modules changed since the last run are checked again.

And every ``# type: ignore`` says which error it silences and why: its code
(mypy's ``ignore-without-code``), and a reason, after it on its line or in a
comment on the line above."""

from __future__ import annotations

import re
import subprocess
import sys

from support import ROOT

IGNORE = re.compile(r"#\s*type:\s*ignore\b(\[[^\]]*\])?(.*)$")


def test_mypy_finds_no_error() -> None:
    checked = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, f"mypy found errors:\n{checked.stdout}{checked.stderr}"
    assert checked.stdout.startswith("Success: no issues found")


def test_every_type_ignore_names_its_code_and_reason() -> None:
    unexplained = []
    for path in sorted((ROOT / "inspector").rglob("*.py")):
        lines = path.read_text("utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            found = IGNORE.search(line)
            if found is None:
                continue
            code, after = found.groups()
            above = lines[number - 2].strip() if number > 1 else ""
            if code is None or not (after.strip().startswith("#") or above.startswith("#")):
                unexplained.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not unexplained, "a type: ignore without its [code] and a reason:\n" + "\n".join(unexplained)
