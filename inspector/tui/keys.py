"""Every key binding of the inspector, declared once, with the screen it belongs to.

Each screen's ``BINDINGS`` (and so its footer), the help screen and the command
palette's key commands are all derived from ``KEYS``: a key cannot be listed in
one place and missing in another.  ``screen`` says where a key works: ``app``
everywhere, ``main`` on the main view, ``summary`` on the suite summary,
``mutation_report`` on the mutation report, ``edit_claim`` and ``raw_editor`` in
the lab's two editors, ``triage`` on a triage's overview, ``records`` on a
group's records (the main view's keys and these), ``bad`` on its bad lines,
``help`` on the help screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

from ..lab.mutations import MUTATIONS_BY_NAME
from ..presentation.exercise import VALUE_MUTATIONS
from ..presentation.predict import PREDICTIONS

__all__ = ["GROUPS", "KEYS", "SCREENS", "Key", "bindings", "keys_markdown", "keys_of"]


@dataclass(frozen=True, slots=True)
class Key:
    id: str
    keys: str  # Textual key names, comma-separated
    action: str
    description: str  # short, for the footer
    help: str  # one sentence, for the help screen, the palette and the footer's tooltip
    group: str
    display: str  # how the keys are written for people
    footer: bool = True
    screen: str = "main"
    priority: bool = False  # before the focused widget's own (Enter in a form's field)


# Where a key works, as the help screen titles it, in the order it lists them.
SCREENS: dict[str, str] = {
    "main": "The main view",
    "summary": "The suite summary",
    "edit_claim": "The claim edit form",
    "raw_editor": "The raw answer editor",
    "mutation_report": "The mutation report",
    "mutations": "The mutation menu",
    "predict": "Predicting a verdict",
    "exercise": "The article's exercise",
    "repair": "The repair (x)",
    "save": "The save form (s)",
    "triage": "The triage overview",
    "export": "The group export (^e)",
    "records": "A triage group's records (the main view, and these)",
    "bad": "A triage's bad lines",
    "help": "This help",
    "app": "Everywhere",
}
GROUPS: dict[str, str] = {
    "cases": "Cases",
    "trace": "Trace",
    "view": "View",
    "lab": "Lab: change one thing, see which check flips",
    "summary": "Summary",
    "report": "Mutation report",
    "menu": "Mutation menu",
    "predict": "Predict",
    "exercise": "Exercise",
    "triage": "Triage",
    "help": "Help",
    "app": "Inspector",
}

# The most used mutations get their own key on the main view (the menu, m, has them all).
MUTATION_SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("o", "quote.other_line"), ("O", "quote.other_source"), ("d", "doc.other"),
    ("v", "value.perturb"), ("V", "value.from_source"), ("c", "claim.drop"),
)


def _shortcut(key: str, name: str) -> Key:
    mutation = MUTATIONS_BY_NAME[name]
    return Key(f"mutate_{name.replace('.', '_')}", key, f"mutate('{name}')", f"mutate: {name}",
               f"Apply {name} to the current claim: {mutation.title} (again: its next variant).", "lab", key,
               footer=False)


_CASE = Binding.Group("case", compact=True)
_STEP = Binding.Group("step", compact=True)
_CLAIM = Binding.Group("claim", compact=True)
_ROW = Binding.Group("row", compact=True)
_FOOTER_GROUPS = {
    "next_case": _CASE, "previous_case": _CASE,
    "next_step": _STEP, "previous_step": _STEP,
    "next_claim": _CLAIM, "previous_claim": _CLAIM,
    "summary_down": _ROW, "summary_up": _ROW,
    "report_down": _ROW, "report_up": _ROW,
    "triage_down": _ROW, "triage_up": _ROW, "bad_down": _ROW, "bad_up": _ROW,
}

KEYS: tuple[Key, ...] = (
    Key("next_case", "j,down", "next_case", "next case",
        "Open the next case of the list.", "cases", "j ↓"),
    Key("previous_case", "k,up", "previous_case", "previous case",
        "Open the previous case of the list.", "cases", "k ↑"),
    Key("first_case", "g,home", "first_case", "first case",
        "Open the first case of the list.", "cases", "g", footer=False),
    Key("last_case", "G,end", "last_case", "last case",
        "Open the last case of the list.", "cases", "G", footer=False),
    Key("filter", "slash", "filter", "filter",
        "Filter the case list by text (suite, id, label, note); Enter opens the first match, Esc clears.",
        "cases", "/"),
    Key("clear_filter", "escape", "clear_filter", "clear filter",
        "Show every case again.", "cases", "Esc"),
    Key("next_step", "n,right", "next_step", "next step",
        "Step forward through the trace; every highlight moves to what that step compares.", "trace", "n →"),
    Key("previous_step", "p,left", "previous_step", "previous step",
        "Step back through the trace.", "trace", "p ←"),
    Key("first_failure", "f", "first_failure", "first fail",
        "Jump to the step that rejected the answer.", "trace", "f"),
    Key("explore", "F", "explore", "explore",
        "Explore mode: also evaluate the checks after the first failure (shown greyed).", "trace", "F"),
    Key("next_claim", "right_square_bracket", "next_claim", "next claim",
        "Select the next claim (the same check, for that claim).", "trace", "]"),
    Key("previous_claim", "left_square_bracket", "previous_claim", "previous claim",
        "Select the previous claim.", "trace", "["),
    Key("toggle_pretty", "r", "toggle_pretty", "raw/pretty",
        "Show the answer exactly as received, or re-indented (the same characters).", "view", "r",
        footer=False),  # the answer panel's title says raw or pretty; the footer keeps room for help
    Key("scroll_verdict_down", "ctrl+d,pagedown", "scroll_verdict_down", "scroll verdict down",
        "Scroll the verdict panel down by half its height: a rejection's verdict can be longer than the panel.",
        "view", "^d PgDn", footer=False),
    Key("scroll_verdict_up", "ctrl+u,pageup", "scroll_verdict_up", "scroll verdict up",
        "Scroll the verdict panel back up.", "view", "^u PgUp", footer=False),
    Key("summary", "S", "summary", "summary",
        "The suite summary: how many cases pass each check, and what the label lens would answer; "
        "Enter lists those cases.", "view", "S"),
    Key("edit_claim", "e", "edit_claim", "edit",
        "Edit the current claim's field, value, doc and quote in a small form; Enter re-verifies.", "lab", "e"),
    Key("edit_raw", "E", "edit_raw", "edit raw",
        "Edit the raw answer text itself, the decoding error marked as you type.", "lab", "E", footer=False),
    Key("mutations", "m", "mutations", "mutate",
        "The mutation menu for the current claim: type to filter, Enter applies one.", "lab", "m"),
    Key("predict", "P", "predict", "predict",
        "Predict mode: before a mutation is applied, say the verdict you expect; the session keeps score.",
        "lab", "P", footer=False),
    Key("repair", "x", "repair", "repair",
        "For a rejected case, the smallest set of edits that makes it ACCEPT, as a diff; Enter applies it.",
        "lab", "x", footer=False),
    Key("save", "s", "save", "save",
        "Save the case as shown (edited, or a copy of the frozen one) as a new case of a counterexample "
        "file, with its provenance; the form asks for the file, the id, the expected label and a note.", "lab", "s",
        footer=False),
    Key("mutation_report", "M", "mutation_report", "mutation report",
        "The mutation report of the loaded suites: kills per code, survivors, uncovered codes; Enter opens "
        "a mutant in the lab.", "lab", "M", footer=False),
    Key("undo", "u", "undo", "undo",
        "Undo the last change of this case's answer (there is no limit).", "lab", "u",
        footer=False),  # the verdict panel of an edited case says it
    Key("redo", "ctrl+r", "redo", "redo",
        "Redo the change undone last.", "lab", "^r", footer=False),
    Key("reset", "R", "reset", "frozen case",
        "Back to the case as its suite has it (redo brings the changes back); each case keeps its "
        "own changes until then.", "lab", "R", footer=False),
    *(_shortcut(key, name) for key, name in MUTATION_SHORTCUTS),
    Key("menu_down", "down", "cursor(1)", "down",
        "Move to the next mutation.", "menu", "↓", screen="mutations", priority=True),
    Key("menu_up", "up", "cursor(-1)", "up",
        "Move to the previous mutation.", "menu", "↑", screen="mutations", priority=True),
    Key("menu_apply", "enter", "apply", "apply",
        "Apply the selected mutation to the current claim (again: its next variant). Typing filters the "
        "list by dotted name, title or help.", "menu", "⏎ Enter", screen="mutations", priority=True),
    Key("menu_close", "escape", "dismiss", "close",
        "Close the menu; nothing is applied.", "menu", "Esc", screen="mutations"),
    *(Key(f"predict_{status.lower()}", key, f"say('{status}')", status, f"Predict {status}.", "predict", key,
          screen="predict") for key, status in PREDICTIONS),
    Key("predict_cancel", "escape", "dismiss", "cancel",
        "Do not predict: the mutation is not applied.", "predict", "Esc", screen="predict"),
    Key("exercise_citation_accepts", "y", "citation(True)", "citation-only accepts",
        "Predict that citation-only accepts the changed answer.", "exercise", "y", screen="exercise"),
    Key("exercise_citation_rejects", "n", "citation(False)", "citation-only rejects",
        "Predict that citation-only rejects it.", "exercise", "n", screen="exercise"),
    *(Key(f"exercise_{status.lower()}", key, f"say('{status}')", status,
          f"Predict that the contract says {status}.", "exercise", key, footer=False, screen="exercise")
      for key, status in PREDICTIONS),
    Key("exercise_undo", "u", "restore", "restore the quote",
        "Step 2: restore the quote (undo the step 1 change).", "exercise", "u", screen="exercise"),
    *(Key(f"exercise_{name.replace('.', '_')}", key, f"choose('{name}')", name,
          f"Step 2: change only the value with {name} ({MUTATIONS_BY_NAME[name].title}).", "exercise", key,
          screen="exercise") for key, name in VALUE_MUTATIONS),
    Key("exercise_next", "enter", "next", "next",
        "On to the next step once a step's result is shown.", "exercise", "⏎ Enter", screen="exercise"),
    Key("exercise_leave", "escape", "dismiss", "leave",
        "Leave the exercise (the changes stay: u undoes them, R goes back to the frozen case).", "exercise",
        "Esc", screen="exercise"),
    Key("repair_apply", "enter", "apply", "apply",
        "Apply the repair to the case's answer: one change, which u undoes (nothing when no edit can fix it).",
        "lab", "⏎ Enter", screen="repair"),
    Key("repair_close", "escape,x", "dismiss", "dismiss",
        "Close the repair without changing anything (the arrow and page keys scroll a long diff).",
        "lab", "Esc x", screen="repair"),
    Key("save_submit", "enter", "submit", "save",
        "Save the case with these fields (Tab moves between them); once saved, Enter opens the file's "
        "case in the inspector.", "lab", "⏎ Enter", screen="save", priority=True),
    Key("save_close", "escape", "close", "close",
        "Close the form; what was saved stays saved, and the next save proposes the same file.",
        "lab", "Esc", screen="save"),
    Key("summary_down", "j,down", "cursor(1)", "down",
        "Move to the next row of the summary.", "summary", "j ↓", screen="summary"),
    Key("summary_up", "k,up", "cursor(-1)", "up",
        "Move to the previous row.", "summary", "k ↑", screen="summary"),
    Key("summary_cases", "enter", "show_cases", "list these cases",
        "Back to the main view, listing only the cases of this row (Esc there shows every case again).",
        "summary", "⏎ Enter", screen="summary"),
    Key("summary_scope", "a", "toggle_scope", "all suites / this suite",
        "Summarise every loaded suite, or only the current case's suite.", "summary", "a", screen="summary"),
    Key("summary_back", "escape,S,q", "dismiss", "back",
        "Back to the main view.", "summary", "Esc S q", screen="summary"),
    Key("edit_apply", "enter", "apply", "apply",
        "Write the members you changed into the answer (only those tokens) and verify it again; Tab and "
        "⇧Tab move between the four fields.",
        "lab", "⏎ Enter", screen="edit_claim"),
    Key("edit_cancel", "escape", "cancel", "cancel",
        "Close the form; the answer stays as it was.", "lab", "Esc", screen="edit_claim"),
    Key("raw_apply", "ctrl+s", "apply", "apply",
        "Apply the text as the case's answer (one change: u undoes it on the main view).", "lab", "^s",
        screen="raw_editor"),
    Key("raw_undo", "ctrl+z", "undo_text", "undo",
        "Undo the last edit of the text (the editor's own history, without limit).", "lab", "^z",
        screen="raw_editor"),
    Key("raw_redo", "ctrl+y", "redo_text", "redo",
        "Redo the edit undone last.", "lab", "^y", screen="raw_editor"),
    Key("raw_cancel", "escape", "cancel", "close",
        "Close the editor without applying; with unapplied edits the first Esc says so and the second "
        "discards them.", "lab", "Esc", screen="raw_editor"),
    Key("report_down", "j,down", "cursor(1)", "down",
        "Move to the next row of the mutation report.", "report", "j ↓", screen="mutation_report"),
    Key("report_up", "k,up", "cursor(-1)", "up",
        "Move to the previous row of the mutation report.", "report", "k ↑", screen="mutation_report"),
    Key("report_first", "g,home", "first_row", "first row",
        "Move to the first row.", "report", "g", footer=False, screen="mutation_report"),
    Key("report_last", "G,end", "last_row", "last row",
        "Move to the last row (a list of mutants can be long).", "report", "G", footer=False,
        screen="mutation_report"),
    Key("report_page_down", "pagedown", "page(1)", "page down",
        "Move a page down.", "report", "PgDn", footer=False, screen="mutation_report"),
    Key("report_page_up", "pageup", "page(-1)", "page up",
        "Move a page up.", "report", "PgUp", footer=False, screen="mutation_report"),
    Key("report_open", "enter", "open_row", "open",
        "On a mutant: back to the main view with that mutant applied to its case, in the lab. On a code, "
        "a check or a suite's uncovered codes: list the mutants it counts (Esc goes back to the report).",
        "report", "⏎ Enter", screen="mutation_report"),
    Key("report_scope", "a", "toggle_scope", "all suites / this suite",
        "The report of every loaded suite, or only of the current case's suite.", "report", "a",
        screen="mutation_report"),
    Key("report_detail_down", "ctrl+d", "scroll_detail(1)", "scroll detail down",
        "Scroll the row's detail (a mutant's whole raw text) down.", "report", "^d", footer=False,
        screen="mutation_report"),
    Key("report_detail_up", "ctrl+u", "scroll_detail(-1)", "scroll detail up",
        "Scroll the row's detail back up.", "report", "^u", footer=False, screen="mutation_report"),
    Key("report_back", "escape,M,q", "back", "back",
        "Back: from a list of mutants to the report, from the report to the main view (a computation "
        "still running is stopped).", "report", "Esc M q", screen="mutation_report"),
    Key("triage_down", "j,down", "cursor(1)", "down",
        "Move to the next group.", "triage", "j ↓", screen="triage"),
    Key("triage_up", "k,up", "cursor(-1)", "up",
        "Move to the previous group.", "triage", "k ↑", screen="triage"),
    Key("triage_open", "enter", "open_group", "open group",
        "Open the group's records in the main view (registry, ladder, lab), j/k paging through them; the bad "
        "lines' group lists each bad line's file, line and reason.", "triage", "⏎ Enter", screen="triage"),
    Key("triage_sort", "o", "sort", "sort",
        "Order the groups by kind (as the summary lists them), by count, or by name.", "triage", "o",
        screen="triage"),
    Key("triage_filter", "slash", "filter", "filter",
        "Filter the groups by name (typing a letter starts the filter too); Enter goes back to the groups.",
        "triage", "/", screen="triage"),
    Key("triage_export", "ctrl+e", "export", "export",
        "Write the group's records (the first 1,000 unless told) as a new suite file, as --export does: "
        "open, audit and the lab read it.", "triage", "^e", screen="triage"),
    Key("export_submit", "enter", "submit", "export",
        "Write the suite with these fields (Tab moves between them); a refusal is said here, nothing written.",
        "triage", "⏎ Enter", screen="export", priority=True),
    Key("export_close", "escape", "close", "close", "Close the form; a suite written stays written.",
        "triage", "Esc", screen="export"),
    Key("triage_escape", "escape", "escape", "stop · clear",
        "While verifying: stop, keeping what was counted so far (its groups open). Else: clear the group filter.",
        "triage", "Esc", screen="triage"),
    Key("records_back", "escape", "back", "overview",
        "Back to the triage overview (a case filter, when set, is cleared first).", "triage", "Esc",
        screen="records"),
    Key("bad_down", "j,down", "cursor(1)", "down", "Move to the next bad line.", "triage", "j ↓", screen="bad"),
    Key("bad_up", "k,up", "cursor(-1)", "up", "Move to the previous bad line.", "triage", "k ↑", screen="bad"),
    Key("bad_back", "escape", "dismiss", "back", "Back to the triage overview.", "triage", "Esc", screen="bad"),
    Key("help_close", "escape,q,question_mark,f1", "dismiss", "close",
        "Close this help (the arrow and page keys scroll it).", "help", "Esc q ?", screen="help"),
    Key("help", "question_mark,f1", "help", "help",
        "This help: every key and what each panel shows.", "app", "? F1", screen="app"),
    Key("palette", "ctrl+p", "command_palette", "palette",
        "The command palette: jump to a case by id, filter by verdict or check, open a file.", "app", "^p",
        footer=False, screen="app"),  # the footer docks the palette key on its right already
    Key("quit", "q", "quit", "quit", "Leave the inspector.", "app", "q", screen="app"),
)


def keys_of(screen: str) -> tuple[Key, ...]:
    """The keys declared for one screen, in declaration order."""
    return tuple(key for key in KEYS if key.screen == screen)


def bindings(screen: str) -> list[Binding]:
    """The ``BINDINGS`` of one screen (``app`` for the app's own)."""
    return [
        Binding(
            key.keys,
            key.action,
            key.description,
            show=key.footer,
            key_display=key.display.split()[0],
            tooltip=key.help,
            id=key.id,
            group=_FOOTER_GROUPS.get(key.id),
            priority=key.priority,
        )
        for key in keys_of(screen)
    ]


def _written(display: str) -> str:
    """A key's display as the docs write it: each key in backticks, ``^d`` as ``ctrl+d``."""
    return " ".join(f"`{token.replace('^', 'ctrl+')}`" for token in display.split())


def keys_markdown() -> str:
    """``docs/keys.md``: every key of ``KEYS``, a table per screen in ``SCREENS`` order,
    the main view's rows in ``GROUPS`` order (the help screen's order)."""
    parts = [
        "<!-- Generated from inspector/tui/keys.py (KEYS, SCREENS, GROUPS) by keys_markdown(): "
        "do not edit; run make docs. -->\n",
        "# Keys\n\n",
        "Every key of the inspector, declared once in `inspector/tui/keys.py`; the footer, the help "
        "screen (`?`) and the command palette (`ctrl+p`) are built from the same declaration.\n",
    ]
    for screen, title in SCREENS.items():
        declared = keys_of(screen)
        if not declared:
            continue
        parts.append(f"\n## {title}\n")
        for group, group_title in GROUPS.items():
            rows = [key for key in declared if key.group == group]
            if not rows:
                continue
            if screen == "main":
                parts.append(f"\n### {group_title}\n")
            parts.append("\n| keys | what they do |\n|---|---|\n")
            parts.extend(f"| {_written(key.display)} | {key.help.replace('|', chr(92) + '|')} |\n" for key in rows)
    return "".join(parts)
