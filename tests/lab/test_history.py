"""The lab's history of a case's answer: undo, redo, reset, without limit, and the
session keeping each case's edits while other cases are opened."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from support import ARTICLE
from inspector.lab.history import Change, History, text_change
from inspector.lab.mutations import MUTATIONS_BY_NAME, answer_of
from inspector.presentation.session import Session
from inspector.suites.load import load_suite


def _change(raw: str, what: str = "edit") -> Change:
    return Change(raw, what, (what,))


def test_undo_redo_and_reset_move_through_the_changes_without_losing_any():
    history = History("a")
    for text in "bcd":
        history = history.apply(_change(text))
    assert history.raw == "d" and history.records == ("edit",) * 3
    assert history.undo().undo().raw == "b"
    assert history.undo().undo().redo().raw == "c"
    reset = history.reset()
    assert reset.raw == "a" and not reset.edited and reset.can_redo
    assert reset.redo().redo().redo().raw == "d"
    # a new change after an undo drops what could have been redone
    branched = history.undo().apply(_change("x"))
    assert branched.raw == "x" and not branched.can_redo and len(branched.changes) == 3


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["apply", "undo", "redo", "reset"]), max_size=40))
def test_history_is_a_stack_of_texts(steps):
    """Against a model: a list of texts and a position."""
    history, texts, position = History("0"), ["0"], 0
    for number, step in enumerate(steps, 1):
        if step == "apply":
            history = history.apply(_change(str(number)))
            texts, position = [*texts[:position + 1], str(number)], position + 1
        elif step == "undo":
            history, position = history.undo(), max(0, position - 1)
        elif step == "redo":
            history, position = history.redo(), min(len(texts) - 1, position + 1)
        else:
            history, position = history.reset(), 0
        assert history.raw == texts[position]
        assert history.edited == (position > 0)


def test_a_typed_edit_records_the_smallest_span_that_differs_and_where():
    change = text_change('{"claims": [\n  {"value": "5000"}]}', '{"claims": [\n  {"value": "5001"}]}')
    (record,) = change.records
    assert record["old"] == "0" and record["new"] == "1" and record["where"] == "2:17"
    assert change.raw.endswith('"5001"}]}')


def test_the_session_shows_each_cases_edited_answer_until_reset():
    session = Session([load_suite(ARTICLE)])
    number = session.find_id("complete-answer")
    other = session.find_id("one-field-request")
    frozen = session.report(number)
    assert frozen.actual == "ACCEPT" and frozen.comparison is None
    answer = answer_of(frozen.case.raw, frozen.case.request, frozen.suite.registry)
    mutant = next(MUTATIONS_BY_NAME["quote.other_line"].mutants(answer, 0))
    report = session.change(number, mutant.change())
    assert report.actual == "QUOTE_NOT_SUPPORTING" and report.parent is frozen
    comparison = report.comparison
    assert comparison.headline == "was ACCEPT, now QUOTE_NOT_SUPPORTING (claims[0])"
    words = [flip.words for flip in comparison.baselines]
    assert "citation-only still accepts" in words and "contract now rejects" in words
    # another case is untouched, and coming back shows the edit again
    assert session.report(other).parent is None
    assert session.report(number) is report and session.edits() == [number]
    assert session.undo(number) is frozen
    assert session.redo(number).actual == "QUOTE_NOT_SUPPORTING"
    assert session.reset(number) is frozen and session.edits() == []
    # the frozen case (and so its label) is never changed
    assert session.frozen(number).case.raw == frozen.case.raw and frozen.expected == "ACCEPT"
