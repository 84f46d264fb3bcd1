"""A small form over the view (``FormScreen``): the save form's and the export form's parts.

What it is about (the head), a labelled field a row, a status line; Enter in a
field or the submit key submits, and the work (writing a file: a slow or full
disk can block) runs in a thread worker while the status says what is being
done.  A refusal is its one line in the status, the fields kept so that one of
them can be fixed without typing the rest again.  The parts' layout is the
stylesheet's (``.dialog``, ``.dialog-head``, ``.dialog-row``, ``.dialog-status``
in inspector.tcss); a form names its fields ``#<form>-<field>``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static

from .. import safe
from ..tones import TEXT, Tone, strong

__all__ = ["FIELD_KEYS", "Field", "FormScreen"]

ResultType = TypeVar("ResultType")
Done = TypeVar("Done")
_MUTED = TEXT[Tone.MUTED]


# Tab and shift+tab, Textual's own keys, bound before the focused field's (priority) in a form.  Unbound, a
# key reaches the app, which hands it to the focused field; Tab moves the focus only once that field has
# handled it and let it bubble up, and the keys typed meanwhile (fast, or pasted) were already handed to
# the field Tab left: they went into the previous field.  Bound with priority, the app moves the focus
# as it reads Tab, before it hands on the next key.
FIELD_KEYS: list[BindingType] = [Binding("tab", "app.focus_next", show=False, priority=True),
              Binding("shift+tab", "app.focus_previous", show=False, priority=True)]


@dataclass(frozen=True, slots=True)
class Field:
    """One row of a form: its name (the input's id is ``<form>-<name>``), label, value and placeholder."""

    name: str
    label: str
    value: str
    placeholder: str


class FormScreen(ModalScreen[ResultType]):
    """The parts a form shares; a form says its id, head and fields, and what submitting does."""

    BINDINGS = FIELD_KEYS

    FORM: ClassVar[str]  # the form's id ("save"), its fields' prefix
    # Raised by a form's work: a refusal, said in the status line.
    REFUSALS: ClassVar[tuple[type[Exception], ...]] = ()

    def __init__(self) -> None:
        super().__init__()
        self.busy = False  # the work is running: Enter does nothing meanwhile

    # -- what a form says ----------------------------------------------------------------

    def head(self) -> Content:
        raise NotImplementedError

    def fields(self) -> Iterable[Field]:
        raise NotImplementedError

    def after(self, field: str) -> ComposeResult:
        """Widgets under a field's row (nothing, unless the form says)."""
        yield from ()

    def submit(self) -> None:
        """Enter: check the fields, then ``start`` the work."""
        raise NotImplementedError

    # -- the parts -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        form = self.FORM
        with Vertical(id=form, classes="dialog"):
            yield Static(self.head(), id=f"{form}-head", classes="dialog-head")
            for field in self.fields():
                with Horizontal(classes="dialog-row"):
                    yield Label(field.label)
                    yield Input(field.value, placeholder=field.placeholder, id=f"{form}-{field.name}", compact=True,
                                select_on_focus=False)
                yield from self.after(field.name)
            yield Static("", id=f"{form}-status", classes="dialog-status")
        yield Footer()

    def input(self, field: str) -> Input:
        return self.query_one(f"#{self.FORM}-{field}", Input)

    def value(self, field: str) -> str:
        return self.input(field).value

    def status(self, content: Content) -> None:
        self.query_one(f"#{self.FORM}-status", Static).update(content)

    def refuse(self, message: str) -> None:
        """A refusal, in the form's words or the work's (untrusted: it can quote a path)."""
        self.busy = False
        self.status(Content.assemble(("✗ ", strong(Tone.BAD)), safe.content(message, TEXT[Tone.BAD])))

    def refused(self, refusal: Exception) -> None:
        """One of ``REFUSALS`` raised by the work: its one line in the status (a form can say more)."""
        self.refuse(str(refusal))

    def missing(self, words: str, field: str | None = None) -> None:
        """A field is not filled in as it should be: say so (and go to it)."""
        self.status(Content.styled(words, strong(Tone.BAD)))
        if field is not None:
            self.input(field).focus()

    # -- submitting ------------------------------------------------------------------------

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        if not self.busy:
            self.submit()

    def start(self, doing: str, job: Callable[[], Done], done: Callable[[Done], object]) -> None:
        """Run ``job`` in a thread worker (the status says ``doing`` meanwhile), then ``done`` with what
        it returned; one of ``REFUSALS`` raised by it is said in the status line."""
        self.busy = True
        self.status(Content.styled(doing, _MUTED))
        self._work(job, done)

    @work(thread=True, exclusive=True, group="form")
    def _work(self, job: Callable[[], Any], done: Callable[[Any], None]) -> None:
        try:
            result = job()
        except self.REFUSALS as refusal:
            self.app.call_from_thread(self.refused, refusal)
            return
        self.app.call_from_thread(self._finished, done, result)

    def _finished(self, done: Callable[[Any], None], result: Any) -> None:
        self.busy = False
        done(result)
