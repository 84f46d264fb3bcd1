"""The headless core stays headless, and the layers stay in their rooms.

- Importing any module of the package outside the TUI (in a fresh interpreter)
  loads neither textual nor rich; the list of modules is derived from the
  package, not written by hand.  The CLI's headless commands never load textual.
- The import graph, read statically (every ``import`` of every module, those
  inside functions included): the contract, the suites and the presentation
  layer import no UI; the TUI's widgets and screens import nothing of the
  contract's logic, only plain data types, the presentation layer and the TUI.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import inspector

from conftest import ANSWERS, ARTICLE, PAYMENTS_REGISTRY, PAYMENTS_REQUEST, ROOT

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
                       "inspector.presentation.pretty", "inspector.lab.mutations", "inspector.lab.mutate"):
            assert module in PURE_MODULES, module
        assert not [m for m in PURE_MODULES if m.startswith("inspector.tui")]

    def test_the_walk_sees_every_module(self):
        # A directory without __init__.py is a namespace package: pkgutil does not
        # walk into it (and setuptools' explicit package list would not ship it).
        unseen = sorted(set(module_files()) - set(package_modules()))
        assert not unseen, f"modules pkgutil.walk_packages does not find (a package without __init__.py?): {unseen}"

    @pytest.mark.parametrize("module", PURE_MODULES)
    def test_core_module_imports_no_ui(self, module):
        assert ui_modules_after(f"import {module}") == []

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
            "from inspector.suites.audit import audit\n"
            "audit([suite]).to_dict('x')\n"
            "from inspector.presentation.session import Session\n"
            "from inspector.presentation.selection import select\n"
            "session = Session([suite])\n"
            "[select(session.report(n), explore=True).ladder() for n in range(len(session))]\n"
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
    ], ids=["check", "check-json", "audit", "audit-json", "checks", "mutate", "mutate-json", "mutate-stryker"])
    def test_headless_commands_never_load_textual(self, argv):
        body = (
            "import contextlib, io\n"
            "from inspector.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main({argv!r})\n"
        )
        assert "textual" not in ui_modules_after(body)


# -- the import graph --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Import:
    module: str  # the importing module
    line: int
    target: str  # the module imported (a name imported from a package resolves to where it is defined)
    written: str  # the statement as written, for the failure message

    def __str__(self) -> str:
        path = source_of(self.module).relative_to(PACKAGE.parent)
        return f"{path}:{self.line}: {self.module} imports {self.target} ({self.written})"


FILES = module_files()
# The graph is read from the files, so that it covers a module the walk would miss.
MODULES = set(FILES)


def source_of(module: str) -> Path:
    package = PACKAGE.parent / module.replace(".", "/")
    return FILES.get(module, package / "__init__.py" if package.is_dir() else package.with_suffix(".py"))


def is_package(module: str) -> bool:
    return source_of(module).name == "__init__.py" or (PACKAGE.parent / module.replace(".", "/")).is_dir()


def absolute(module: str, level: int, name: str | None) -> str:
    """The absolute name of a (possibly relative) ``from`` import in ``module``."""
    if level == 0:
        return name or ""
    base = module if is_package(module) else module.rpartition(".")[0]
    for _ in range(level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{name}" if name else base


def raw_imports(module: str) -> list[tuple[int, str, str | None, str]]:
    """(line, module, name imported from it or None, statement) for every import of
    ``module``, wherever it is written (inside functions and TYPE_CHECKING too)."""
    tree = ast.parse(source_of(module).read_text("utf-8"), str(source_of(module)))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((node.lineno, alias.name, None, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom):
            origin = absolute(module, node.level, node.module)
            written = f"from {'.' * node.level}{node.module or ''} import "
            for alias in node.names:
                found.append((node.lineno, origin, alias.name, written + alias.name))
    return found


def reexports(package: str) -> dict[str, str]:
    """What a package's ``__init__`` imports from its modules: name -> defining module."""
    names: dict[str, str] = {}
    if package not in FILES:  # a namespace package re-exports nothing
        return names
    for _, origin, name, _ in raw_imports(package):
        if name is not None and origin in MODULES:
            names[name] = reexports(origin).get(name, origin) if is_package(origin) and origin != package \
                else origin
    return names


def imports_of(module: str) -> list[Import]:
    """Every import of ``module``, resolved: ``from pkg import mod`` is ``pkg.mod``,
    ``from pkg import Name`` is the module of ``pkg`` that defines ``Name``."""
    resolved = []
    for line, origin, name, written in raw_imports(module):
        target = origin
        if name is not None and origin in MODULES:
            if f"{origin}.{name}" in MODULES:
                target = f"{origin}.{name}"
            elif is_package(origin):
                target = reexports(origin).get(name, origin)
        resolved.append(Import(module, line, target, written))
    return resolved


def violations(packages: tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    return [str(item) for module in sorted(MODULES) if any(is_under(module, p) for p in packages)
            for item in imports_of(module) if any(is_under(item.target, f) for f in forbidden)]


CORE = ("inspector.contract", "inspector.suites", "inspector.presentation", "inspector.lab", "inspector.triage")
VIEWS = ("inspector.tui.widgets", "inspector.tui.screens")
# The contract's logic: a view is handed titles, tones and targets by the
# presentation layer instead.  Plain data types (contract.models, contract.text),
# the presentation layer, suites.load's types and the TUI itself are fine.
CONTRACT_LOGIC = (
    *(f"inspector.contract.{name}" for name in
      ("checks", "rules", "verify", "trace", "decode", "access", "evidence", "jsonscan")),
    *(f"inspector.suites.{name}" for name in ("audit", "lint", "manifest")),
    "inspector.cli",
)


class TestLayers:
    def test_the_reader_resolves_imports(self):
        # Relative, in a function, and names re-exported by a package.
        found = {(item.target, item.written) for item in imports_of("inspector.presentation.case")}
        assert ("inspector.contract.verify", "from ..contract.verify import verify") in found  # inside a method
        assert ("inspector.contract.trace", "from ..contract.trace import Step") in found
        assert reexports("inspector")["verify"] == "inspector.contract.verify"
        assert reexports("inspector")["Claim"] == "inspector.contract.models"
        assert reexports("inspector.contract")["Assessment"] == "inspector.contract.evidence"
        views = {item.target for module in MODULES if is_under(module, "inspector.tui.widgets")
                 for item in imports_of(module)}
        assert "inspector.presentation.selection" in views and "textual" in {t.split(".")[0] for t in views}

    def test_the_core_imports_no_ui(self):
        found = violations(CORE, ("inspector.tui", "inspector.cli", *UI_PACKAGES))
        assert not found, "the core imports the UI:\n" + "\n".join(found)

    def test_the_contract_imports_nothing_above_it(self):
        found = [str(item) for module in sorted(MODULES) if is_under(module, "inspector.contract")
                 for item in imports_of(module)
                 if is_under(item.target, "inspector") and not is_under(item.target, "inspector.contract")]
        assert not found, "the contract imports a layer above it:\n" + "\n".join(found)

    def test_views_import_none_of_the_contracts_logic(self):
        found = violations(VIEWS, CONTRACT_LOGIC)
        assert not found, "a widget or screen imports the contract's logic:\n" + "\n".join(found)

    def test_views_import_only_from_their_rooms(self):
        # The other side of the same rule: of the package, a view imports only plain
        # data types (the verdict is one), the presentation layer, suites.load and
        # the TUI; a module added to the contract later is not silently allowed.
        allowed = ("inspector.contract.models", "inspector.contract.text", "inspector.contract.verdict",
                   "inspector.presentation", "inspector.suites.load", "inspector.tui")
        found = [str(item) for module in sorted(MODULES) if any(is_under(module, v) for v in VIEWS)
                 for item in imports_of(module)
                 if is_under(item.target, "inspector") and not any(is_under(item.target, a) for a in allowed)]
        assert not found, "a widget or screen imports outside its rooms:\n" + "\n".join(found)
