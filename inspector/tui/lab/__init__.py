"""The lab: change one thing of the case shown, see which check flips (``Lab``).

The main screen keeps the main view (the cases, the trace, the panels, the
filter); its ``Lab`` keeps everything that changes the case's answer and what it
remembers meanwhile: the mutation keys and the menu, predict mode and its score,
the article's exercise, undo, redo and reset, the two editors, repair, save, and
the mutation report's mutants opened in the lab.  The main screen's lab keys run
the lab's methods of the same names; the messages the lab's screens send
(``AnswerChanged``, ``MutationChosen``, ``UndoAsked``, ``MutantChosen``) are
handed to it.  A change is applied to the session's history of the case, and
the edited answer's report goes back to the view (``show_changed``), which
selects it like any other case's.

The lab's screens never call the main screen: a form or a menu dismisses with
its result, which the lab applies; the exercise, open over several changes,
sends its changes as messages and is shown each report the lab applies
(``ExerciseScreen.show``).

One module a job, each importing only those below it (and the screens it opens,
at its top; pyproject's "The lab sits between" contract holds it):

- ``lab``: ``Lab``, the three jobs in one object for the main screen;
- ``mutating``: the mutation menu and keys, predict mode, the article's exercise;
- ``editing``: the claim form, the raw editor, repair, save;
- ``report``: the mutation report, its mutants opened in the lab;
- ``changes``: what every job ends in: a change applied (a prediction scored),
  undo, redo and reset, the report shown on the view and the exercise;
- ``view``: ``LabView``, what the lab reads of the main screen and asks of it.
"""

from __future__ import annotations

from .lab import Lab
from .view import LabView

__all__ = ["Lab", "LabView"]
