"""The order of the bundled suites (inspector.suites.load.bundled_suite_paths): the
article's suite leads, since it is the headline, then the others by file name; the
inspector with no arguments and ``inspector audit`` with no suites both follow it."""

from __future__ import annotations

import json

import pytest

import inspector.cli.output
import inspector.tui.launch
from inspector.cli import main
from inspector.suites.load import Suite, bundled_suite_paths, load_suite, load_suites

from support import ARTICLE, SUITE_FILES

ARTICLE_IDS = [case.id for case in load_suite(ARTICLE).cases]


class TestBundledSuitePaths:
    def test_the_article_leads(self):
        assert bundled_suite_paths()[0].name == "article.json"

    def test_then_the_others_by_file_name(self):
        paths = bundled_suite_paths()
        assert sorted(paths) == sorted(SUITE_FILES)
        assert [p.name for p in paths[1:]] == sorted(p.name for p in SUITE_FILES if p.name != "article.json")

    def test_the_same_order_every_time(self):
        assert bundled_suite_paths() == bundled_suite_paths()


class TestTheDefaultSession:
    @pytest.fixture
    def opened(self, monkeypatch: pytest.MonkeyPatch) -> list[Suite]:
        """What ``inspector`` with no arguments hands to the UI."""
        seen: list[Suite] = []

        def open_suites(suites: list[Suite]) -> int:
            seen.extend(suites)
            return 0

        monkeypatch.setattr(inspector.tui.launch, "open_suites", open_suites)
        monkeypatch.setattr(inspector.cli.output, "isatty", lambda stream: True)  # as on a terminal
        assert main([]) == 0
        return seen

    def test_inspector_opens_the_article_first(self, opened):
        assert [suite.name for suite in opened] == [path.stem for path in bundled_suite_paths()]
        assert opened[0].name == "article"

    def test_the_first_case_is_the_articles_first(self, opened):
        from inspector.presentation.session import Session

        first = Session(opened).report(0)
        assert (first.suite.name, first.id) == ("article", ARTICLE_IDS[0])


class TestTheDefaultAudit:
    def test_json_lists_the_articles_cases_first(self, capsys):
        assert main(["audit", "--format", "json"]) == 0
        cases = json.loads(capsys.readouterr().out)["cases"]
        assert [(c["suite"], c["id"]) for c in cases[:len(ARTICLE_IDS)]] == [("article", i) for i in ARTICLE_IDS]
        order = [c["suite"] for c in cases]
        assert sorted(set(order), key=order.index) == [path.stem for path in bundled_suite_paths()]

    def test_the_first_table_is_the_articles(self, capsys):
        assert main(["audit"]) == 0
        assert capsys.readouterr().out.startswith("article (")

    def test_the_same_cases_as_the_suites_themselves(self, capsys):
        assert main(["audit", "--format", "json"]) == 0
        default = json.loads(capsys.readouterr().out)
        assert main(["audit", "--format", "json", *map(str, SUITE_FILES)]) == 0
        alphabetical = json.loads(capsys.readouterr().out)
        key = lambda c: (c["suite"], c["id"])  # noqa: E731
        assert sorted(default["cases"], key=key) == sorted(alphabetical["cases"], key=key)
        assert default["summary"] == alphabetical["summary"]
        assert [s.name for s in load_suites(SUITE_FILES)] != [s.name for s in load_suites(bundled_suite_paths())]
