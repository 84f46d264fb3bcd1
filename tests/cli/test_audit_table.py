"""``inspector audit``'s text tables (inspector.cli): codes and case ids stay whole
at every width, prose gives way with an ellipsis, and the least useful columns go
first when the terminal is narrow.

The tables are read back the way a person reads them: line by line, cell by cell
(``│`` separates the cells of a row)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from rich.cells import cell_len

from inspector.cli import main
from inspector.cli.audit import audit_columns
from inspector.cli.table import TableColumn, fit_columns, table_width
from inspector.contract.checks import CHECKS
from inspector.contract.text import visible
from inspector.reports.audit import Audit, audit
from inspector.suites.load import Suite, bundled_suite_paths, load_suites

from support import ARTICLE, GOOD, REQUEST_DICT, ROOT, SOURCES

WIDTHS = (180, 120, 100, 80, 60)


@dataclass
class Table:
    title: str
    header: list[str]  # the header cells, a cell's lines joined by a newline
    lines: list[list[str]] = field(default_factory=list)  # the body, a list of cells per printed line


def cells(line: str, bar: str) -> list[str]:
    return [cell.strip() for cell in line.split(bar)[1:-1]]


def tables(output: str) -> Iterator[Table]:
    """Every table in the output, with its title (the lines since the last table)."""
    lines = output.splitlines()
    title: list[str] = []
    for index, line in enumerate(lines):
        if not line.startswith("┏"):
            title = [] if line.startswith("└") else [*title, line.strip()]
            continue
        table = Table(" ".join(title), [])
        header: list[list[str]] = []
        for body in lines[index + 1:]:
            if body.startswith("┃"):
                header.append(cells(body, "┃"))
            elif body.startswith("│"):
                table.lines.append(cells(body, "│"))
            elif body.startswith("└"):
                break
        table.header = ["\n".join(part for part in column if part) for column in zip(*header)]
        yield table


@pytest.fixture(scope="module")
def bundled() -> tuple[list[Suite], Audit]:
    suites = load_suites(bundled_suite_paths())
    return suites, audit(suites)


def audit_output(width: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                 *suites: str) -> str:
    monkeypatch.setenv("COLUMNS", str(width))
    assert main(["audit", *suites]) == 0
    out = capsys.readouterr().out
    print(out)  # pytest -s shows what a person sees at this width
    return out


def case_rows(table: Table, ids: list[str]) -> list[list[list[str]]]:
    """The table's rows grouped per case: a case's id starts it, a stacked label continues it."""
    known = set(ids)
    grouped: list[list[list[str]]] = []
    for line in table.lines:
        if line[0] in known or not grouped:
            grouped.append([line])
        else:
            grouped[-1].append(line)
    return grouped


class TestEveryWidth:
    @pytest.mark.parametrize("width", WIDTHS)
    def test_no_line_is_wider_than_the_terminal(self, width, monkeypatch, capsys):
        out = audit_output(width, monkeypatch, capsys)
        too_wide = [line for line in out.splitlines() if cell_len(line) > width]
        assert not too_wide, too_wide[:3]

    @pytest.mark.parametrize("width", WIDTHS)
    def test_every_case_id_and_label_is_whole_in_its_row(self, width, bundled, monkeypatch, capsys):
        suites, result = bundled
        found = list(tables(audit_output(width, monkeypatch, capsys)))
        by_suite = {suite.name: [r for r in result.results if r.suite.name == suite.name] for suite in suites}
        assert [t.title.split(" (")[0] for t in found[:len(suites)]] == [s.name for s in suites]
        for table, suite in zip(found, suites):
            items = by_suite[suite.name]
            ids = [visible(item.id) for item in items]
            rows = case_rows(table, ids)
            # Each row opens with a whole id, in the suite's order; nothing folded onto a next line.
            assert [row[0][0] for row in rows] == ids
            for item, row in zip(items, rows):
                shown = {cell for line in row for cell in line}
                assert item.verdict.label in shown, (item.id, row)
                if "expected" in table.header:
                    assert (item.expected or "-") in shown, (item.id, row)
                assert len(row) <= 2  # the id, and the label under it on a narrow terminal

    @pytest.mark.parametrize("width", WIDTHS)
    def test_no_code_is_cut(self, width, bundled, monkeypatch, capsys):
        _, result = bundled
        codes = {check.code for check in CHECKS} | {"ACCEPT", "ANSWER", "ABSTAIN"}
        codes |= {item.verdict.label for item in result.results}
        codes |= {item.expected for item in result.results if item.expected}
        for table in tables(audit_output(width, monkeypatch, capsys)):
            for line in table.lines:
                for cell in line:
                    if re.fullmatch(r"[A-Z][A-Z0-9_/]+", cell):
                        assert cell in codes, (table.title, line)

    @pytest.mark.parametrize("width", WIDTHS)
    def test_the_ladder_and_first_failures_keep_their_codes(self, width, bundled, monkeypatch, capsys):
        _, result = bundled
        found = {t.title: t for t in tables(audit_output(width, monkeypatch, capsys))}
        total = len(result.results)
        ladder = found["the ladder: cases past each check"]
        assert [line[ladder.header.index("code")] for line in ladder.lines] == [
            row.check.code for row in result.summary.checks]
        assert [line[ladder.header.index("passed")] for line in ladder.lines] == [
            f"{row.passed}/{total}" for row in result.summary.checks]
        failures = found["first failures per check"]
        expected = [(row.check.code, str(row.failed)) for row in result.summary.checks if row.failed]
        assert [(line[failures.header.index("code")], line[failures.header.index("cases")])
                for line in failures.lines] == expected

    @pytest.mark.parametrize("width", WIDTHS)
    def test_a_shortened_first_failure_keeps_its_claim(self, width, bundled, monkeypatch, capsys):
        suites, result = bundled
        found = list(tables(audit_output(width, monkeypatch, capsys)))
        for table, suite in zip(found, suites):
            if "first failure" not in table.header:
                continue
            column = table.header.index("first failure")
            items = [r for r in result.results if r.suite.name == suite.name]
            for item, row in zip(items, case_rows(table, [visible(i.id) for i in items])):
                step = item.first_failure
                shown = row[0][column]
                if step is None:
                    assert shown == "-"
                    continue
                tail = f" [{step.claim}]" if step.claim is not None else ""
                whole = step.check.title + tail
                assert shown == whole or (shown.endswith("…" + tail)
                                          and whole.startswith(shown.removesuffix("…" + tail))), shown


class TestColumnsGiveWay:
    def headers(self, width, monkeypatch, capsys) -> list[str]:
        table = next(tables(audit_output(width, monkeypatch, capsys, str(ARTICLE))))
        return table.header

    def test_wide_shows_the_baselines(self, monkeypatch, capsys):
        assert self.headers(240, monkeypatch, capsys) == [
            "case", "expected", "actual", "match", "strict JSON", "citation-only", "first failure", "lens",
            "category", "blame"]

    def test_the_baselines_say_the_reports_words(self, monkeypatch, capsys):
        # The same words as the inspector's verdict panel: the report's baselines, not yes/no.
        table = next(tables(audit_output(240, monkeypatch, capsys, str(ARTICLE))))
        suite = load_suites([ARTICLE])[0]
        rows = {line[0]: line for line in table.lines}
        for case in suite.cases:
            baselines = {b.name: b.word for b in Audit([suite]).results[case.index].baselines}
            line = rows[visible(case.id)]
            for name in ("strict JSON", "citation-only"):
                assert line[table.header.index(name)] == baselines[name] in ("accept", "reject")

    def test_piped_default_keeps_what_the_code_does_not_say(self, monkeypatch, capsys):
        # strict JSON and citation-only follow from the actual label; they go first.
        assert self.headers(180, monkeypatch, capsys) == [
            "case", "expected", "actual", "match", "first failure", "lens", "category", "blame"]

    def test_narrow_keeps_case_actual_match(self, monkeypatch, capsys):
        headers = self.headers(80, monkeypatch, capsys)
        assert headers[:3] == ["case", "actual", "match"]
        assert "strict JSON" not in headers and "citation-only" not in headers

    def test_very_narrow_puts_the_label_under_the_id(self, monkeypatch, capsys):
        headers = self.headers(60, monkeypatch, capsys)
        assert headers[:2] == ["case\nactual", "match"]

    def test_below_the_longest_id_the_id_folds_rather_than_vanishes(self, monkeypatch, capsys):
        out = audit_output(30, monkeypatch, capsys, str(ARTICLE))
        assert all(cell_len(line) <= 30 for line in out.splitlines())
        table = next(tables(out))
        column = "".join(line[0] for line in table.lines)
        position = 0
        for case in load_suites([ARTICLE])[0].cases:
            position = column.index(case.id, position) + len(case.id)

    def test_the_bar_follows_the_width(self, bundled, monkeypatch, capsys):
        _, result = bundled
        total = len(result.results)

        def eighths(drawn: str) -> int:
            # A bar is full cells then at most one partial cell, to an eighth (as the TUI's).
            full = drawn.count("█")
            assert drawn[:full] == "█" * full and len(drawn) <= full + 1, drawn
            return 8 * full + (" ▏▎▍▌▋▊▉".index(drawn[full]) if len(drawn) > full else 0)

        def bars(width):
            ladder = next(t for t in tables(audit_output(width, monkeypatch, capsys))
                          if t.title.startswith("the ladder"))
            return [eighths(line[-1]) for line in ladder.lines]

        assert bars(180) == [round(8 * 30 * row.passed / total) for row in result.summary.checks]
        narrow = bars(80)
        assert 0 < max(narrow) < 8 * 30 and narrow == sorted(narrow, reverse=True)


class TestFitColumns:
    """The layout rule alone, on made-up widths: it knows nothing of cases."""

    COLUMNS = (
        TableColumn("id"),
        TableColumn("code", under="id"),
        TableColumn("note", priority=1, min_width=5),
        TableColumn("flag", priority=2),
        TableColumn("extra", priority=3),
    )
    NATURAL = {"id": 10, "code": 8, "note": 20, "flag": 4, "extra": 5}

    def fit(self, width):
        return fit_columns(self.COLUMNS, self.NATURAL, width)

    def test_everything_fits(self):
        layout = self.fit(200)
        assert layout.widths == self.NATURAL and not layout.under and not layout.folded

    def test_the_widths_add_up_to_the_table(self):
        for width in range(1, 80):
            layout = self.fit(width)
            if not layout.folded:
                assert table_width(layout.widths.values()) <= width

    def test_the_lowest_priority_goes_first(self):
        full = table_width(self.NATURAL.values())
        assert list(self.fit(full - 1).widths) == ["id", "code", "note", "flag"]

    def test_a_shortenable_column_takes_what_is_left(self):
        # id and code side by side take 25; note gets what is left after its own 3 (5, then 12).
        assert self.fit(33).widths == {"id": 10, "code": 8, "note": 5}
        assert self.fit(40).widths == {"id": 10, "code": 8, "note": 12}

    def test_a_narrow_column_fills_a_gap_a_wider_one_left(self):
        # note cannot fit at its minimum (5 + 3), flag (4 + 3) can.
        assert self.fit(32).widths == {"id": 10, "code": 8, "flag": 4}

    def test_whole_columns_are_never_shortened(self):
        for width in range(25, 80):
            layout = self.fit(width)
            for name in ("id", "code", "flag", "extra"):
                assert layout.widths.get(name, self.NATURAL[name]) == self.NATURAL[name]

    def test_stacks_when_the_essentials_do_not_fit_side_by_side(self):
        layout = self.fit(24)
        assert layout.under == {"code": "id"}
        assert layout.widths == {"id": 10, "note": 7}
        assert not layout.folded

    def test_folds_only_below_the_widest_essential(self):
        layout = self.fit(8)
        assert layout.folded and layout.under == {"code": "id"}
        assert layout.widths == {"id": 4}
        assert table_width(layout.widths.values()) == 8

    def test_audit_priorities_are_documented_in_the_cli_docs(self):
        readme = (ROOT / "docs" / "cli.md").read_text("utf-8")
        dropped = [c.header for c in sorted(audit_columns(), key=lambda c: -c.priority) if c.priority]
        paragraph = next(part for part in readme.split("\n\n") if "columns go first" in part)
        sentence = " ".join(paragraph.split()).split("columns go first", 1)[1]
        positions = [sentence.index(name) for name in dropped]
        assert positions == sorted(positions), sentence


class TestPipedWidth:
    def run(self, columns: str | None) -> str:
        env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
        if columns is not None:
            env["COLUMNS"] = columns
        proc = subprocess.run([sys.executable, "-m", "inspector", "audit", str(ARTICLE)], capture_output=True,
                              cwd=ROOT, timeout=60, env={**env, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"})
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.decode("utf-8")

    def test_without_columns_a_pipe_gets_180(self):
        widest = max(cell_len(line) for line in self.run(None).splitlines())
        assert 160 < widest <= 180

    def test_columns_is_obeyed_when_piped(self):
        assert max(cell_len(line) for line in self.run("70").splitlines()) <= 70


class TestLinesUnderTheTables:
    @pytest.mark.parametrize("width", WIDTHS)
    def test_each_figure_stays_with_its_name(self, width, monkeypatch, capsys):
        lines = audit_output(width, monkeypatch, capsys, str(ARTICLE)).splitlines()
        start = next(n for n, line in enumerate(lines) if line.startswith("summary  "))
        facts = lines[start:]
        for fact in ("22 cases", "strict JSON 17/22", "citation-only 13/22", "contract 3/22",
                     "citation-only false accepts 10", "mean retrieval recall 1.00"):
            assert any(fact in line for line in facts), (fact, facts)
        # Continuation lines hang under the text, not under the label.
        assert all(line.startswith(("summary  ", "lens     ", "blame    ", "abstain  ", " " * 9, "all verdicts"))
                   for line in facts), facts

    def test_a_differing_label_brings_expected_forward(self, tmp_path, monkeypatch, capsys):
        long_id = "a-case-with-a-long-enough-identifier"
        suite = tmp_path / "mine.json"
        suite.write_text(json.dumps({"sources": SOURCES, "cases": [
            {"id": "fine", "raw": GOOD, "request": REQUEST_DICT, "expected": "ACCEPT"},
            {"id": long_id, "raw": GOOD, "request": REQUEST_DICT, "expected": "NO_CITATION/QUOTE_NOT_FOUND"},
        ]}), "utf-8")
        monkeypatch.setenv("COLUMNS", "100")
        assert main(["audit", str(suite)]) == 1
        out = capsys.readouterr().out
        table = next(tables(out))
        assert table.header[:4] == ["case", "expected", "actual", "match"]
        assert [line[:4] for line in table.lines] == [
            ["fine", "ACCEPT", "ACCEPT", "✓"], [long_id, "NO_CITATION/QUOTE_NOT_FOUND", "ACCEPT", "✗ differs"]]
        monkeypatch.setenv("COLUMNS", "60")
        assert main(["audit", str(suite)]) == 1
        lines = capsys.readouterr().out.splitlines()
        at = next(n for n, line in enumerate(lines) if line.startswith(f"  mine/{long_id}: "))
        assert lines[at + 1].startswith("    ") and "NO_CITATION/QUOTE_NOT_FOUND, got ACCEPT" in lines[at + 1]

    def test_the_order_depends_on_whether_a_label_differs(self):
        natural = {"case": 40, "expected": 27, "actual": 27, "match": 9, "strict JSON": 11, "citation-only": 13,
                   "first failure": 27, "lens": 7, "category": 21, "blame": 10}
        width = table_width([40, 27, 9, 27])  # room for one more column beside the essentials
        assert "expected" in fit_columns(audit_columns(True), natural, width).widths
        assert "first failure" not in fit_columns(audit_columns(True), natural, width).widths
        assert "first failure" in fit_columns(audit_columns(False), natural, width).widths
        assert "expected" not in fit_columns(audit_columns(False), natural, width).widths
