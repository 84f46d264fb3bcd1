"""The lab's menu, predict mode and the article's exercise as pure state, without a terminal:
``presentation.mutation_menu``, ``presentation.predict``, ``presentation.exercise``."""

from __future__ import annotations

import shutil

import pytest

from support import ARTICLE
from inspector.contract.checks import STATUSES
from inspector.contract.evidence import CATEGORIES
from inspector.lab.history import History
from inspector.lab.mutations import MUTATIONS, MUTATIONS_BY_NAME, answer_of
from inspector.presentation.exercise import Exercise, ExerciseError, Phase, pick_quote_variant
from inspector.presentation.mutation_menu import NOT_DECODED, matching, menu_rows, next_variant, variants_now
from inspector.presentation.predict import PREDICTIONS, PredictScore, prediction_keys
from inspector.presentation.session import Session
from inspector.suites.load import load_suite


@pytest.fixture(scope="module")
def session() -> Session:
    return Session([load_suite(ARTICLE)])


def _number(session: Session, case_id: str) -> int:
    number = session.find_id(case_id)
    assert number is not None
    return number


def _context(session: Session, case_id: str):
    report = session.frozen(_number(session, case_id))
    return report.case.request, report.suite.registry, History(report.case.raw)


class TestMenuRows:
    def test_every_mutation_in_catalogue_order_with_its_variant_count(self, session):
        request, registry, history = _context(session, "complete-answer")
        rows = menu_rows(history, 0, request, registry)
        assert [row.name for row in rows] == [mutation.name for mutation in MUTATIONS]
        answer = answer_of(history.raw, request, registry)
        for row in rows:
            claim = 0 if row.mutation.target.value == "claim" else None
            assert row.variants == len(list(row.mutation.mutants(answer, claim))), row.name
        assert dict((row.name, row.variants) for row in rows)["quote.other_line"] == 6

    def test_a_mutation_without_variant_says_why(self, session):
        request, registry, history = _context(session, "complete-answer")
        rows = {row.name: row for row in menu_rows(history, 0, request, registry)}
        assert not rows["value.from_source"].applies and "already is the cited document's" in rows["value.from_source"].why
        assert rows["claim.move_up"].why == "the first claim cannot move up"
        assert rows["claim.move_down"].applies and rows["claim.move_down"].why == ""
        last = {row.name: row for row in menu_rows(history, 1, request, registry)}
        assert last["claim.move_down"].why == "the last claim cannot move down" and last["claim.move_up"].applies

    def test_an_answer_that_does_not_decode_has_no_variant_anywhere(self, session):
        request, registry, history = _context(session, "trailing-second-object")
        rows = menu_rows(history, None, request, registry)
        assert all(row.variants == 0 and row.why == NOT_DECODED for row in rows)

    def test_filter_by_name_title_or_help_name_matches_first(self, session):
        request, registry, history = _context(session, "complete-answer")
        rows = menu_rows(history, 0, request, registry)
        assert [row.name for row in matching(rows, "PERTURB")] == ["value.perturb"]
        assert [row.name for row in matching(rows, "byte order")] == ["raw.bom"]  # its help
        assert [row.name for row in matching(rows, "hallucinated")] == ["doc.unknown"]
        quote = [row.name for row in matching(rows, "quote")]
        assert quote[:2] == ["quote.other_line", "quote.other_source"] and "raw.oversize_member" in quote
        assert matching(rows, "no such mutation") == ()
        assert matching(rows, "  ") == rows


class TestCycling:
    def _apply(self, history, mutation, claim, request, registry):
        step = next_variant(history, mutation, claim, request, registry)
        assert step is not None
        if step.replaces:
            history = history.undo()
        return history.apply(step.mutant.change()), step

    def test_applying_again_walks_every_variant_then_wraps(self, session):
        request, registry, history = _context(session, "complete-answer")
        mutation = MUTATIONS_BY_NAME["quote.other_line"]
        expected = [mutant.raw for mutant in mutation.mutants(answer_of(history.raw, request, registry), 0)]
        seen = []
        for press in range(len(expected) + 1):
            history, step = self._apply(history, mutation, 0, request, registry)
            assert step.index == press % len(expected) and step.count == len(expected)
            assert step.replaces is (press > 0)
            seen.append(history.raw)
        assert seen == [*expected, expected[0]]
        # each press took the place of the last: one change, undo goes straight back
        assert history.position == 1 and history.undo().raw == history.original
        rows = {row.name: row for row in menu_rows(history, 0, request, registry)}
        assert rows["quote.other_line"].count == f"1/{len(expected)}"

    def test_another_change_starts_afresh_and_keeps_the_change(self, session):
        request, registry, history = _context(session, "complete-answer")
        history, _ = self._apply(history, MUTATIONS_BY_NAME["value.perturb"], 0, request, registry)
        history, step = self._apply(history, MUTATIONS_BY_NAME["quote.other_line"], 0, request, registry)
        assert not step.replaces and history.position == 2
        claims = answer_of(history.raw, request, registry).claims
        assert claims[0].value == "5001" and claims[0].quote != "read_timeout_ms=5000"

    def test_the_same_mutation_on_another_claim_starts_afresh(self, session):
        request, registry, history = _context(session, "complete-answer")
        mutation = MUTATIONS_BY_NAME["quote.other_line"]
        history, _ = self._apply(history, mutation, 0, request, registry)
        history, step = self._apply(history, mutation, 1, request, registry)
        assert not step.replaces and history.position == 2

    def test_after_undo_a_press_starts_again_from_the_first_variant(self, session):
        request, registry, history = _context(session, "complete-answer")
        mutation = MUTATIONS_BY_NAME["doc.other"]
        history, _ = self._apply(history, mutation, 0, request, registry)
        history, _ = self._apply(history, mutation, 0, request, registry)
        history = history.undo()
        assert next_variant(history, mutation, 0, request, registry).index == 0

    def test_no_variant_gives_nothing(self, session):
        request, registry, history = _context(session, "complete-answer")
        assert next_variant(history, MUTATIONS_BY_NAME["value.from_source"], 0, request, registry) is None
        assert next_variant(history, MUTATIONS_BY_NAME["quote.other_line"], None, request, registry) is None


    def test_kept_variants_are_the_ones_made_afresh(self, session):
        # The variants of an answer are kept between presses and menus; what is kept
        # must be what making them again gives, on every case and claim.
        from inspector.presentation.mutation_menu import forget_variants

        for number in range(len(session)):
            report = session.report(number)
            history = session.history(number)
            if history is None or report.case is None:
                continue
            request, registry = report.case.request, report.suite.registry
            for claim in (0, 1, None):
                kept = (menu_rows(history, claim, request, registry),
                        [variants_now(history, mutation, claim, request, registry) for mutation in MUTATIONS])
                forget_variants()
                made = (menu_rows(history, claim, request, registry),
                        [variants_now(history, mutation, claim, request, registry) for mutation in MUTATIONS])
                assert kept == made, (report.id, claim)


class TestPredictions:
    def test_one_key_per_verdict_from_the_contracts_codes(self):
        assert sorted(status for _, status in PREDICTIONS) == sorted(STATUSES)
        assert len({key for key, _ in PREDICTIONS}) == len(PREDICTIONS)
        assert PREDICTIONS[0] == ("a", "ACCEPT")
        keys = dict((status, key) for key, status in PREDICTIONS)
        assert keys["INVALID_JSON"] == "j" and keys["VALUE_MISMATCH"] == "v" and keys["INCOMPLETE"] == "i"
        assert all(len(key) == 1 and key.islower() for key in keys.values())

    def test_the_keys_follow_the_codes_given(self):
        assert prediction_keys(("NEW_CODE", "OTHER_CODE", "ACCEPT")) == (
            ("a", "ACCEPT"), ("c", "NEW_CODE"), ("o", "OTHER_CODE"))

    def test_the_score_counts_right_and_wrong_and_survives_toggling(self):
        score = PredictScore().toggled()
        assert score.on and score.score == "0/0 right"
        score = score.scored("QUOTE_NOT_SUPPORTING", "QUOTE_NOT_SUPPORTING", "quote.other_line: line 3")
        assert score.last.right and score.last.words == (
            "you said QUOTE_NOT_SUPPORTING, it is QUOTE_NOT_SUPPORTING: right")
        score = score.scored("ACCEPT", "VALUE_MISMATCH", "value.perturb")
        assert not score.last.right and score.last.words == "you said ACCEPT, it is VALUE_MISMATCH: wrong"
        assert (score.right, score.total, score.score) == (1, 2, "1/2 right")
        off = score.toggled()
        assert not off.on and off.score == "1/2 right" and off.toggled().score == "1/2 right"

    def test_a_prediction_must_be_a_verdict(self):
        with pytest.raises(ValueError, match="not a verdict"):
            PredictScore().scored("MAYBE", "ACCEPT", "x")


class TestExercise:
    def _run(self, session, number, exercise, name, pick=None):
        """Apply the step's change as the screen does and feed the report back."""
        history = session.history(number)
        report = session.report(number)
        variants = variants_now(history, MUTATIONS_BY_NAME[name], exercise.claim, report.case.request,
                                report.suite.registry)
        mutant = pick(variants) if pick else variants[0]
        shown = session.change(number, mutant.change())
        return exercise.ran(shown, mutant.name)

    def test_the_whole_sequence_on_an_accepted_case(self, tmp_path):
        suite_path = tmp_path / "article.json"
        shutil.copyfile(ARTICLE, suite_path)
        session = Session([load_suite(suite_path)])
        number = _number(session, "complete-answer")
        frozen = session.frozen(number)
        exercise = Exercise.start(frozen, 0)
        assert (exercise.step, exercise.phase, exercise.mutation) == (1, Phase.PREDICT, "quote.other_line")
        with pytest.raises(ExerciseError):
            exercise.ran(frozen, "too early")
        exercise = exercise.say_citation(True).say("QUOTE_NOT_SUPPORTING")
        assert exercise.ready
        source = frozen.suite.registry.get("prod-v2")
        exercise = self._run(session, number, exercise, "quote.other_line",
                             lambda variants: pick_quote_variant(variants, dict(source.facts), "read_timeout_ms"))
        quote = exercise.last
        assert quote.what == "quote.other_line: line 3: retry_enabled=false"
        assert (quote.citation, quote.status, quote.check) == (True, "QUOTE_NOT_SUPPORTING", "quote supports")
        assert quote.category is CATEGORIES["unsupported_citation"] and quote.right == 2
        exercise = exercise.next()
        assert (exercise.step, exercise.phase, exercise.said) == (2, Phase.RESTORE, None)
        with pytest.raises(ExerciseError):
            exercise.choose("value.perturb")
        assert exercise.restored(session.history(number).raw).phase is Phase.RESTORE  # not undone yet
        exercise = exercise.restored(session.undo(number).case.raw)
        assert exercise.phase is Phase.CHOOSE
        with pytest.raises(ExerciseError, match="only the value"):
            exercise.choose("quote.other_source")
        exercise = exercise.choose("value.other_source").say_citation(False).say("ACCEPT")
        exercise = self._run(session, number, exercise, "value.other_source")
        value = exercise.last
        assert (value.status, value.check, value.category) == ("VALUE_MISMATCH", "value matches",
                                                               CATEGORIES["contradicted"])
        assert value.right == 0 and exercise.score == "2/4 predictions right"
        why = exercise.why
        assert "unsupported citation" in why and "contradicted" in why
        assert "before it reads the quote" in why and "Citation-only accepted both" in why
        exercise = exercise.next()
        assert exercise.phase is Phase.LABELS
        with pytest.raises(ExerciseError, match="labels first"):
            exercise.finish()
        from inspector.presentation.exercise import file_digest
        exercise = exercise.checked(session.frozen(number), file_digest(suite_path))
        labels = exercise.labels
        assert labels.intact and labels.expected == labels.was == "ACCEPT" and labels.verifies == "ACCEPT"
        assert labels.file_unchanged is True
        assert exercise.finish().phase is Phase.DONE

    def test_a_suite_file_changed_on_disk_is_not_intact(self, tmp_path):
        suite_path = tmp_path / "article.json"
        shutil.copyfile(ARTICLE, suite_path)
        session = Session([load_suite(suite_path)])
        number = _number(session, "complete-answer")
        exercise = Exercise.start(session.frozen(number), 0)
        exercise = Exercise(**{**{f: getattr(exercise, f) for f in exercise.__dataclass_fields__},
                               "step": 3, "phase": Phase.LABELS})
        suite_path.write_bytes(suite_path.read_bytes() + b"\n")
        from inspector.presentation.exercise import file_digest
        labels = exercise.checked(session.frozen(number), file_digest(suite_path)).labels
        assert labels.file_unchanged is False and not labels.intact

    def test_it_starts_only_from_an_accepted_case(self, session):
        with pytest.raises(ExerciseError, match="accepted case"):
            Exercise.start(session.frozen(_number(session, "real-quote-wrong-value")), 0)

    def test_the_quote_variant_is_another_fields_canonical_line(self, session):
        request, registry, history = _context(session, "complete-answer")
        variants = variants_now(history, MUTATIONS_BY_NAME["quote.other_line"], 1, request, registry)
        chosen = pick_quote_variant(variants, dict(registry.get("prod-v2").facts), "retry_enabled")
        assert chosen.variant == "line 2: read_timeout_ms=5000"
        assert pick_quote_variant(variants, {}, "retry_enabled") is variants[0]
        assert pick_quote_variant([], {}, "x") is None
