"""The headless core stays headless: importing it (in a fresh interpreter) loads
neither textual nor rich, and the CLI's headless commands never load textual."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ANSWERS, ARTICLE, PAYMENTS_REGISTRY, PAYMENTS_REQUEST, ROOT

PURE_MODULES = [
    "inspector",
    "inspector.contract",
    "inspector.contract.checks",
    "inspector.contract.decode",
    "inspector.contract.jsonscan",
    "inspector.contract.models",
    "inspector.contract.text",
    "inspector.contract.verify",
    "inspector.suites",
    "inspector.suites.load",
    "inspector.suites.audit",
    "inspector.suites.manifest",
]

REPORT = """
import json, sys
{body}
print(json.dumps(sorted({{name.split(".")[0] for name in sys.modules}} & {{"textual", "rich"}})))
"""


def ui_modules_after(body: str) -> list[str]:
    """The UI packages present in sys.modules after running ``body`` in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", REPORT.format(body=body)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


class TestImports:
    def test_the_probe_sees_ui_packages(self):
        # The check itself works: importing rich shows up.
        assert ui_modules_after("import rich.text") == ["rich"]

    @pytest.mark.parametrize("module", PURE_MODULES)
    def test_core_module_imports_no_ui(self, module):
        assert ui_modules_after(f"import {module}") == []

    def test_public_api_usable_without_ui(self):
        body = (
            "import inspector\n"
            f"suite = inspector.load_suite({str(ARTICLE)!r})\n"
            "verdicts = [inspector.verify(c.raw, c.request, suite.registry) for c in suite.cases]\n"
            "[step.explanation for v in verdicts for step in v.explore()]\n"
            "from inspector.suites.audit import audit\n"
            "audit([suite]).to_dict('x')\n"
        )
        assert ui_modules_after(body) == []

    def test_cli_module_imports_no_textual(self):
        assert "textual" not in ui_modules_after("import inspector.cli")

    @pytest.mark.parametrize("argv", [
        ["check", "--request", str(PAYMENTS_REQUEST), "--registry", str(PAYMENTS_REGISTRY),
         str(ANSWERS / "stale-revision.json"), "--trace"],
        ["check", "--format", "json", "--request", str(PAYMENTS_REQUEST), "--registry", str(PAYMENTS_REGISTRY),
         str(ANSWERS / "accept.json")],
        ["audit", str(ARTICLE)],
        ["audit", "--format", "json", str(ARTICLE)],
        ["checks"],
    ], ids=["check", "check-json", "audit", "audit-json", "checks"])
    def test_headless_commands_never_load_textual(self, argv):
        body = (
            "import contextlib, io\n"
            "from inspector.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main({argv!r})\n"
        )
        assert "textual" not in ui_modules_after(body)
