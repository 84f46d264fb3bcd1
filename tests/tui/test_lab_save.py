"""The lab's repair view (x) and save form (s) on the main screen: the repair of the
case as shown as a diff that Enter applies, the retrieval case said plainly, and
saving the case as shown into a counterexample file, every refusal in the form
with the file intact, the saved case opened with its provenance."""

from __future__ import annotations

import errno
import json
import os
import shutil
from functools import partial
from pathlib import Path

import pytest
from textual.widgets import Input

from support import ARTICLE, FIXTURES, run_main
from inspector import __version__
from inspector.contract.version import VERIFIER
from inspector.lab.mutations import MUTATIONS_BY_NAME, answer_of
from inspector.lab.repair import repair
from inspector.lab.save import COUNTEREXAMPLES, parent_sha256, save_case
from inspector.presentation.repair_view import MAX_LINE, RepairView
from inspector.presentation.save_form import SaveForm
from inspector.suites.load import load_suite
from inspector.tui import keys
from inspector.tui.app import make_app
from inspector.tui.screens.help import help_markdown
from inspector.tui.screens.repair import RepairScreen
from inspector.tui.scenes import keep_toasts, steady_cursors
from inspector.tui.screens.save import SaveScreen
from inspector.tui.tones import TEXT, Tone
from support.tui import flowing, hidden_characters, inspecting, number_of, open_id, verdict_text

ARTICLE_SUITE = load_suite(ARTICLE)
CONFLICTS = load_suite(FIXTURES / "conflicts.json")
HOSTILE = load_suite(FIXTURES / "hostile.json", strict=False)
DECODE = load_suite(FIXTURES / "decode.json", strict=False)


def case_of(suite, case_id):
    return next(case for case in suite.cases if case.id == case_id)


def mutant(report, name: str, claim: int | None = 0):
    answer = answer_of(report.case.raw, report.case.request, report.suite.registry)
    return next(MUTATIONS_BY_NAME[name].mutants(answer, claim))


async def settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def mutate(pilot, name: str) -> None:
    from inspector.tui.messages import AnswerChanged

    main = pilot.app.main
    main.post_message(AnswerChanged(mutant(main.selection.report, name).change()))
    await pilot.pause()


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector).render())


def spans_of(screen, selector: str) -> list[tuple[str, str]]:
    """(text, style) of every styled piece a Static draws."""
    content = screen.query_one(selector).render()
    return [(content.plain[span.start:span.end], str(span.style)) for span in content.spans]


# -- repair --------------------------------------------------------------------------------


class TestRepair:
    async def test_the_diff_of_a_rejected_case_and_enter_makes_it_accept(self):
        async with inspecting([ARTICLE_SUITE], "real-quote-wrong-value") as pilot:
            main = pilot.app.main
            frozen = main.selection.report
            assert frozen.actual == "VALUE_MISMATCH" and main.applies("repair") is True
            await pilot.press("x")
            screen = pilot.app.screen
            assert isinstance(screen, RepairScreen)
            head, body = text_of(screen, "#repair-head"), text_of(screen, "#repair-body")
            assert "now VALUE_MISMATCH (claims[0])" in head
            assert "1 edit makes it ACCEPT" in head
            fix = repair(frozen.case.raw, frozen.case.request, ARTICLE_SUITE.registry)
            assert body.splitlines() == list(fix.diff_lines())
            removed = [line for line in body.splitlines() if line.startswith("- ")]
            added = [line for line in body.splitlines() if line.startswith("+ ")]
            assert removed and added and removed[0].startswith("- claims[0].value")
            styles = spans_of(screen, "#repair-body")
            assert (removed[0][2:], TEXT[Tone.BAD]) in styles  # the failure colour
            assert (added[0][2:], TEXT[Tone.GOOD]) in styles  # the success colour
            await pilot.press("enter")
            await pilot.pause()
            assert pilot.app.screen is main
            report = main.selection.report
            assert report.actual == "ACCEPT" and report.parent is frozen
            history = pilot.app.session.history(main.browse.current)
            assert len(history.changes) == 1 and history.position == 1  # one change
            change = history.changes[0]
            assert change.what == "repair: 1 edit"
            assert change.records == tuple(edit.to_dict() for edit in fix.edits)
            assert "was VALUE_MISMATCH, now ACCEPT" in flowing(verdict_text(pilot.app))
            # now accepted: nothing left to repair, and u undoes the repair
            assert main.applies("repair") is None
            await pilot.press("u")
            assert main.selection.report is frozen

    async def test_the_repair_is_of_the_case_as_shown(self):
        """After a mutation the repair undoes that mutation's damage: two edits, recorded after it."""
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            main = pilot.app.main
            await mutate(pilot, "value.perturb")
            await mutate(pilot, "quote.other_source")
            edited = main.selection.report
            assert edited.actual != "ACCEPT"
            await pilot.press("x")
            screen = pilot.app.screen
            assert isinstance(screen, RepairScreen)
            expected = repair(edited.case.raw, edited.case.request, ARTICLE_SUITE.registry)
            assert len(expected.edits) == 2 and "2 edits make it ACCEPT" in text_of(screen, "#repair-head")
            await pilot.press("enter")
            await pilot.pause()
            assert main.selection.report.actual == "ACCEPT"
            history = pilot.app.session.history(main.browse.current)
            assert history.applied[-1].what == "repair: 2 edits"
            assert history.records == ("value.perturb", "quote.other_source",
                                       *(edit.to_dict() for edit in expected.edits))

    async def test_retrieval_s_rejection_is_said_plainly_and_enter_changes_nothing(self):
        async with inspecting([CONFLICTS], "retrieval-supplied-nothing-relevant") as pilot:
            main = pilot.app.main
            frozen = main.selection.report
            await pilot.press("x")
            screen = pilot.app.screen
            assert isinstance(screen, RepairScreen)
            said = flowing(text_of(screen, "#repair-head") + " " + text_of(screen, "#repair-body"))
            assert ("no eligible source was supplied for read_timeout_ms, retry_enabled: this rejection is "
                    "retrieval's, and no edit of the answer can fix it") in said
            assert "read_timeout_ms: ops-prod-v2, wiki-prod-v2 would support it but were not supplied" in said
            assert "retry_enabled: ops-prod-v2, wiki-prod-v2 would support it but were not supplied" in said
            assert screen.check_action("apply", ()) is None  # Enter greyed in the footer
            await pilot.press("enter")
            await pilot.pause()
            assert pilot.app.screen is screen
            await pilot.press("escape")
            assert pilot.app.screen is main and main.selection.report is frozen
            assert not pilot.app.session.history(main.browse.current).changes

    async def test_x_is_greyed_on_an_accepted_case_whose_repair_is_empty(self):
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            main = pilot.app.main
            assert main.applies("repair") is None
            await pilot.press("x")
            assert pilot.app.screen is main
            view = RepairView.of(main.selection.report)
            assert view.repair.empty and not view.applies and view.change() is None and view.lines == ()

    async def test_escape_dismisses_without_a_change(self):
        async with inspecting([ARTICLE_SUITE], "omitted-field") as pilot:
            main = pilot.app.main
            frozen = main.selection.report
            for close in ("escape", "x"):
                await pilot.press("x")
                assert isinstance(pilot.app.screen, RepairScreen)
                await pilot.press(close)
                assert pilot.app.screen is main and main.selection.report is frozen
            assert not pilot.app.session.history(main.browse.current).changes

    async def test_a_long_diff_scrolls_and_its_lines_are_bounded(self):
        """An oversized answer is rewritten whole: the diff is longer than the view."""
        async with inspecting([DECODE], "size-8193-units-too-large") as pilot:
            await pilot.press("x")
            screen = pilot.app.screen
            assert isinstance(screen, RepairScreen)
            scroll = screen.query_one("#repair-diff")
            await pilot.pause()
            assert scroll.max_scroll_y > 0 and scroll.has_focus
            await pilot.press("end")
            await pilot.pause()
            assert scroll.scroll_y == scroll.max_scroll_y > 0
            lines = text_of(screen, "#repair-body").splitlines()
            assert lines[0].startswith("- the answer ") and "more characters)" in lines[0]
            assert len(lines[0]) < MAX_LINE + 60
            await pilot.press("enter")
            await pilot.pause()
            assert pilot.app.main.selection.report.actual == "ACCEPT"

    async def test_untrusted_text_in_the_diff_is_shown_literally(self):
        async with inspecting([HOSTILE], "osc52-quote-not-found") as pilot:
            await pilot.press("x")
            screen = pilot.app.screen
            body = text_of(screen, "#repair-body")
            assert "\\u001b]52;c;SGVsbG8=\\u0007" in body and not hidden_characters(body)
        async with inspecting([HOSTILE], "click-markup-value-as-rendered") as pilot:
            await pilot.press("x")
            body = text_of(pilot.app.screen, "#repair-body")
            assert '+ claims[0].value "[@click=app.quit]5000[/]"' in body
            assert pilot.app.is_running


# -- save ----------------------------------------------------------------------------------


async def open_form(pilot) -> SaveScreen:
    await pilot.press("s")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, SaveScreen)
    return screen


def fill(screen: SaveScreen, **fields: str) -> None:
    for field, value in fields.items():
        screen.query_one(f"#save-{field}", Input).value = value


async def submit(pilot) -> None:
    await pilot.press("enter")
    await settle(pilot)


def status(screen: SaveScreen) -> str:
    return flowing(text_of(screen, "#save-status"))


def save_direct(path: Path, case_id: str, parent: str = "complete-answer") -> None:
    case = case_of(ARTICLE_SUITE, parent)
    save_case(path, ARTICLE_SUITE, case, case.raw, "ACCEPT", None, case_id, [], __version__)


class TestSave:
    async def test_a_new_file_with_the_provenance_of_the_edits_in_order(self, tmp_path):
        target = tmp_path / "mine.json"
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            await mutate(pilot, "value.perturb")
            await mutate(pilot, "quote.other_line")
            shown = pilot.app.main.selection.report
            screen = await open_form(pilot)
            assert "save the edited case" in str(screen.query_one("#save").border_title)
            assert screen.value("id") == "complete-answer.quote.other_line"
            assert screen.value("expected") == shown.actual == "VALUE_MISMATCH"
            assert screen.value("path") == "counterexamples.json"
            fill(screen, path=str(target), note="perturbed, then another line")
            await submit(pilot)
            assert status(screen).startswith(f"saved complete-answer.quote.other_line into {target} (1 case)")
            assert pilot.app.screen is screen  # the form stays, offering to open the file
        document = json.loads(target.read_text("utf-8"))
        assert document["kind"] == COUNTEREXAMPLES
        (case,) = document["cases"]
        frozen = case_of(ARTICLE_SUITE, "complete-answer")
        assert case["raw"] == shown.case.raw and case["expected"] == "VALUE_MISMATCH"
        assert case["note"] == "perturbed, then another line"
        assert case["provenance"] == {
            "parent_suite": "article", "parent_case": "complete-answer", "parent_sha256": parent_sha256(frozen.raw),
            "edits": ["value.perturb", "quote.other_line"], "inspector_version": __version__,
            "verifier": VERIFIER}

    async def test_served_the_case_is_a_download_and_nothing_is_written(self, tmp_path, monkeypatch):
        # inspector serve: Textual's web driver (is_web); the browser gets the file, the server's disk nothing
        from textual.app import App

        delivered = []
        monkeypatch.setattr(App, "is_web", property(lambda app: True))
        monkeypatch.setattr(App, "deliver_binary", lambda app, data, **how: delivered.append((data.read(), how)))
        monkeypatch.chdir(tmp_path)
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            await mutate(pilot, "value.perturb")
            screen = await open_form(pilot)
            assert "the browser downloads" in screen.query_one("#save-path", Input).placeholder
            fill(screen, path="../../etc/mine.json", note="served")
            await submit(pilot)
            assert status(screen).startswith("offered complete-answer.value.perturb as a download: mine.json")
        assert list(tmp_path.iterdir()) == []
        ((data, how),) = delivered
        assert how == {"save_filename": "mine.json", "open_method": "download", "mime_type": "application/json"}
        written = tmp_path / "written.json"
        save_direct(written, "complete-answer.value.perturb")
        document, direct = json.loads(data), json.loads(written.read_text("utf-8"))
        assert document["kind"] == COUNTEREXAMPLES and document["sources"] == direct["sources"]
        (case,) = document["cases"]
        assert case["note"] == "served" and case["provenance"]["edits"] == ["value.perturb"]

    async def test_enter_after_saving_opens_the_saved_case_with_its_provenance(self, tmp_path):
        target = tmp_path / "mine.json"
        async with inspecting([ARTICLE_SUITE], "real-quote-wrong-value") as pilot:
            main = pilot.app.main
            await pilot.press("x", "enter")
            await pilot.pause()
            screen = await open_form(pilot)
            assert screen.value("id") == "real-quote-wrong-value.repair"
            fill(screen, path=str(target))
            await submit(pilot)
            await submit(pilot)  # Enter again: open it
            assert pilot.app.screen is main
            report = main.selection.report
            assert report.suite.path == target and report.id == "real-quote-wrong-value.repair"
            assert report.actual == "ACCEPT" and report.parent is None
            text = flowing(verdict_text(pilot.app))
            assert "saved from article / real-quote-wrong-value · 1 edit: change claims[0].value" in text
            assert f"parent sha256 {parent_sha256(case_of(ARTICLE_SUITE, 'real-quote-wrong-value').raw)[:12]}" in text
            # the next save proposes the same file, and an id not yet in it
            open_id(pilot.app, "real-quote-wrong-value", "article")
            await pilot.pause()
            screen = await open_form(pilot)
            assert screen.value("path") == str(target)
            assert screen.value("id") == "real-quote-wrong-value.repair-2"

    async def test_saving_twice_into_an_open_file_grows_it_instead_of_copying_it(self, tmp_path):
        target = tmp_path / "mine.json"
        async with inspecting([ARTICLE_SUITE], "real-quote-wrong-value") as pilot:
            main, session = pilot.app.main, pilot.app.session
            for case_id in ("real-quote-wrong-value", "omitted-field"):
                open_id(pilot.app, case_id, "article")
                await pilot.pause()
                await mutate(pilot, "claim.duplicate")
                screen = await open_form(pilot)
                fill(screen, path=str(target))
                await submit(pilot)
                await submit(pilot)  # Enter again: open it
                assert pilot.app.screen is main
            ids = [session.ids[n] for n in range(len(session)) if session._rows[n][0].path == target]
            assert ids == ["real-quote-wrong-value.claim.duplicate", "omitted-field.claim.duplicate"]
            assert [suite.path for suite in session.suites].count(target) == 1
            assert main.selection.report.id == "omitted-field.claim.duplicate"
            assert session.suite_size(main.selection.report.suite) == 2
            # Opening it once more finds it open.
            before = len(session)
            main.add_suite(load_suite(target))
            await pilot.pause()
            assert len(session) == before and main.selection.report.suite.path == target

    async def test_append_to_a_counterexample_file_keeps_its_cases(self, tmp_path):
        target = tmp_path / "mine.json"
        save_direct(target, "first")
        before = json.loads(target.read_text("utf-8"))["cases"]
        async with inspecting([ARTICLE_SUITE], "omitted-field") as pilot:
            await mutate(pilot, "claim.duplicate")
            screen = await open_form(pilot)
            fill(screen, path=str(target))
            await submit(pilot)
            assert f"into {target} (2 cases)" in status(screen)
        cases = json.loads(target.read_text("utf-8"))["cases"]
        assert cases[0] == before[0] and cases[1]["id"] == "omitted-field.claim.duplicate"
        assert cases[1]["provenance"]["edits"] == ["claim.duplicate"]

    async def test_an_unedited_case_is_saved_as_a_copy_without_edits(self, tmp_path):
        target = tmp_path / "mine.json"
        async with inspecting([ARTICLE_SUITE], "prod-v1-claims") as pilot:
            screen = await open_form(pilot)
            assert "copy of the frozen case" in str(screen.query_one("#save").border_title)
            assert "unedited" in text_of(screen, "#save-head")
            assert screen.value("id") == "prod-v1-claims.copy"
            fill(screen, path=str(target))
            await submit(pilot)
            assert "saved prod-v1-claims.copy" in status(screen)
        (case,) = load_suite(target).cases
        assert case.provenance.edits == () and case.expected == "STALE_REVISION"

    async def test_a_bundled_suite_is_refused_in_the_form(self, bundled_tree, tmp_path):
        (tmp_path / "mine").symlink_to(bundled_tree / "payments")
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            screen = await open_form(pilot)
            for path, place in ((ARTICLE, "fixtures/article.json"), (FIXTURES / "new.json", "fixtures/new.json"),
                                (FIXTURES / "payments" / "answers" / "new.json", "fixtures/payments/answers/new.json"),
                                (FIXTURES / "registries" / "new.json", "fixtures/registries/new.json"),
                                (tmp_path / "mine" / "new.json", "fixtures/payments/new.json")):
                fill(screen, path=str(path))
                await submit(pilot)
                assert pilot.app.screen is screen
                assert f"is inside the bundled fixtures ({place}); write elsewhere" in status(screen)

    async def test_a_foreign_suite_is_refused_and_its_bytes_kept(self, tmp_path):
        foreign = tmp_path / "article.json"
        shutil.copy(ARTICLE, foreign)
        before = foreign.read_bytes()
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            screen = await open_form(pilot)
            fill(screen, path=str(foreign), id="my-id", note="kept")
            await submit(pilot)
            message = status(screen)
            assert "not a counterexample file inspector created" in message and "refusing to write" in message
            assert "Traceback" not in message
            # nothing to type again: the fields are as they were
            assert (screen.value("id"), screen.value("note")) == ("my-id", "kept")
        assert foreign.read_bytes() == before

    async def test_an_existing_id_is_refused_then_fixed_in_place(self, tmp_path):
        target = tmp_path / "mine.json"
        save_direct(target, "taken")
        before = target.read_bytes()
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            screen = await open_form(pilot)
            fill(screen, path=str(target), id="taken")
            await submit(pilot)
            assert "case id 'taken' is already in this file; choose another id" in status(screen)
            assert target.read_bytes() == before
            fill(screen, id="free")
            await submit(pilot)
            assert f"saved free into {target} (2 cases)" in status(screen)

    async def test_a_bad_label_is_said_before_and_when_saving(self, tmp_path):
        target = tmp_path / "mine.json"
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            screen = await open_form(pilot)
            fill(screen, path=str(target), expected="ACCEPTED")
            await pilot.pause()
            assert "not a label: unknown status 'ACCEPTED'" in text_of(screen, "#save-label-note")
            await submit(pilot)
            assert "expected label: unknown status 'ACCEPTED'" in status(screen)
            fill(screen, expected="VALUE_MISMATCH")
            await pilot.pause()
            assert "audits as a mismatch" in text_of(screen, "#save-label-note")
        assert not target.exists()

    async def test_a_full_disk_leaves_the_file_intact_and_says_why(self, tmp_path, disk_full):
        target = tmp_path / "mine.json"
        save_direct(target, "first")
        before = target.read_bytes()
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            screen = await open_form(pilot)
            fill(screen, path=str(target))
            disk_full(0)
            await submit(pilot)
            message = status(screen)
            assert os.strerror(errno.ENOSPC) in message and "the file is as it was" in message
        assert target.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]

    async def test_a_really_full_disk_leaves_the_file_intact(self, small_disk):
        """A 64 KiB tmpfs filled up: the temporary copy cannot be written, the file stays."""
        target = small_disk / "mine.json"
        save_direct(target, "first")
        before = target.read_bytes()
        filler = os.open(small_disk / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while True:
                os.write(filler, b"x" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC
        finally:
            os.close(filler)
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            screen = await open_form(pilot)
            fill(screen, path=str(target))
            await submit(pilot)
            message = status(screen)
            assert os.strerror(errno.ENOSPC) in message and "the file is as it was" in message
        assert target.read_bytes() == before
        assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "mine.json"]

    async def test_a_read_only_directory_leaves_the_file_intact(self, read_only_with_file):
        target = read_only_with_file
        before = target.read_bytes()
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            screen = await open_form(pilot)
            fill(screen, path=str(target))
            await submit(pilot)
            message = status(screen)
            assert "not saved" in message and "the file is as it was" in message
            assert "is read-only" in message or os.strerror(errno.EROFS) in message or os.strerror(errno.EACCES) in message
        assert target.read_bytes() == before and [p.name for p in target.parent.iterdir()] == ["mine.json"]

    async def test_escape_closes_the_form_and_saves_nothing(self, tmp_path, monkeypatch):
        monkeypatch.chdir(tmp_path)
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            await open_form(pilot)
            await pilot.press("escape")
            assert pilot.app.screen is pilot.app.main
        assert list(tmp_path.iterdir()) == []

    async def test_the_saved_file_audits_with_the_verdicts_shown(self, tmp_path, capsys):
        target = tmp_path / "lab.json"
        shown = {}
        async with inspecting([ARTICLE_SUITE], "complete-answer") as pilot:
            main = pilot.app.main
            for case_id, change in (("complete-answer", "quote.other_line"), ("omitted-field", "repair"),
                                    ("prod-v1-claims", None), ("duplicate-claims-key", "repair")):
                open_id(pilot.app, case_id, "article")
                await pilot.pause()
                if change == "repair":
                    await pilot.press("x", "enter")
                    await pilot.pause()
                elif change is not None:
                    await mutate(pilot, change)
                screen = await open_form(pilot)
                fill(screen, path=str(target))
                await submit(pilot)
                assert "saved" in status(screen), status(screen)
                shown[screen.value("id")] = main.selection.report.actual
                await pilot.press("escape")
        exit_status, out, _ = run_main(capsys, "audit", target, "--format", "json")
        assert exit_status == 0
        document = json.loads(out)
        assert {case["id"]: case["actual"] for case in document["cases"]} == shown
        assert set(shown.values()) >= {"ACCEPT", "QUOTE_NOT_SUPPORTING", "STALE_REVISION"}
        assert all(case["match"] and case["provenance"]["parent_suite"] == "article" for case in document["cases"])

    def test_default_ids_are_unique_in_the_file(self):
        from inspector.lab.history import History

        case = case_of(ARTICLE_SUITE, "complete-answer")
        from inspector.reports.case import CaseReport

        form = SaveForm(CaseReport.of(0, ARTICLE_SUITE, case), History(case.raw))
        assert form.default_id() == "complete-answer.copy"
        assert form.default_id(frozenset({"complete-answer.copy", "complete-answer.copy-2"})) == \
            "complete-answer.copy-3"

    def test_default_ids_are_short_and_name_the_change_not_its_values(self):
        from inspector.lab.edit import claim_edit
        from inspector.lab.history import History, text_change
        from inspector.lab.mutations import answer_of
        from inspector.reports.case import CaseReport

        case = case_of(ARTICLE_SUITE, "complete-answer")
        report = CaseReport.of(0, ARTICLE_SUITE, case)
        answer = answer_of(case.raw, case.request, ARTICLE_SUITE.registry)
        edited = History(case.raw).apply(claim_edit(answer, 0, {"value": "5s"}))
        assert SaveForm(report, edited).default_id() == "complete-answer.edit-value"
        both = History(case.raw).apply(claim_edit(answer, 1, {"value": "true", "quote": "retry_enabled=true"}))
        assert SaveForm(report, both).default_id(frozenset({"complete-answer.edit-value-quote"})) == \
            "complete-answer.edit-value-quote-2"
        typed = History(case.raw).apply(text_change(case.raw, case.raw.replace("5000", "5001")))
        assert SaveForm(report, typed).default_id() == "complete-answer.raw-edit"


class TestViews:
    """The presentation values behind the two modals, over every bundled case."""

    def test_every_repair_view_applies_an_accepted_change_or_says_why_not(self, bundled):
        from inspector import verify
        from inspector.reports.case import CaseReport

        for suite in bundled:
            for number, case in enumerate(suite.cases):
                view = RepairView.of(CaseReport.of(number, suite, case))
                change = view.change()
                if view.applies:
                    assert verify(change.raw, case.request, suite.registry).ok, case.id
                    assert len(change.records) == len(view.repair.edits)
                    assert len(view.lines) == sum(len(edit.lines()) for edit in view.repair.edits)
                    assert {line.sign for line in view.lines} <= {"-", "+"}
                elif not view.repair.possible:
                    assert change is None and view.headline and (view.missing or view.reason), case.id
                    if view.repair.retrieval:
                        assert view.fields and all(line.split(":")[0] in view.fields for line in view.missing)
                else:
                    assert change is None and view.report.verdict.ok

    def test_an_unexpected_failure_is_one_line_not_a_traceback(self, tmp_path, monkeypatch):
        from inspector.lab.history import History
        from inspector.presentation import save_form
        from inspector.reports.case import CaseReport

        def broken(*args, **kwargs):
            raise RuntimeError("bad\nthing\x1b")

        monkeypatch.setattr(save_form, "save_case", broken)
        case = case_of(ARTICLE_SUITE, "complete-answer")
        form = SaveForm(CaseReport.of(0, ARTICLE_SUITE, case), History(case.raw))
        outcome = form.save(str(tmp_path / "mine.json"), "one", "ACCEPT", "")
        assert not outcome.ok and "\n" not in outcome.message
        assert "internal error (RuntimeError: bad\\u000athing\\u001b)" in outcome.message


# -- keys and help ---------------------------------------------------------------------------


class TestKeys:
    async def test_each_modal_binds_its_declared_keys_and_help_lists_them(self):
        from support.tui import bound, declared

        assert {"repair", "save"} <= set(keys.SCREENS)
        for screen in ("repair", "save"):
            names = [name for key in keys.keys_of(screen) for name in key.keys.split(",")]
            assert len(names) == len(set(names))
        async with inspecting([ARTICLE_SUITE], "omitted-field") as pilot:
            await pilot.press("x")
            assert bound(pilot.app.screen) == declared("repair")
            await pilot.press("escape")
            await pilot.press("s")
            assert bound(pilot.app.screen) == declared("save")
        text = help_markdown()
        for key in (*keys.keys_of("repair"), *keys.keys_of("save")):
            assert f"- `{key.display}` {key.help}" in text
        assert "## Keys: the repair (x)" in text and "## Keys: the save form (s)" in text


# -- snapshots ---------------------------------------------------------------------------------


SNAP_SIZE = (120, 36)


async def _repair_shown(pilot) -> None:
    await pilot.pause()
    pilot.app.main.open_case(number_of(pilot.app, "billing-service-claims"))
    await pilot.pause()
    await pilot.press("x")
    await pilot.pause()


async def _save_refused(pilot) -> None:
    keep_toasts(pilot.app)
    await pilot.pause()
    pilot.app.main.open_case(number_of(pilot.app, "real-quote-wrong-value"))
    await pilot.pause()
    await pilot.press("x", "enter")
    await pilot.pause()
    screen = await open_form(pilot)
    fill(screen, id="taken", note="the value from the cited source")
    await submit(pilot)
    steady_cursors(pilot.app)
    await pilot.pause()


def test_snapshot_repair_diff(snap_compare):
    assert snap_compare(make_app([ARTICLE_SUITE]), terminal_size=SNAP_SIZE, run_before=_repair_shown)


def test_snapshot_save_form_with_an_error(snap_compare, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save_direct(tmp_path / "counterexamples.json", "taken")
    assert snap_compare(make_app([ARTICLE_SUITE]), terminal_size=SNAP_SIZE, run_before=partial(_save_refused))


@pytest.mark.parametrize("case_id", ["billing-service-claims"])
def test_the_snapshot_case_repairs_with_two_edits(case_id):
    case = case_of(ARTICLE_SUITE, case_id)
    assert len(repair(case.raw, case.request, ARTICLE_SUITE.registry).edits) == 2
