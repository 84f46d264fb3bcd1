"""The headless core stays headless, and the layers stay in their rooms.

- Importing any module of the package outside the TUI (in a fresh interpreter)
  loads neither textual nor rich; the list of modules is derived from the
  package, not written by hand.  The CLI's headless commands never load textual.
- The floors (``[tool.importlinter]`` in pyproject.toml, docs/architecture.md):
  import-linter reads every import of every module, those inside functions
  included, and each floor imports only the floors below it; the core imports
  no UI library; widgets and screens none of the contract's logic.  A copy of
  the package with one import up a floor shows the check fails.
- No module uses another module's private names (``_name``).
"""

from __future__ import annotations

import ast
import json
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import inspector

from support import ANSWERS, ARTICLE, PAYMENTS_REGISTRY, PAYMENTS_REQUEST, ROOT

PACKAGE = Path(inspector.__file__).parent
UI_PACKAGES = ("textual", "rich")


def package_modules() -> list[str]:
    """Every module and package of ``inspector``, found by walking the package."""
    found = [info.name for info in pkgutil.walk_packages(inspector.__path__, "inspector.")]
    return ["inspector", *sorted(found)]


def module_files() -> dict[str, Path]:
    """Every module of the package by its source file: what the walk should find."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def is_under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


# The UI may import textual; the CLI may import rich for a progress display (a
# test below holds its headless commands to not loading textual); __main__ is the
# CLI run as ``python -m inspector``, and importing it runs the command.
NOT_PURE = ("inspector.tui", "inspector.cli", "inspector.__main__")
PURE_MODULES = [m for m in package_modules() if not any(is_under(m, outside) for outside in NOT_PURE)]

REPORT = """
import json, sys
{body}
print(json.dumps(sorted({{name.split(".")[0] for name in sys.modules}} & {{"textual", "rich"}})))
"""


FIRST_UI = """
import importlib, json, sys
found = {{}}
for module in {modules!r}:
    before = {{name.split(".")[0] for name in sys.modules}} & {{"textual", "rich"}}
    importlib.import_module(module)
    after = {{name.split(".")[0] for name in sys.modules}} & {{"textual", "rich"}}
    if after - before:
        found[module] = sorted(after - before)
print(json.dumps(found))
"""


def first_ui_imports(modules: list[str]) -> dict[str, list[str]]:
    """Per module that brought one in, the UI packages that appeared in
    sys.modules when it was imported, the modules imported in turn in one
    fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", FIRST_UI.format(modules=modules)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


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

    def test_the_pure_modules_are_derived_from_the_package(self):
        # The walk finds every layer, those the hand-written list used to miss included.
        for module in ("inspector", "inspector.contract.rules", "inspector.contract.trace", "inspector.suites.lint",
                       "inspector.presentation.session", "inspector.presentation.selection",
                       "inspector.presentation.pretty", "inspector.lab.mutations", "inspector.lab.mutation_testing"):
            assert module in PURE_MODULES, module
        assert not [m for m in PURE_MODULES if m.startswith("inspector.tui")]

    def test_the_walk_sees_every_module(self):
        # A directory without __init__.py is a namespace package: pkgutil does not
        # walk into it (and setuptools' explicit package list would not ship it).
        unseen = sorted(set(module_files()) - set(package_modules()))
        assert not unseen, f"modules pkgutil.walk_packages does not find (a package without __init__.py?): {unseen}"

    def test_no_core_module_imports_ui(self):
        # One interpreter imports the core modules one after another, noting the
        # first that brings in a UI package (a fresh interpreter for each of the
        # 70 took half a minute of the suite); the import contracts in
        # pyproject.toml say the same statically, import by import.
        assert first_ui_imports(PURE_MODULES) == {}

    def test_the_probe_names_the_module_that_brings_in_the_ui(self):
        modules = ["inspector.contract.text", "rich.text", "inspector.triage.tally"]
        assert first_ui_imports(modules) == {"rich.text": ["rich"]}

    def test_building_the_parser_starts_no_engine(self):
        # Every command builds the whole parser first: what it imports, each command pays.
        body = ("from inspector.cli.parser import build_parser\nbuild_parser()\n"
                "engines = sorted(m for m in sys.modules if m.startswith('inspector.triage.') "
                "or m in ('multiprocessing', 'concurrent.futures'))\n"
                "assert not engines, engines")
        assert ui_modules_after(body) == []

    def test_import_inspector_stays_free_of_the_tui(self):
        body = "import inspector\nassert 'inspector.tui' not in sys.modules, sorted(sys.modules)"
        assert ui_modules_after(body) == []

    def test_public_api_usable_without_ui(self):
        body = (
            "import inspector\n"
            f"suite = inspector.load_suite({str(ARTICLE)!r})\n"
            "verdicts = [inspector.verify(c.raw, c.request, suite.registry) for c in suite.cases]\n"
            "[step.explanation for v in verdicts for step in inspector.explain(v).explore()]\n"
            "[inspector.assess(v).category for v in verdicts]\n"
            "from inspector.reports.audit import audit\n"
            "audit([suite]).to_dict('x')\n"
            "from inspector.presentation.session import Session\n"
            "from inspector.presentation.selection import select\n"
            "session = Session([suite])\n"
            "[select(session.report(n), explore=True).check_rows() for n in range(len(session))]\n"
            "session.summary().to_dict()\n"
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
        ["mutate", str(ARTICLE)],
        ["mutate", "--format", "json", str(ARTICLE)],
        ["mutate", "--format", "stryker", str(ARTICLE)],
        ["synth", "{tmp}/app.jsonl.gz", "--lines", "50", "--registry", "{tmp}/registry.json"],
    ], ids=["check", "check-json", "audit", "audit-json", "checks", "mutate", "mutate-json", "mutate-stryker",
            "synth"])
    def test_headless_commands_never_load_textual(self, argv, tmp_path):
        argv = [arg.format(tmp=tmp_path) for arg in argv]  # a command that writes, writes into tmp_path
        body = (
            "import contextlib, io\n"
            "from inspector.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main({argv!r}) in (0, 1)\n"
        )
        assert "textual" not in ui_modules_after(body)


# -- the floors ----------------------------------------------------------------------


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter's contracts of pyproject.toml, over the package found under ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()", "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
                          capture_output=True, text=True, cwd=root, env=env, timeout=120)


class TestFloors:
    def test_every_contract_is_kept(self):
        proc = lint_imports(ROOT)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "0 broken" in proc.stdout

    @pytest.mark.parametrize(("module", "line", "broken"), [
        ("contract/text.py", "from ..reports import case", "The floors"),
        ("lab/history.py", "from ..triage import timeline", "The floors"),
        ("reports/tones.py", "import rich.text", "UI library"),
        ("tui/widgets/checks_panel.py", "from ...contract import rules", "Widgets and screens"),
    ], ids=["contract-up", "lab-to-triage", "core-rich", "widget-logic"])
    def test_an_import_that_breaks_a_floor_is_caught(self, tmp_path, module, line, broken):
        shutil.copytree(PACKAGE, tmp_path / "inspector", ignore=shutil.ignore_patterns("__pycache__"))
        target = tmp_path / "inspector" / module
        target.write_text(target.read_text("utf-8") + f"\n{line}\n", "utf-8")
        proc = lint_imports(tmp_path)
        assert proc.returncode != 0, proc.stdout
        assert f"{broken}" in proc.stdout and "BROKEN" in proc.stdout, proc.stdout


def import_cycles(package: str, root: Path) -> list[list[str]]:
    """Every set of modules of ``package`` (under ``root``) that import each other
    round in a circle, those inside functions and TYPE_CHECKING included."""
    import grimp

    sys.path.insert(0, str(root))
    try:
        graph = grimp.build_graph(package, include_external_packages=False, cache_dir=None)
    finally:
        sys.path.remove(str(root))
    edges = {module: sorted(graph.find_modules_directly_imported_by(module)) for module in graph.modules}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in edges[module]:
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(edges):
        if module not in order:
            visit(module)
    return cycles


class TestCircles:
    def test_the_reader_finds_a_circle(self, tmp_path):
        package = tmp_path / "circled"
        package.mkdir()
        (package / "__init__.py").write_text("", "utf-8")
        (package / "a.py").write_text("from . import b\n", "utf-8")
        (package / "b.py").write_text("def f():\n    from . import a\n", "utf-8")
        (package / "c.py").write_text("from . import a\n", "utf-8")
        assert import_cycles("circled", tmp_path) == [["circled.a", "circled.b"]]

    def test_no_modules_import_each_other_in_a_circle(self):
        assert import_cycles("inspector", ROOT) == []


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(module: str, path: Path, modules: dict[str, Path]) -> list[str]:
    """Where ``module`` uses another module's private name: ``from m import _x``,
    or ``m._x`` with ``m`` an imported module of the package."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    aliases: dict[str, str] = {}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            origin = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
            if not is_under(origin, "inspector"):
                continue
            for alias in node.names:
                if f"{origin}.{alias.name}" in modules:
                    aliases[alias.asname or alias.name] = f"{origin}.{alias.name}"
                elif is_private(alias.name) and origin != module:
                    found.append(f"{where}:{node.lineno}: {alias.name} from {origin}")
        elif isinstance(node, ast.Import):
            aliases.update({alias.asname: alias.name for alias in node.names
                            if alias.asname and is_under(alias.name, "inspector")})
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases \
                and is_private(node.attr):
            found.append(f"{where}:{node.lineno}: {aliases[node.value.id]}.{node.attr}")
    return found


class TestPrivateNames:
    def test_the_reader_finds_a_private_use(self, tmp_path):
        path = tmp_path / "probe.py"
        path.write_text("from .logs import _open\nfrom . import cli\ncli._error('x')\n", "utf-8")
        modules = {"inspector.triage.logs": path, "inspector.triage.cli": path}
        found = private_uses("inspector.triage.probe", path, modules)
        assert [line.split(": ", 1)[1] for line in found] == ["_open from inspector.triage.logs",
                                                             "inspector.triage.cli._error"]

    def test_no_module_uses_another_modules_private_names(self):
        modules = module_files()
        found = [use for module, path in modules.items() for use in private_uses(module, path, modules)]
        assert not found, "private names used across modules:\n" + "\n".join(found)
