"""Every key binding of the inspector, declared once, with the screen it belongs to.

Each screen's ``BINDINGS`` (and so its footer), the help screen and the command
palette's key commands are all derived from ``KEYS``: a key cannot be listed in
one place and missing in another.  ``screen`` says where a key works: ``app``
everywhere, ``main`` on the main view, ``summary`` on the suite summary,
``mutation_report`` on the mutation report, ``edit_claim`` and ``raw_editor`` in
the lab's two editors, ``triage`` on a triage's overview, ``records`` on a
group's records (the main view's keys and these), ``bad`` on its bad lines,
``help`` on the help screen.  ``review`` keys are the main view's too, and work
only in review mode; those they shadow (``shadowed``) work only outside it;
``decide`` and ``label`` are review mode's two small forms.  What a main view's
key needs to do something (``needs``, ``hidden``) is declared with it too.
``on`` says which widget of the screen binds a key: a list screen's movement keys
(j k g G PgDn PgUp, declared once by ``_moves``) are its list's (``widgets.table.CursorTable``,
or the label form's ``LabelChoices``: focused, it keeps the cursor within the rows), as Textual's
DataTable and OptionList bind their own; the mutation menu, whose filter keeps the focus, binds the
ones that type nothing on the screen and hands them to its table, as Textual's command palette.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, replace

from textual.binding import Binding, BindingType

from ..lab.mutations import MUTATIONS_BY_NAME
from ..presentation.exercise import VALUE_MUTATIONS
from ..presentation.key_state import Fact, Needs
from ..presentation.predict import PREDICTIONS
from ..presentation.review_view import LABEL_CHOICES

__all__ = ["GROUPS", "KEYS", "SCREENS", "Key", "bindings", "bindings_over", "keys_markdown", "keys_of",
           "needs_by_action"]


@dataclass(frozen=True, slots=True)
class Key:
    """One key of one screen: every member but the id is given by name (``Key("filter", keys="slash", ...)``)."""

    id: str
    _: KW_ONLY
    keys: str  # Textual key names, comma-separated
    action: str
    description: str  # short, for the footer
    help: str  # one sentence, for the help screen, the palette and the footer's tooltip
    group: str
    display: str  # how the keys are written for people
    footer: bool = True
    screen: str = "main"
    priority: bool = False  # before the focused widget's own (Enter in a form's field)
    # Which of the screen's widgets binds the key: "screen", or "table" for the movement keys its list table
    # owns (widgets.table.CursorTable: the focused table, as Textual's DataTable); space-separated when two do.
    on: str = "screen"
    # What the key needs to do something (the main view's keys: presentation.key_state): a fact of the
    # case shown (else shown greyed), ``hidden`` when it is not shown at all without it.  A ``review`` key
    # works only in review mode; ``shadowed``, one review mode takes the key of, only outside it.
    needs: Fact | None = None
    hidden: bool = False
    shadowed: bool = False

    @property
    def when(self) -> Needs:
        """What the key needs, as ``KeyState.applies`` reads it."""
        return Needs(self.needs, self.hidden, True if self.screen == "review" else False if self.shadowed else None)


# Where a key works, as the help screen titles it, in the order it lists them.
SCREENS: dict[str, str] = {
    "main": "The main view",
    "review": "Review mode (the main view's keys, these first)",
    "decide": "A decision with a note (N in review mode)",
    "label": "A claim's human label (L in review mode)",
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
    "line": "A record's log line (l)",
    "annotate": "Annotating a record (a)",
    "pivot": "The pivot of two dimensions (p)",
    "trials": "An item's trials (t)",
    "flips": "The flips of two runs, item by item (f)",
    "bad": "A triage's bad lines",
    "help": "This help",
    "confirm": "Asking before work is lost (q, ^q)",
    "app": "Everywhere",
}
GROUPS: dict[str, str] = {
    "cases": "Cases",
    "trace": "Trace",
    "view": "View",
    "lab": "Lab: change one thing, see which check flips",
    "review": "Review: each verdict against its frozen label",
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
    return Key(f"mutate_{name.replace('.', '_')}", keys=key, action=f"mutate('{name}')", description=f"mutate: {name}",
               help=f"Apply {name} to the current claim: {mutation.title} (again: its next variant).", group="lab",
               display=key, footer=False, needs="changeable")


def _moves(screen: str, row: str, *, rows: str = "", group: str = "triage", prefix: str = "", on: str = "table",
           shown: bool = True, page_aliases: bool = True, typing: bool = False) -> tuple[Key, ...]:
    """The movement keys of a list screen, the same on each: j k (the arrows) g G (Home End) PgDn PgUp (^d ^u),
    bound by its list (``on``: ``widgets.table.CursorTable``, or the label form's ``LabelChoices``), which
    keeps the cursor within the rows (``on`` "table matrix": the summary's agreement matrices bind them too,
    j past the table's last row moving into them); ``page_aliases`` False leaves ^d ^u to the screen (the
    mutation report scrolls its detail with them); ``shown`` False keeps the first two out of the footer
    (the label form's, which shows its labels' keys).  ``typing``: a field that filters the list keeps the
    focus (the mutation menu), so only the keys that type nothing move, as in Textual's command palette:
    the arrows, PgDn PgUp, ^Home ^End; the screen binds them before the field (priority) and hands each to
    its list (``action_table``)."""
    rows = rows or f"{row}s"
    prefix = prefix or screen

    def move(name: str, keys: str, action: str, description: str, help: str, display: str, footer: bool) -> Key:
        if typing:
            return Key(f"{prefix}_{name}", keys=keys, action=f"table('{action}')", description=description, help=help,
                       group=group, display=display, footer=footer, screen=screen, priority=True)
        return Key(f"{prefix}_{name}", keys=keys, action=action, description=description, help=help, group=group,
                   display=display, footer=footer, screen=screen, on=on)

    aliases = page_aliases and not typing
    down_up = (
        move("down", "down" if typing else "j,down", "cursor_down", "down", f"Move to the next {row}.",
             "↓" if typing else "j ↓", shown),
        move("up", "up" if typing else "k,up", "cursor_up", "up", f"Move to the previous {row}.",
             "↑" if typing else "k ↑", shown),
    )
    return (
        *down_up,
        move("first", "ctrl+home" if typing else "g,home", "first", f"first {row}", f"Move to the first {row}.",
             "^home" if typing else "g", False),
        move("last", "ctrl+end" if typing else "G,end", "last", f"last {row}", f"Move to the last {row}.",
             "^end" if typing else "G", False),
        move("page_down", "pagedown,ctrl+d" if aliases else "pagedown", "page_down", "page down",
             f"Move a page of {rows} down.", "PgDn ^d" if aliases else "PgDn", False),
        move("page_up", "pageup,ctrl+u" if aliases else "pageup", "page_up", "page up",
             f"Move a page of {rows} up.", "PgUp ^u" if aliases else "PgUp", False),
    )


_CASE = Binding.Group("case", compact=True)
_STEP = Binding.Group("step", compact=True)
_CLAIM = Binding.Group("claim", compact=True)
_ROW = Binding.Group("row", compact=True)
_MATCH = Binding.Group("match", compact=True)
_MARKED = Binding.Group("marked", compact=True)
_JUDGED = Binding.Group("right/wrong", compact=True)
_FOOTER_GROUPS = {
    "next_case": _CASE, "previous_case": _CASE,
    "next_step": _STEP, "previous_step": _STEP,
    "next_claim": _CLAIM, "previous_claim": _CLAIM,
    "summary_down": _ROW, "summary_up": _ROW,
    "report_down": _ROW, "report_up": _ROW,
    "triage_down": _ROW, "triage_up": _ROW, "bad_down": _ROW, "bad_up": _ROW, "pivot_down": _ROW, "pivot_up": _ROW,
    "trials_down": _ROW, "trials_up": _ROW, "flips_down": _ROW, "flips_up": _ROW,
    "line_down": _ROW, "line_up": _ROW,
    "records_next_match": _MATCH, "records_previous_match": _MATCH,
    "records_next_mark": _MARKED, "records_previous_mark": _MARKED,
    "records_true": _JUDGED, "records_false": _JUDGED,
}

KEYS: tuple[Key, ...] = (
    Key("next_case", keys="j,down", action="next_case", description="next case",
        help="Open the next case of the list.", group="cases", display="j ↓"),
    Key("previous_case", keys="k,up", action="previous_case", description="previous case",
        help="Open the previous case of the list.", group="cases", display="k ↑"),
    Key("first_case", keys="g,home", action="first_case", description="first case",
        help="Open the first case of the list.", group="cases", display="g", footer=False),
    Key("last_case", keys="G,end", action="last_case", description="last case",
        help="Open the last case of the list.", group="cases", display="G", footer=False),
    Key("filter", keys="slash", action="filter", description="filter",
        help="Filter the case list by text (suite, id, label, note); Enter opens the first match, Esc clears.",
        group="cases", display="/"),
    Key("clear_filter", keys="escape", action="clear_filter", needs="filtered", hidden=True, description="clear filter",
        help="Show every case again.", group="cases", display="Esc"),
    Key("next_step", keys="n,right", action="next_step", needs="steps", description="next step",
        help="Step forward through the trace; every highlight moves to what that step compares.", group="trace",
        display="n →"),
    Key("previous_step", keys="p,left", action="previous_step", needs="steps", description="previous step",
        help="Step back through the trace.", group="trace", display="p ←"),
    Key("first_failure", keys="f", action="first_failure", needs="failure", description="first fail",
        help="Jump to the step that rejected the answer.", group="trace", display="f"),
    Key("explore", keys="F", action="explore", needs="steps", description="explore",
        help="Explore mode: also evaluate the checks after the first failure (shown greyed).", group="trace",
        display="F"),
    Key("next_claim", keys="right_square_bracket", action="next_claim", needs="several_claims",
        description="next claim",
        help="Select the next claim (the same check, for that claim).", group="trace", display="]"),
    Key("previous_claim", keys="left_square_bracket", action="previous_claim", needs="several_claims",
        description="previous claim",
        help="Select the previous claim.", group="trace", display="["),
    Key("toggle_pretty", keys="r", action="toggle_pretty", shadowed=True, description="raw/pretty",
        help="Show the answer exactly as received, or re-indented (the same characters).", group="view", display="r",
        footer=False),  # the answer panel's title says raw or pretty; the footer keeps room for help
    Key("scroll_verdict_down", keys="ctrl+d,pagedown", action="scroll_verdict_down", description="scroll verdict down",
        help="Scroll the verdict panel down by half its height: a rejection's verdict can be longer than the panel.",
        group="view", display="^d PgDn", footer=False),
    Key("scroll_verdict_up", keys="ctrl+u,pageup", action="scroll_verdict_up", description="scroll verdict up",
        help="Scroll the verdict panel back up.", group="view", display="^u PgUp", footer=False),
    Key("summary", keys="S", action="summary", description="summary",
        help="The suite summary: how many cases pass each check, and what the label lens would answer; "
        "Enter lists those cases.", group="view", display="S"),
    Key("edit_claim", keys="e", action="edit_claim", needs="claims", description="edit",
        help="Edit the current claim's field, value, doc and quote in a small form; Enter re-verifies.", group="lab",
        display="e"),
    Key("edit_raw", keys="E", action="edit_raw", needs="loaded", description="edit raw",
        help="Edit the raw answer text itself, the decoding error marked as you type.", group="lab", display="E",
        footer=False),
    Key("mutations", keys="m", action="mutations", needs="changeable", description="mutate",
        help="The mutation menu for the current claim: type to filter, Enter applies one.", group="lab", display="m"),
    Key("predict", keys="P", action="predict", description="predict",
        help="Predict mode: before a mutation is applied, say the verdict you expect; the session keeps score.",
        group="lab", display="P", footer=False),
    Key("repair", keys="x", action="repair", needs="rejected", description="repair",
        help="For a rejected case, the smallest set of edits that makes it ACCEPT, as a diff; Enter applies it.",
        group="lab", display="x", footer=False),
    Key("save", keys="s", action="save", needs="loaded", shadowed=True, description="save",
        help="Save the case as shown (edited, or a copy of the frozen one) as a new case of a counterexample "
        "file, with its provenance; the form asks for the file, the id, the expected label and a note.", group="lab",
        display="s",
        footer=False),
    Key("mutation_report", keys="M", action="mutation_report", description="mutation report",
        help="The mutation report of the loaded suites: kills per code, survivors, uncovered codes; Enter opens "
        "a mutant in the lab.", group="lab", display="M", footer=False),
    Key("undo", keys="u", action="undo", needs="can_undo", description="undo",
        help="Undo the last change of this case's answer (there is no limit).", group="lab", display="u",
        footer=False),  # the verdict panel of an edited case says it
    Key("redo", keys="ctrl+r", action="redo", needs="can_redo", description="redo",
        help="Redo the change undone last.", group="lab", display="^r", footer=False),
    Key("reset", keys="R", action="reset", needs="edited", description="frozen case",
        help="Back to the case as its suite has it (redo brings the changes back); each case keeps its "
        "own changes until then.", group="lab", display="R", footer=False),
    *(_shortcut(key, name) for key, name in MUTATION_SHORTCUTS),
    # Review mode (inspector review, or the palette's "Review pending cases"): insta's keys.
    # a, r and s shadow raw/pretty (r) and save (s), which move to i and ^s in the mode.
    Key("review_accept", keys="a", action="decide('accept')", needs="decidable", description="accept",
        help="Accept the verdict: it becomes the case's label (kept in the pending file until applied); on to "
        "the next case left.", group="review", display="a", screen="review"),
    Key("review_reject", keys="r", action="decide('reject')", needs="decidable", description="reject",
        help="Reject the verdict and keep the label: the case is a known regression, kept as such; on to the next "
        "case left.", group="review", display="r", screen="review"),
    Key("review_skip", keys="s", action="decide('skip')", needs="decidable", description="skip",
        help="Skip the case: nothing decided, it stays left for the next review; on to the next case left.",
        group="review", display="s", screen="review"),
    Key("review_note", keys="N", action="decide_with_note", needs="decidable", description="note…",
        help="Accept, reject or skip with a note (a small form: the decision, then the note); the reviewer's name "
        "and the time are stamped on every decision.", group="review", display="N", screen="review"),
    Key("review_label", keys="L", action="label_claim", needs="claims_decidable", description="label…",
        help="Label the current claim as a person judges it (SUPPORTED, CONTRADICTED, INSUFFICIENT_EVIDENCE, or "
        "NOT_ASSESSABLE with a note), or clear its label; the claims panel shows it beside the lens's.",
        group="review", display="L", screen="review"),
    Key("review_pretty", keys="i", action="review_pretty", description="raw/pretty",
        help="In review mode, r rejects: raw/pretty moves here (the answer re-indented, or as received).",
        group="review", display="i", footer=False, screen="review"),
    Key("review_save", keys="ctrl+s", action="review_save", needs="loaded", description="save",
        help="In review mode, s skips: the lab's save moves here (the case as shown, as a new case of a "
        "counterexample file).", group="review", display="^s", footer=False, screen="review"),
    Key("review_leave", keys="escape", action="leave_review", needs="unfiltered", hidden=True,
        description="leave review",
        help="Leave review mode (after clearing a typed filter first): every case again; the decisions stay in "
        "the pending file.", group="review", display="Esc", screen="review"),
    Key("decide_submit", keys="enter", action="submit", description="decide",
        help="Decide the case with this note (Tab moves between the decision and the note); a refusal is said "
        "here, nothing written.",
        group="review", display="⏎ Enter", screen="decide", priority=True),
    Key("decide_close", keys="escape", action="dismiss", description="close",
        help="Close the form; nothing is decided.", group="review", display="Esc", screen="decide"),
    *(Key(f"label_{key}", keys=key, action=f"choose({index})", description=(label or "clear").lower(),
          help=f"Label the claim {label}." if label else "Clear the claim's human label.", group="review",
          display=key, footer=False, screen="label")
      for index, (key, label, _) in enumerate(LABEL_CHOICES)),
    *_moves("label", "label", group="review", shown=False),
    Key("label_submit", keys="enter", action="submit", description="label",
        help="Keep the highlighted label with the note (Tab moves to the note; NOT_ASSESSABLE needs one).",
        group="review", display="⏎ Enter", screen="label", priority=True),
    Key("label_close", keys="escape", action="dismiss", description="close",
        help="Close the form; the claim's label stays as it was.", group="review", display="Esc", screen="label"),
    *_moves("mutations", "mutation", group="menu", prefix="menu", typing=True),
    Key("menu_apply", keys="enter", action="apply", description="apply",
        help="Apply the selected mutation to the current claim (again: its next variant). Typing filters the "
        "list by dotted name, title or help.", group="menu", display="⏎ Enter", screen="mutations", priority=True),
    Key("menu_close", keys="escape", action="dismiss", description="close",
        help="Close the menu; nothing is applied.", group="menu", display="Esc", screen="mutations"),
    *(Key(f"predict_{status.lower()}", keys=key, action=f"say('{status}')", description=status,
    help=f"Predict {status}.", group="predict", display=key,
          screen="predict") for key, status in PREDICTIONS),
    Key("predict_cancel", keys="escape", action="dismiss", description="cancel",
        help="Do not predict: the mutation is not applied.", group="predict", display="Esc", screen="predict"),
    Key("exercise_citation_accepts", keys="y", action="citation(True)", description="citation-only accepts",
        help="Predict that citation-only accepts the changed answer.", group="exercise", display="y",
        screen="exercise"),
    Key("exercise_citation_rejects", keys="n", action="citation(False)", description="citation-only rejects",
        help="Predict that citation-only rejects it.", group="exercise", display="n", screen="exercise"),
    *(Key(f"exercise_{status.lower()}", keys=key, action=f"say('{status}')", description=status,
          help=f"Predict that the contract says {status}.", group="exercise", display=key, footer=False,
          screen="exercise")
      for key, status in PREDICTIONS),
    Key("exercise_undo", keys="u", action="restore", description="restore the quote",
        help="Step 2: restore the quote (undo the step 1 change).", group="exercise", display="u", screen="exercise"),
    *(Key(f"exercise_{name.replace('.', '_')}", keys=key, action=f"choose('{name}')", description=name,
          help=f"Step 2: change only the value with {name} ({MUTATIONS_BY_NAME[name].title}).", group="exercise",
          display=key,
          screen="exercise") for key, name in VALUE_MUTATIONS),
    Key("exercise_next", keys="enter", action="next", description="next",
        help="On to the next step once a step's result is shown.", group="exercise", display="⏎ Enter",
        screen="exercise"),
    Key("exercise_leave", keys="escape", action="dismiss", description="leave",
        help="Leave the exercise (the changes stay: u undoes them, R goes back to the frozen case).", group="exercise",
        display="Esc", screen="exercise"),
    Key("repair_apply", keys="enter", action="apply", description="apply",
        help="Apply the repair to the case's answer: one change, which u undoes (nothing when no edit can fix it).",
        group="lab", display="⏎ Enter", screen="repair"),
    Key("repair_close", keys="escape,x", action="dismiss", description="dismiss",
        help="Close the repair without changing anything (the arrow and page keys scroll a long diff).",
        group="lab", display="Esc x", screen="repair"),
    Key("save_submit", keys="enter", action="submit", description="save",
        help="Save the case with these fields (Tab moves between them); once saved, Enter opens the file's "
        "case in the inspector.", group="lab", display="⏎ Enter", screen="save", priority=True),
    Key("save_close", keys="escape", action="close", description="close",
        help="Close the form; what was saved stays saved, and the next save proposes the same file.",
        group="lab", display="Esc", screen="save"),
    *_moves("summary", "row of the summary", rows="the summary's rows", group="summary", on="table matrix"),
    Key("summary_left", keys="h,left", action="column(-1)", description="left",
        help="In the agreement's confusion matrix (below the checks, j past the last row), move to the cell on "
        "the left.", group="summary", display="h ←", footer=False, screen="summary", on="matrix"),
    Key("summary_right", keys="l,right", action="column(1)", description="right",
        help="Move to the cell on the right.", group="summary", display="l →", footer=False, screen="summary",
        on="matrix"),
    Key("summary_cases", keys="enter", action="show_cases", description="list these cases",
        help="Back to the main view, listing only the cases of this row, or of the matrix's cell (Esc there shows "
        "every case again).", group="summary", display="⏎ Enter", screen="summary"),
    Key("summary_scope", keys="a", action="toggle_scope", description="all suites / this suite",
        help="Summarise every loaded suite, or only the current case's suite.", group="summary", display="a",
        screen="summary"),
    Key("summary_back", keys="escape,S", action="dismiss", description="back",
        help="Back to the main view (q too, as on every screen).", group="summary", display="Esc S", screen="summary"),
    Key("edit_apply", keys="enter", action="apply", description="apply",
        help="Write the members you changed into the answer (only those tokens) and verify it again; Tab and "
        "⇧Tab move between the four fields.",
        group="lab", display="⏎ Enter", screen="edit_claim"),
    Key("edit_cancel", keys="escape", action="cancel", description="cancel",
        help="Close the form; the answer stays as it was.", group="lab", display="Esc", screen="edit_claim"),
    Key("raw_apply", keys="ctrl+s", action="apply", description="apply",
        help="Apply the text as the case's answer (one change: u undoes it on the main view).", group="lab",
        display="^s",
        screen="raw_editor"),
    Key("raw_undo", keys="ctrl+z", action="undo_text", description="undo",
        help="Undo the last edit of the text (the editor's own history, without limit).", group="lab", display="^z",
        screen="raw_editor"),
    Key("raw_redo", keys="ctrl+y", action="redo_text", description="redo",
        help="Redo the edit undone last.", group="lab", display="^y", screen="raw_editor"),
    Key("raw_cancel", keys="escape", action="cancel", description="close",
        help="Close the editor without applying; with unapplied edits the first Esc says so and the second "
        "discards them.", group="lab", display="Esc", screen="raw_editor"),
    # The report's table binds its movement keys but ^d and ^u, which scroll the row's detail here.
    *_moves("mutation_report", "row of the mutation report", rows="rows", group="report", prefix="report",
            page_aliases=False),
    Key("report_open", keys="enter", action="open_row", description="open",
        help="On a mutant: back to the main view with that mutant applied to its case, in the lab. On a code, "
        "a check or a suite's uncovered codes: list the mutants it counts (Esc goes back to the report).",
        group="report", display="⏎ Enter", screen="mutation_report"),
    Key("report_scope", keys="a", action="toggle_scope", description="all suites / this suite",
        help="The report of every loaded suite, or only of the current case's suite.", group="report", display="a",
        screen="mutation_report"),
    Key("report_detail_down", keys="ctrl+d", action="scroll_detail(1)", description="scroll detail down",
        help="Scroll the row's detail (a mutant's whole raw text) down.", group="report", display="^d", footer=False,
        screen="mutation_report"),
    Key("report_detail_up", keys="ctrl+u", action="scroll_detail(-1)", description="scroll detail up",
        help="Scroll the row's detail back up.", group="report", display="^u", footer=False, screen="mutation_report"),
    Key("report_back", keys="escape,M", action="back", description="back",
        help="Back: from a list of mutants to the report, from the report to the main view (a computation "
        "still running is stopped); q too, as on every screen.", group="report", display="Esc M",
        screen="mutation_report"),
    *_moves("triage", "group"),
    Key("triage_open", keys="enter", action="open_group", description="open",
        help="Open the group's records in the main view (registry, checks, lab), j/k paging through them; the bad "
        "lines' group lists each bad line's file, line and reason.", group="triage", display="⏎ Enter",
        screen="triage"),
    Key("triage_sort", keys="o", action="sort", description="sort",
        help="Order the groups by kind (as the summary lists them), by rejections (a scope's or "
        "a --by value's rejected records, a failing group's records; ACCEPT and the rungs last), by count, or "
        "by name; the groups' title says which.", group="triage", display="o",
        screen="triage"),
    Key("triage_filter", keys="slash", action="filter", description="filter",
        help="Filter the groups by name; Enter goes back to the groups (their keys move again).",
        group="triage", display="/", screen="triage"),
    Key("triage_export", keys="ctrl+e", action="export", description="export",
        help="Write the group's records as a new suite file, as --export does: the first 1,000 unless told, or a "
        "random sample of N drawn with a seed (as --sample N --seed S); open, audit and the lab read it.",
        group="triage", display="^e", screen="triage"),
    Key("triage_recount", keys="ctrl+r", action="recount", description="recount",
        help="Count the logs again from the start (a log rewritten or rotated since it was counted cannot be opened "
        "or exported until then); the lab edits of opened groups are dropped, so with some it asks first.",
        group="triage", display="^r", screen="triage"),
    Key("triage_pivot", keys="p", action="pivot", description="pivot",
        help="The pivot view: two dimensions crossed (the scope, the check, a --by path; --pivot A,B chooses them, "
        "else the first --by path and the check) as a grid, the first's values down and the second's across, "
        "each cell its share of the row and its records, the time histogram following the selected cell.",
        group="triage", display="p", screen="triage"),
    *_moves("pivot", "row"),
    Key("pivot_left", keys="h,left", action="cursor_left", description="left",
        help="Move to the previous column (the second dimension's previous value).", group="triage",
        display="h ←", screen="pivot", on="table"),
    Key("pivot_right", keys="l,right", action="cursor_right", description="right",
        help="Move to the next column (the grid scrolls sideways, the row names kept).", group="triage",
        display="l →", screen="pivot", on="table"),
    Key("pivot_open", keys="enter", action="open_pair", description="open cell",
        help="Open the cell's records in the main view, as a group's (j/k through them, the lab, t/w annotations).",
        group="triage", display="⏎ Enter", screen="pivot"),
    Key("pivot_sort", keys="o", action="sort", description="sort rows",
        help="Order the rows by records, by their rejected share, by their share in the cursor's column, or by "
        "name.", group="triage", display="o", screen="pivot"),
    Key("pivot_dimensions", keys="d", action="dimensions", description="dimensions",
        help="Cross two other dimensions: type A,B (scope, check or a path the triage counted by) and Enter.",
        group="triage", display="d", screen="pivot"),
    Key("pivot_back", keys="escape", action="back", description="overview",
        help="Back to the overview (while typing the dimensions: stop typing).", group="triage", display="Esc",
        screen="pivot"),
    Key("triage_trials", keys="t", action="trials", description="trials",
        help="The trials view: each item (its records in one run are its trials: the item member, --item PATH, else "
        "the request) with its trials and the verdicts they had, the most unstable first; the head has every item's "
        "stability (unstable share, pass@1, pass^k).", group="triage", display="t", screen="triage"),
    Key("triage_flips", keys="f", action="flips", description="flips",
        help="With --against, once both runs are counted: the flips view, the items of both runs by their verdict "
        "before and after (regressions first), McNemar's test on the paired items in the head.", group="triage",
        display="f", screen="triage"),
    *_moves("trials", "item"),
    Key("trials_open", keys="enter", action="open_item", description="open trials",
        help="Open the item's trials in the main view, one after another (j/k); the verdict panel says which check "
        "flips against its first trial, and on which claim.", group="triage", display="⏎ Enter", screen="trials"),
    Key("trials_sort", keys="o", action="sort", description="sort",
        help="Order the items most unstable first (more distinct verdicts, then a share accepted nearer one half, "
        "then more trials), by trials, by share accepted, or by item.", group="triage", display="o",
        screen="trials"),
    Key("trials_back", keys="escape", action="back", description="back",
        help="Back to the overview (or to the flips view, from a flip's items).", group="triage", display="Esc",
        screen="trials"),
    *_moves("flips", "flip"),
    Key("flips_open", keys="enter", action="open_flip", description="open items",
        help="The trials view of the flip's items only: their trials in the logs given, each with its verdict in "
        "--against's.", group="triage", display="⏎ Enter", screen="flips"),
    Key("flips_back", keys="escape", action="back", description="overview",
        help="Back to the overview.", group="triage", display="Esc", screen="flips"),
    Key("export_submit", keys="enter", action="submit", description="export",
        help="Write the suite with these fields (Tab moves between them); a refusal is said here, nothing written.",
        group="triage", display="⏎ Enter", screen="export", priority=True),
    Key("export_close", keys="escape", action="close", description="close",
        help="Close the form; a suite written stays written.",
        group="triage", display="Esc", screen="export"),
    Key("export_recount", keys="ctrl+r", action="recount", description="recount",
        help="Once a log changed since it was counted: close the form and count the logs again.",
        group="triage", display="^r", screen="export"),
    Key("triage_escape", keys="escape", action="escape", description="stop · clear",
        help="While verifying or following (--follow): stop, keeping what was counted so far (its groups open). "
        "Else: clear the group filter.",
        group="triage", display="Esc", screen="triage"),
    # A group's records: their own keys first in the footer (``bindings_over``), the main view's after.
    Key("records_filter", keys="slash", action="filter", description="filter",
        help="Filter the group's records: KEY=VALUE (a metadata member, as --by names it: model=gpt-x, "
        "metadata.model=gpt-x; null for none), KEY!=VALUE, raw:TEXT (in the raw answer: each record read again), "
        "annotated, true_rejection, false_rejection, true_acceptance, false_acceptance (the record's annotation), "
        "marked, and text found in the record's place or verdict; every term must hold, quote one with spaces; the "
        "title says how many match.", group="triage",
        display="/", screen="records"),
    Key("records_search", keys="ctrl+f", action="search", description="search",
        help="Search the records shown, without hiding any: the same terms as the filter (/); Enter goes to the "
        "first match from the record shown, the matches are highlighted in the list (▸ before the place), n and N "
        "step through them; Esc in the field clears the search.", group="triage", display="^f", screen="records"),
    Key("records_next_match", keys="n", action="next_match", needs="searched", hidden=True, description="next",
        help="With a search (^f): the next record it matches, after the one shown (from the first past the last).",
        group="triage", display="n", screen="records"),
    Key("records_previous_match", keys="N", action="previous_match", needs="searched", hidden=True,
        description="previous", help="With a search (^f): the previous record it matches.", group="triage",
        display="N", screen="records"),
    Key("records_mark", keys="space", action="mark", description="mark",
        help="Mark the record, or unmark it (● in the list); the title counts the marked records and ctrl+e "
        "offers to export just those. Marks are kept beside the log (LOG.marks.jsonl, as annotations are): "
        "they are there when the log is triaged again.", group="triage", display="space", screen="records"),
    Key("records_next_mark", keys="right_curly_bracket", action="next_mark", needs="marked", hidden=True,
        description="next", help="The next marked record of the list, after the one shown (from the first past "
        "the last).", group="triage", display="}", screen="records"),
    Key("records_previous_mark", keys="left_curly_bracket", action="previous_mark", needs="marked", hidden=True,
        description="previous", help="The previous marked record of the list.", group="triage", display="{",
        screen="records"),
    Key("records_clear_marks", keys="C", action="clear_marks", needs="marked", hidden=True,
        description="clear marks", help="Unmark every record of the group.", group="triage", display="C",
        screen="records"),
    Key("records_true", keys="t", action="annotate(True)", description="right",
        help="Annotate the record: the contract was right (a true rejection, or a true acceptance; ◇ in the list), "
        "kept in the annotations file beside the log (LOG.annotations.jsonl), never in the log; its note, if any, "
        "stays.", group="triage", display="t", screen="records"),
    Key("records_false", keys="w", action="annotate(False)", description="wrong",
        help="Annotate the record: the contract was wrong (a false rejection, or a false acceptance; ◆ in the "
        "list); the overview counts them per group, and an export carries the decision into the case (human).",
        group="triage", display="w", screen="records"),
    Key("records_note", keys="a", action="annotate_form", description="annotate…",
        help="The annotate form: the decision (of the two this record's verdict allows) and a note.",
        group="triage", display="a", screen="records"),
    Key("records_clear", keys="U", action="clear_annotation", needs="annotated", hidden=True,
        description="unannotate", help="Remove the record's annotation from the annotations file.",
        group="triage", display="U", screen="records"),
    Key("records_export", keys="ctrl+e", action="export", description="export",
        help="Write the group's records as a new suite file, as --export does: the marked ones, the first N or a "
        "random sample of N (a seed draws the same records as --sample N --seed S).", group="triage",
        display="^e", screen="records"),
    Key("records_line", keys="l", action="log_line", description="log line",
        help="The record's whole line as its log holds it, read again: re-indented (r: exactly as written), "
        "control characters and bytes that are not UTF-8 shown as escapes, the first 64 KiB of a longer one "
        "(the head says how much is cut); a log changed since it was counted is said instead.", group="triage",
        display="l", screen="records"),
    Key("records_back", keys="escape", action="back", description="overview",
        help="Back to the triage overview (a search, then a case filter, when set, is cleared first).",
        group="triage", display="Esc", screen="records"),
    Key("records_next_step", keys="right", action="next_step", needs="steps", description="next step",
        help="Step forward through the trace (n is the next match here).", group="trace", display="→",
        footer=False, screen="records"),
    Key("annotate_submit", keys="enter", action="submit", description="annotate",
        help="Annotate the record with this decision and note (Tab moves between them); a refusal is said here, "
        "nothing written.",
        group="triage", display="⏎ Enter", screen="annotate", priority=True),
    Key("annotate_close", keys="escape", action="dismiss", description="close",
        help="Close the form; the record's annotation stays as it was.", group="triage", display="Esc",
        screen="annotate"),
    Key("line_down", keys="j,down", action="scroll(1)", description="down", help="Scroll the line down.",
        group="triage", display="j ↓", screen="line"),
    Key("line_up", keys="k,up", action="scroll(-1)", description="up", help="Scroll the line up.",
        group="triage", display="k ↑", screen="line"),
    Key("line_page_down", keys="pagedown,ctrl+d,space", action="page(1)", description="page down",
        help="Scroll a page down.", group="triage", display="PgDn ^d", footer=False, screen="line"),
    Key("line_page_up", keys="pageup,ctrl+u", action="page(-1)", description="page up",
        help="Scroll a page up.", group="triage", display="PgUp ^u", footer=False, screen="line"),
    Key("line_pretty", keys="r", action="toggle_pretty", description="pretty/as written",
        help="Show the line re-indented (the same tokens: every key in its order, a repeated one twice, every "
        "escape as written) or exactly as written.", group="triage", display="r", screen="line"),
    Key("line_close", keys="escape,l,q", action="dismiss", description="close",
        help="Back to the record.", group="triage", display="Esc l q", screen="line"),
    *_moves("bad", "bad line"),
    Key("bad_line", keys="l,enter", action="log_line", description="whole line",
        help="The bad line's whole text as its log holds it, read again, its reason whole above it: re-indented "
        "when it is JSON text (r: exactly as written), control characters and bytes that are not UTF-8 shown as "
        "escapes, the first 64 KiB of a longer one (the head says the line goes on); a log changed since it was "
        "counted is said instead.", group="triage", display="l ⏎", screen="bad"),
    Key("bad_back", keys="escape", action="dismiss", description="back", help="Back to the triage overview.",
        group="triage", display="Esc", screen="bad"),
    Key("help_close", keys="escape,q,question_mark,f1", action="dismiss", description="close",
        help="Close this help (the arrow and page keys scroll it).", group="help", display="Esc q ?", screen="help"),
    Key("help", keys="question_mark,f1", action="help", description="help",
        help="This help: every key and what each panel shows.", group="app", display="? F1", screen="app"),
    Key("palette", keys="ctrl+p", action="command_palette", description="palette",
        help="The command palette: jump to a case by id, filter by verdict or check, open a file.", group="app",
        display="^p",
        footer=False, screen="app"),  # the footer docks the palette key on its right already
    # q, one rule on every screen (as VisiData's): back a screen, quitting from the first one; where work would
    # be lost (lab edits not saved, marks their file refused, an unfinished review) it asks first (screens.confirm).
    # Two keys of one q: the app's check_action offers the one that applies, the footer naming it.
    Key("back", keys="q", action="back_screen", description="back",
        help="Back a screen, as Esc (a screen with a typed filter keeps q for typing); on the first screen q quits. "
        "Where leaving would lose work (lab edits not saved, marks their file refused) it asks first.", group="app",
        display="q", screen="app"),
    Key("quit", keys="q", action="leave", description="quit",
        help="On the first screen: leave the inspector (^q too, from any screen); with work that quitting loses "
        "(lab edits not saved, marks their file refused, an unfinished review) it asks first, saying what.", group="app",
        display="q", screen="app"),
    Key("confirm_yes", keys="y,enter", action="answer(True)", description="yes",
        help="Yes: leave, losing what the question names.", group="app", display="y ⏎", screen="confirm"),
    Key("confirm_no", keys="n,escape", action="answer(False)", description="no",
        help="No: stay, nothing lost.", group="app", display="n Esc", screen="confirm"),
)


def keys_of(screen: str) -> tuple[Key, ...]:
    """The keys declared for one screen, in declaration order."""
    return tuple(key for key in KEYS if key.screen == screen)


def needs_by_action(*screens: str) -> dict[str, Needs]:
    """What each action of these screens' keys needs, by the action's name (without its parameters, as
    ``check_action`` is given it); the keys of one action declare the same (a test holds it)."""
    return {key.action.partition("(")[0]: key.when for screen in screens for key in keys_of(screen)}


def bindings(screen: str, on: str = "screen") -> list[BindingType]:
    """The ``BINDINGS`` of one screen (``app`` for the app's own), or of the widget of that screen
    that binds some of its keys (``on="table"``: its list table's movement keys)."""
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
        if on in key.on.split()
    ]


def bindings_over(screen: str, under: str) -> list[BindingType]:
    """The ``BINDINGS`` of a screen whose keys come before another's (a group's records over the main view):
    its own first, so the footer shows them first, then the other's without the keys it takes (a key of
    ``under`` bound to several keys keeps the others, with their display)."""
    own = [key for key in keys_of(screen) if key.on == "screen"]
    taken = {name for key in own for name in key.keys.split(",")}
    kept: list[Key] = []
    for key in keys_of(under):
        if key.on != "screen":
            continue
        names = key.keys.split(",")
        left = [name for name in names if name not in taken]
        if not left:
            continue
        if len(left) < len(names):
            shown = key.display.split()
            display = " ".join(word for name, word in zip(names, shown, strict=False) if name in left) \
                if len(shown) == len(names) else key.display
            key = replace(key, keys=",".join(left), display=display or key.display)
        kept.append(key)
    return [_binding(key) for key in (*own, *kept)]


def _binding(key: Key) -> Binding:
    return Binding(key.keys, key.action, key.description, show=key.footer, key_display=key.display.split()[0],
                   tooltip=key.help, id=key.id, group=_FOOTER_GROUPS.get(key.id), priority=key.priority)


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
        if screen == "review":
            parts.append("\nThe walk, the pending file, human labels and agreement: [review.md](review.md).\n")
        for group, group_title in GROUPS.items():
            rows = [key for key in declared if key.group == group]
            if not rows:
                continue
            if screen == "main":
                parts.append(f"\n### {group_title}\n")
            parts.append("\n| keys | what they do |\n|---|---|\n")
            parts.extend(f"| {_written(key.display)} | {key.help.replace('|', chr(92) + '|')} |\n" for key in rows)
    return "".join(parts)
