"""What the lab reads of the view it changes (the main screen) and asks of it (``LabView``).

A protocol, so that the lab never imports the main screen: the main screen
imports the lab and hands itself over."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.app import App
from textual.message import Message

from ...presentation.browse import Browse
from ...presentation.key_state import KeyState
from ...presentation.predict import PredictScore
from ...presentation.selection import Selection
from ...presentation.session import Session
from ...reports.case import CaseReport
from ...suites.load import Suite

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

__all__ = ["LabView"]


class LabView(Protocol):
    """What the lab reads of the view it changes (the main screen) and asks of it."""

    session: Session
    browse: Browse
    selection: Selection | None

    @property
    def app(self) -> App[object]: ...

    def key_state(self) -> KeyState: ...

    def open_case(self, number: int) -> None: ...

    def show_changed(self, report: CaseReport) -> None: ...

    def show_score(self, score: PredictScore) -> None: ...

    def tell(self, words: str) -> None: ...  # a word on the verdict panel's own line (a mutation's variant...)

    def add_suite(self, suite: Suite, case_id: str | None = None) -> None: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...

    def post_message(self, message: Message) -> bool: ...
