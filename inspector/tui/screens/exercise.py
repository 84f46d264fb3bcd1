"""The article's exercise, step by step, in a small panel over the main view.

The steps and what counts as right are ``presentation.exercise.Exercise``'s;
this screen shows the current step with what to press and asks for the step's
change by posting ``AnswerChanged`` (the restore step: ``UndoAsked``) to the
view it runs over, the main screen: its lab applies it, the main view
re-verifies and redraws every panel, visible above this one, and the lab shows
the report back to the exercise (``show``).  Esc leaves at any point.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message_pump import MessagePump
from textual.screen import ModalScreen
from textual.widgets import Static

from ...presentation.exercise import (
    QUOTE_MUTATION,
    STEPS,
    VALUE_MUTATIONS,
    Exercise,
    ExerciseError,
    Outcome,
    Phase,
    file_digest,
    pick_quote_variant,
)
from ...lab.mutations import Mutant
from ...presentation.mutation_menu import LabCase
from ...presentation.session import Session
from ...reports.case import CaseReport
from .. import keys, safe
from ..messages import AnswerChanged, UndoAsked
from ..tones import TEXT, Tone, strong
from .predict import verdict_keys

__all__ = ["ExerciseScreen"]

_STEP_NAMES = {1: "a genuine line, another fact", 2: "only the value", 3: "the archived labels"}
_MUTED = TEXT[Tone.MUTED]


def _KEY(key: str) -> Content:  # noqa: N802 - reads as a constant in the lines below
    return Content.styled(key, "bold $text-accent")


_ESC = Content.assemble(_KEY("Esc"), " leave")


def _mark(right: bool | None) -> tuple[str, str]:
    """A prediction's mark."""
    if right is None:
        return ("", "")
    return ("✓ right  ", strong(Tone.GOOD)) if right else ("✗ wrong  ", strong(Tone.BAD))


def _holds(ok: bool) -> tuple[str, str]:
    """A checked fact's mark."""
    return ("✓ ", strong(Tone.GOOD)) if ok else ("✗ ", strong(Tone.BAD))


class ExerciseScreen(ModalScreen[None]):
    BINDINGS = keys.bindings("exercise")

    def __init__(self, session: Session, exercise: Exercise, view: MessagePump) -> None:
        """The exercise on a case of ``session``, its changes asked of ``view`` (by message)."""
        super().__init__()
        self.session = session
        self.exercise = exercise
        self.view = view
        self._planned: Mutant | None = None  # the change the current step runs
        self._posted: Mutant | None = None  # posted, not shown yet
        self._restoring = False  # the undo asked for, not shown yet

    def compose(self) -> ComposeResult:
        with Vertical(id="exercise"):
            with VerticalScroll(id="exercise-scroll"):
                yield Static("", id="exercise-body")
            yield Static("", id="exercise-keys")  # what to press, always in view

    def on_mount(self) -> None:
        self._plan()
        self._show()
        self.query_one("#exercise-scroll").focus()  # so the arrow and page keys scroll a long step

    # -- the state ----------------------------------------------------------------------

    def _set(self, exercise: Exercise) -> None:
        self.exercise = exercise
        if exercise.phase is Phase.PREDICT:
            self._plan()
        if exercise.phase is Phase.LABELS and exercise.labels is None:
            frozen = self.session.frozen(exercise.number)
            self.exercise = exercise = exercise.checked(frozen, file_digest(exercise.path))
        self._show()
        self.refresh_bindings()
        if exercise.ready:
            self._run()

    def _variants(self, name: str) -> list[Mutant]:
        exercise = self.exercise
        lab = LabCase.of(self.session, exercise.number, exercise.claim)
        return lab.variants(name) if lab is not None else []

    def _plan(self) -> None:
        """The change the current step will run (shown before the predictions)."""
        exercise = self.exercise
        variants = self._variants(exercise.mutation)
        if exercise.mutation == QUOTE_MUTATION:
            report = self.session.report(exercise.number)
            claim = report.verdict.claims[exercise.claim] if report.verdict and report.verdict.claims else None
            source = report.suite.registry.get(claim.doc) if claim is not None else None
            facts = dict(source.facts) if source is not None else {}
            self._planned = pick_quote_variant(variants, facts, claim.field if claim is not None else "")
        else:
            self._planned = variants[0] if variants else None

    def _run(self) -> None:
        mutant = self._planned
        if mutant is None:
            return
        self._posted = mutant
        self.view.post_message(AnswerChanged(mutant.change()))

    def show(self, report: CaseReport) -> None:
        """The case as the lab shows it now: the step's change applied, or the quote restored."""
        if report.number != self.exercise.number:
            return
        running = self._posted
        if running is not None:
            if report.case is not None and report.case.raw == running.raw:
                self._posted = None
                self._set(self.exercise.ran(report, running.name))
        elif self._restoring:
            self._restoring = False
            history = self.session.history(self.exercise.number)
            if history is not None:
                self._set(self.exercise.restored(history.raw))

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.exercise.phase
        if action in ("citation", "say"):
            return (phase is Phase.PREDICT and self._planned is not None and self._posted is None) or None
        if action == "restore":
            return (phase is Phase.RESTORE and not self._restoring) or None
        if action == "choose":
            return (phase is Phase.CHOOSE and bool(parameters) and bool(self._variants(str(parameters[0])))) or None
        if action == "next":
            return phase in (Phase.RESULT, Phase.LABELS, Phase.DONE) or None
        return True

    def action_citation(self, accepts: bool) -> None:
        self._set(self.exercise.say_citation(accepts))

    def action_say(self, status: str) -> None:
        self._set(self.exercise.say(status))

    def action_restore(self) -> None:
        self._restoring = True
        self.view.post_message(UndoAsked())

    def action_choose(self, name: str) -> None:
        self._set(self.exercise.choose(name))

    def action_next(self) -> None:
        exercise = self.exercise
        try:
            if exercise.phase is Phase.RESULT:
                self._set(exercise.next())
            elif exercise.phase is Phase.LABELS:
                self._set(exercise.finish())
            elif exercise.phase is Phase.DONE:
                self.dismiss()
        except ExerciseError as error:
            self.notify(str(error), severity="warning", markup=False, timeout=3)

    # -- what it shows -----------------------------------------------------------------------

    def _show(self) -> None:
        exercise = self.exercise
        step = min(exercise.step, STEPS)
        title = f"the article's exercise · step {step}/{STEPS} · {_STEP_NAMES[step]}"
        if exercise.phase is Phase.DONE:
            title = "the article's exercise · done"
        self.query_one("#exercise").border_title = title
        lines = self._lines()  # the last one says what to press
        self.query_one("#exercise-body", Static).update(Content("\n").join(lines[:-1]))
        self.query_one("#exercise-keys", Static).update(lines[-1])

    def _lines(self) -> list[Content]:
        exercise = self.exercise
        phase = exercise.phase
        claim = f"claims[{exercise.claim}]"
        lines: list[Content] = []
        if phase is Phase.PREDICT:
            mutant = self._planned
            if exercise.step == 1:
                lines.append(Content(f"Replace only the quote of {claim} with another genuine line of the "
                                     "same source:"))
            else:
                lines.append(Content(f"Change only the value of {claim}:"))
            if mutant is None:
                lines.append(Content.styled(f"{exercise.mutation} has no variant on {claim}: Esc, then try "
                                            "another claim (]) or case", TEXT[Tone.WARN]))
                return lines
            lines.append(Content.assemble("  ", safe.content(mutant.name, "bold")))
            lines.append(Content.styled("Predict before it runs:", _MUTED))
            citation = {None: "?", True: "accepts", False: "rejects"}[exercise.said_citation]
            lines.append(Content.assemble("  citation-only: ", _KEY("y"), " accepts  ", _KEY("n"), " rejects   ",
                                          (f"you: {citation}", "bold")))
            lines.append(Content.assemble("  the contract:  ", (f"you: {exercise.said or '?'}", "bold")))
            lines.append(Content.assemble("  ", verdict_keys()))
            lines.append(Content.assemble(("It runs once both are said.   ", _MUTED), _ESC))
        elif phase is Phase.RESULT:
            outcome = exercise.last
            assert outcome is not None
            lines += self._outcome_lines(outcome)
            if exercise.step == 2 and exercise.why:
                lines.append(Content.assemble(("Why the category changes: ", "bold"), exercise.why))
            lines.append(Content.assemble(_KEY("Enter"), " next step   ", _ESC))
        elif phase is Phase.RESTORE:
            lines.append(Content.assemble("First restore the quote: ", _KEY("u"), " undoes the step 1 change."))
            lines.append(_ESC)
        elif phase is Phase.CHOOSE:
            lines.append(Content(f"The quote is back. Now change only the value of {claim}:"))
            for key, name in VALUE_MUTATIONS:
                variants = self._variants(name)
                shown = safe.content(variants[0].variant) if variants else Content.styled("no variant here", _MUTED)
                lines.append(Content.assemble("  ", _KEY(key), f" {name}: ", shown))
            lines.append(_ESC)
        elif phase is Phase.LABELS:
            labels = exercise.labels
            assert labels is not None
            lines.append(Content.assemble("The archived labels stay intact (", safe.content(exercise.case_id), "):"))
            lines.append(Content.assemble(_holds(labels.expected == labels.was),
                                          f"frozen label {labels.expected or 'none'}, unchanged"
                                          if labels.expected == labels.was else
                                          f"frozen label now {labels.expected}, was {labels.was}"))
            lines.append(Content.assemble(_holds(labels.matches is not False),
                                          f"the frozen case still verifies {labels.verifies}"))
            if labels.file_unchanged is None:
                lines.append(Content.styled("the suite file cannot be read to compare it", _MUTED))
            else:
                lines.append(Content.assemble(_holds(labels.file_unchanged),
                                              safe.content(exercise.path.name),
                                              " is the same bytes as when the exercise started"
                                              if labels.file_unchanged else " changed on disk since the start"))
            lines.append(Content.styled("The changes live in this session only; s saves one as a new case.",
                                        _MUTED))
            lines.append(Content.assemble(_KEY("Enter"), " finish   ", _ESC))
        else:
            lines.append(Content.assemble("Done: ", (exercise.score, "bold"), "."))
            lines.append(Content.styled("The last change stays applied: u undoes it, R goes back to the "
                                        "frozen case.", _MUTED))
            lines.append(Content.assemble(_KEY("Enter"), " or ", _KEY("Esc"), " closes"))
        return lines

    def _outcome_lines(self, outcome: Outcome) -> list[Content]:
        lines = []
        for text, right in self.exercise.result_lines(outcome):
            lines.append(Content.assemble(_mark(right), safe.content(text)))
        return lines
