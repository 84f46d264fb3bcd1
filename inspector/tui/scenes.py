"""The inspector's main states, as data: the screenshots and the snapshot tests
both drive the real app through these.

A scene opens one case of the bundled suites (by suite and id), presses keys,
and is looked at in a terminal of a given size.  A triage scene (``Scene.triage``)
opens the overview of a bundled log instead, as ``inspector triage`` does, and
presses its keys once the log is counted.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from ..contract.text import visible
from ..contract.models import Registry
from ..contract.version import VERIFIER
from ..presentation.overview import TASK_BYTES, TriageRun, triage_run
from ..presentation.review import ReviewSession
from ..presentation.session import Session
from ..io.writing import TargetExists, WriteError, check_free, write_files, write_new_directory
from ..suites.load import ClaimLabel, Suite, bundled_root, bundled_suite_paths, load_registry, load_suite
from ..triage.engines import Progress, Runs
from ..triage.formats.spec import preset
from ..triage.formats.stage import stage
from ..triage.mapping import DEFAULT_FORMAT, LogFormat
from ..triage.run import LocalEngine
from ..triage.tally import Tally
from .app import InspectorApp, TriageApp, make_app, make_review_app, make_triage_app

__all__ = ["FAILING", "FAILING_SCENES", "SCENES", "Scene", "TriageLog", "keep_toasts", "load_bundled", "opened",
           "prepare", "steady_cursors", "write_all"]


@dataclass(frozen=True, slots=True)
class TriageLog:
    """A triage scene's log: one the package ships (its path under the bundled
    folder, ``bundled_root``), counted as ``inspector triage LOG --registry
    REGISTRY --by ... --log-format ...`` counts it."""

    log: str  # e.g. "logs/sample.jsonl"
    registry: str = "logs/sample-registry.json"
    by: tuple[str, ...] = ()
    log_format: str | None = None  # a --log-format preset's name


@dataclass(frozen=True, slots=True)
class Scene:
    name: str  # the screenshot's file name, without .svg
    description: str
    case: tuple[str, str] | None = None  # (suite name, case id) to open first
    keys: tuple[str, ...] = ()
    size: tuple[int, int] = (120, 36)
    suites: tuple[str, ...] | None = None  # only these bundled suites (default: all)
    review: bool = False  # in review mode on REVIEW_DEMO's suite (review_suite), as REVIEWER
    triage: TriageLog | None = None  # the overview of this log (the keys pressed once it is counted)

    def __post_init__(self) -> None:
        if self.triage is not None and (self.case is not None or self.suites is not None or self.review):
            raise ValueError(f"scene {self.name}: a triage scene opens its log's overview, no suite or case")


# A case failing each check of the contract: (suite, case id).  The snapshot
# tests look at each; the highlight tests check every view points at what it compares.
FAILING: dict[str, tuple[str, str]] = {
    "size": ("decode", "size-8193-units-too-large"),
    "encoding": ("decode", "not-utf8-ff-byte"),
    "depth": ("decode", "depth-17-value-array-too-deep"),
    "syntax": ("article", "trailing-second-object"),
    "duplicate_key": ("article", "duplicate-claims-key"),
    "shape": ("article", "free-text-answer-member"),
    "has_claims": ("article", "empty-claims"),
    "doc_known": ("article", "invented-doc"),
    "authorized": ("access", "not-approved"),
    "doc_supplied": ("article", "billing-not-supplied"),
    "quote_found": ("article", "invented-quote"),
    "unique_field": ("article", "duplicate-timeout-claim"),
    "requested_field": ("article", "extra-max-connections-claim"),
    "scope": ("article", "dev-environment-claims"),
    "revision": ("article", "prod-v1-claims"),
    "value": ("article", "real-quote-wrong-value"),
    "quote_supports": ("article", "quote-from-other-field"),
    "coverage": ("article", "omitted-field"),
}

# The sample log's overview, --by model (the README's triage tour).
SAMPLE_BY_MODEL = TriageLog("logs/sample.jsonl", by=("model",))

SCENES: tuple[Scene, ...] = (
    Scene("start", "The inspector as it opens on the bundled suites: the first case, its last step."),
    Scene("value-mismatch", "A genuine quote supporting a wrong value: VALUE_MISMATCH, the fact cell in red.",
          ("article", "real-quote-wrong-value")),
    Scene("scope-mismatch", "The right value from the dev environment: SCOPE_MISMATCH.",
          ("article", "dev-environment-claims")),
    Scene("stale-revision", "Values from the superseded revision: STALE_REVISION.",
          ("article", "prod-v1-claims")),
    Scene("quote-not-found", "An invented quote: not found, the nearest line marked.",
          ("article", "invented-quote")),
    Scene("quote-not-supporting", "A real line that states another field: QUOTE_NOT_SUPPORTING.",
          ("article", "quote-from-other-field")),
    Scene("duplicate-key", "claims appears twice: both occurrences marked in the raw answer.",
          ("article", "duplicate-claims-key")),
    Scene("not-authorized", "A scoped request citing an expired document: access fails, expires_at in red.",
          ("access", "expired")),
    Scene("lens-would-answer", "A stale revision the label lens would answer: every claim SUPPORTED, rejected.",
          ("access", "stale-but-supported")),
    Scene("conflict", "Two current documents disagree on retry_enabled: conflicting evidence, both cells shaded.",
          ("conflicts", "conflict-wrong-side")),
    Scene("retrieval-blamed", "Only the dev document was supplied: retrieval's failure, recall 0/2.",
          ("conflicts", "retrieval-supplied-nothing-relevant")),
    Scene("explore", "Explore mode: the checks after the first failure evaluated too, greyed.",
          ("article", "prod-v1-claims"), ("F", "n", "n")),
    Scene("pretty", "The pretty view of an answer with trailing data; the error position kept.",
          ("article", "trailing-second-object"), ("r",)),
    Scene("summary", "The suite summary: n/N per rung and for the label lens, first failures per check.",
          ("article", "complete-answer"), ("S",)),
    Scene("help", "The help screen, built from the key declarations.", None, ("question_mark",)),
    Scene("palette", "The command palette, jumping to a case by id.", None,
          ("ctrl+p", *"prod-v1")),
    Scene("hostile", "Hostile text shown literally: an OSC 52 quote, markup, bidi overrides.",
          ("hostile", "osc52-quote-not-found")),
    Scene("narrow", "Still usable at 80×24.", ("article", "prod-v1-claims"), size=(80, 24)),
    # The counterexample lab: the article's exercise, a few keystrokes.
    Scene("lab-quote-swap", "The lab: the quote replaced by another genuine line of the same source (o o): "
          "citation-only still accepts, the contract now rejects.", ("article", "complete-answer"), ("o", "o")),
    Scene("lab-menu", "The lab's mutation menu on the current claim, filtered by typing.",
          ("article", "complete-answer"), ("m", *"value")),
    Scene("lab-repair", "Repair (x): the smallest edits that make a rejected answer ACCEPT, as a diff.",
          ("article", "real-quote-wrong-value"), ("x",)),
    Scene("lab-raw-editor", "The raw editor (E): the answer's text, the decoding error marked as you type.",
          ("article", "trailing-second-object"), ("E",)),
    Scene("mutation-report", "The mutation report (M) of the bundled suites: the score, the mutants each "
          "verdict code killed first, the slipped mutants per check.", ("article", "complete-answer"), ("M",)),
    # Review mode (inspector review): the article's suite with three labels that no longer hold.
    Scene("review", "Review mode: the cases whose verdict differs from the frozen label, how many are left, "
          "why the case is pending; a accept, r reject, s skip, L labels a claim.", review=True),
    Scene("review-summary", "The summary in review mode: people's claim labels against the label lens and the "
          "contract, the rate, Cohen's kappa and the confusion matrices.", keys=("S",), review=True),
    # Triage (inspector triage): the bundled sample log and, for trials, the Inspect sample.
    Scene("triage-overview", "The triage overview of the sample log, --by model: the head's counts, every group "
          "by kind, a claim's check, field and document in columns.",
          triage=SAMPLE_BY_MODEL),
    Scene("triage-narrow", "The triage overview at 80×24: the claims' columns kept, the rate and the rejected "
          "given way.", size=(80, 24), triage=SAMPLE_BY_MODEL),
    Scene("triage-pivot", "The pivot view (p): models down, checks across, a cell selected and its records over "
          "time.", keys=("p", "j", "l", "l", "l"), triage=SAMPLE_BY_MODEL),
    Scene("triage-records", "A group's records (Enter on VALUE_MISMATCH): two marked with space, a search "
          "(ctrl+f model=gpt-x) highlighting its matches.",
          keys=(*"jjjjjj", "enter", "space", "j", "space", "ctrl+f", *"model=gpt-x", "enter"),
          triage=SAMPLE_BY_MODEL),
    Scene("triage-trials", "The trials view (t) of an Inspect eval log (--log-format inspect): each item's "
          "epochs, the most unstable first, pass@1 and pass^2.", keys=("t",),
          triage=TriageLog("logs/formats/inspect/config_claims.eval", log_format="inspect")),
)


# The snapshot tests' scenes of a case failing each check.
FAILING_SCENES: tuple[Scene, ...] = tuple(
    Scene(f"check-{check_id}", f"a case failing {check_id}", case) for check_id, case in FAILING.items())


def load_bundled() -> list[Suite]:
    return [load_suite(path, strict=False) for path in bundled_suite_paths()]


def app_for(scene: Scene, suites: Sequence[Suite]) -> InspectorApp:
    """The app a suite scene is looked at in (a triage scene's is ``opened``'s)."""
    if scene.review:
        session = Session([review_suite(suites)])
        return make_review_app(session, ReviewSession(session, REVIEWER, clock=lambda: REVIEW_TIME))
    chosen = [s for s in suites if scene.suites is None or s.name in scene.suites]
    return make_app(chosen)


@contextmanager
def opened(scene: Scene, suites: Sequence[Suite]) -> Iterator[InspectorApp]:
    """The app a scene is looked at in, for as long as it runs.

    A triage scene's log and registry are copies in a new temporary folder, the
    current directory while the app runs: named as given relative to it
    (``sample.jsonl``), they read the same on every machine, and what the scene's
    keys write beside the log (its marks, annotations) lands there, never beside
    the package's log.  The folder (and a staged format's copies) is removed after.
    (The current directory is the process's: scenes are drawn one at a time.)"""
    if scene.triage is None:
        yield app_for(scene, suites)
        return
    with tempfile.TemporaryDirectory(prefix="inspector-scene-") as folder, _inside(Path(folder)):
        run, staged = _triage_run(scene.triage, Path(folder))
        try:
            yield make_triage_app(run)
        finally:
            if staged is not None:
                shutil.rmtree(staged, ignore_errors=True)


@contextmanager
def _inside(folder: Path) -> Iterator[None]:
    """``folder`` the current directory, and the one before it again after."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def _triage_run(log: TriageLog, folder: Path) -> tuple[TriageRun, str | None]:
    """The triage of a copy of ``log`` in ``folder`` (the current directory), counted by ``SteadyEngine``,
    and the folder its staged copies are in (a --log-format preset whose logs are documents)."""
    root = bundled_root()
    if root is None:
        raise LookupError("no bundled logs: the package's fixtures are missing")
    names = []
    for bundled in (log.log, log.registry):
        name = Path(bundled).name
        try:
            shutil.copyfile(root / bundled, folder / name)
        except OSError as exc:
            raise LookupError(f"{root / bundled}: {exc.strerror or exc}") from None
        names.append(name)
    name, registry = names
    logs, given, staged, log_format, by = [name], None, None, DEFAULT_FORMAT, log.by
    if log.log_format is not None:
        spec = preset(log.log_format)
        by = log.by or spec.by
        if spec.staged:  # as the CLI does: a document's records staged as lines, shown by the log's name
            done = stage(logs, spec)
            logs, given, staged, log_format = done.logs, logs, done.folder, LogFormat(staged=True)
        else:
            log_format = LogFormat(spec=spec)
    return triage_run(logs, load_registry(registry), registry, by, log_format=log_format, given=given,
                      engine=SteadyEngine()), staged


# The seconds every triage scene's count says it took, whatever it took.
SCENE_SECONDS = 0.5


@dataclass(frozen=True)
class SteadyEngine:
    """The local engine (the overview's tasks), its progress saying the count took
    ``SCENE_SECONDS``: the overview's head (records/s, seconds) reads the same on
    every run of a scene, on any machine, as the rest of its picture does."""

    engine: LocalEngine = LocalEngine(task_bytes=TASK_BYTES)

    @property
    def task_bytes(self) -> int | None:
        return self.engine.task_bytes

    def count_runs(self, runs: Runs, registry: Registry, *, on_progress: Callable[[Progress], None] | None = None,
                   **rest: Any) -> list[Tally]:
        told = on_progress
        steady = None if told is None else (lambda progress: told(replace(progress, seconds=SCENE_SECONDS)))
        return self.engine.count_runs(runs, registry, on_progress=steady, **rest)


# The review scenes' suite: named as if in a folder of the current directory that
# does not exist (so the strip's path reads the same on every machine); the
# scenes decide nothing, so nothing is ever written there.
REVIEW_DEMO = Path("review-demo") / "article.json"
REVIEWER, REVIEW_TIME = "alice", "2026-12-02T06:30:00Z"
# Cases whose frozen label the demo changes (they become pending), and people's labels it holds.
REVIEW_RELABEL = {"complete-answer": "VALUE_MISMATCH", "real-quote-wrong-value": "ACCEPT",
                  "prod-v1-claims": "ACCEPT"}
REVIEW_HUMAN = {"complete-answer": ("SUPPORTED", "SUPPORTED"), "prod-v1-claims": ("SUPPORTED", "CONTRADICTED"),
                "real-quote-wrong-value": ("CONTRADICTED",), "invented-quote": ("INSUFFICIENT_EVIDENCE",)}


def review_suite(suites: Sequence[Suite]) -> Suite:
    """The bundled article suite with REVIEW_RELABEL's labels and REVIEW_HUMAN's claim labels, in memory."""
    article = next(suite for suite in suites if suite.name == "article")
    cases = []
    for case in article.cases:
        changes: dict[str, Any] = {}
        if case.id in REVIEW_RELABEL:
            changes["expected"] = REVIEW_RELABEL[case.id]
        if case.id in REVIEW_HUMAN:
            changes["human_labels"] = tuple(ClaimLabel(claim, label, reviewer="bob", at=REVIEW_TIME,
                                                       verifier=VERIFIER)
                                            for claim, label in enumerate(REVIEW_HUMAN[case.id]))
        cases.append(replace(case, **changes))
    return replace(article, path=REVIEW_DEMO, cases=tuple(cases))


# How long a toast raised in a scene stays: longer than any scene takes to draw.
SCENE_TOAST_SECONDS = 600


def keep_toasts(app: InspectorApp) -> None:
    """Every toast the scene's keys raise stays until the picture is taken.  A
    toast lasts seconds of wall time (the lab's two, raised by ``o o``, 2 s each):
    on a busy machine the first was gone before the picture, on an idle one not,
    and two pictures of one state differed."""
    notify = app.notify

    def lasting(*args: object, **kwargs: object) -> None:
        kwargs["timeout"] = SCENE_TOAST_SECONDS
        notify(*args, **kwargs)  # type: ignore[arg-type]  # notify's own arguments, passed on

    app.notify = lasting  # type: ignore[method-assign]  # the screenshots' notifications last


def steady_cursors(app: InspectorApp) -> None:
    """Every cursor of the screen drawn steady (shown where its field has the
    focus): a blinking one would make two pictures of one state differ, the raw
    editor's TextArea's as an Input's."""
    for field in app.screen.query(Input):
        field.cursor_blink = False
    for area in app.screen.query(TextArea):
        area.cursor_blink = False


async def prepare(scene: Scene, pilot: Pilot) -> None:
    """Bring a running app into the scene's state."""
    app = pilot.app
    assert isinstance(app, InspectorApp)
    keep_toasts(app)
    await pilot.pause()
    if scene.triage is not None:
        await _counted(scene, pilot)
    if scene.case is not None:
        suite_name, case_id = scene.case
        session = app.session
        found = next((n for n, found_id in enumerate(session.ids)
                      if found_id == case_id and session.report(n).suite.name == suite_name), None)
        if found is None:
            raise LookupError(f"scene {scene.name}: no case {case_id!r} in suite {suite_name!r}")
        app.main.open_case(found)
        await pilot.pause()
    for key in scene.keys:
        await pilot.press(key)
        await app.workers.wait_for_complete()  # a screen computed in a worker (the mutation report) is shown
        await pilot.pause()
    steady_cursors(app)
    # The footer catches up shortly after the last key (it is redrawn off the key path).
    await pilot.pause(0.2)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


# How many times a triage scene lets the app run on (each until its workers are done and
# their messages handled) for the count, and what it shows, to be drawn.
COUNT_ROUNDS = 500


async def _counted(scene: Scene, pilot: Pilot) -> None:
    """Pause until the overview has counted its log and drawn what the count shows
    (the selected group's histogram is drawn in a worker once the count is done);
    LookupError for a log that could not be read."""
    app = pilot.app
    assert isinstance(app, TriageApp)
    for _ in range(COUNT_ROUNDS):
        await app.workers.wait_for_complete()
        await pilot.pause()
        counted = app.overview.counted
        if counted is not None and counted.done and all(worker.is_finished for worker in app.workers):
            if counted.failed is not None:
                raise LookupError(f"scene {scene.name}: {counted.failed}")
            return
    raise LookupError(f"scene {scene.name}: its log was not counted")


def _preserve_spaces(svg: str) -> str:
    """Keep the spaces that start a text run.  The export writes each run of one
    style as its own ``<text>``; librsvg (rsvg-convert, ImageMagick, GNOME viewers)
    drops a run's leading no-break spaces unless told to preserve them, which reads
    as "claims· article8/22" where the terminal shows "claims · article 8/22"."""
    return svg.replace("<svg ", '<svg xml:space="preserve" ', 1)


async def _render(scenes: Sequence[Scene]) -> dict[str, bytes]:
    suites = load_bundled()
    rendered: dict[str, bytes] = {}
    for scene in scenes:
        with opened(scene, suites) as app:
            async with app.run_test(size=scene.size) as pilot:
                await prepare(scene, pilot)
                rendered[f"{scene.name}.svg"] = _preserve_spaces(app.export_screenshot()).encode("utf-8")
    return rendered


def write_all(out_dir: Path, scenes: Sequence[Scene] = SCENES, *, overwrite: bool = False) -> int:
    """Write one SVG per scene into ``out_dir``; the exit status.

    Every scene is rendered before anything is written, and then all the files
    are written or none (``writing``): a full disk, a read-only directory or a
    directory where an SVG should go leaves ``out_dir`` as it was.  An SVG that
    exists is replaced only with ``overwrite``, and then atomically."""
    names = [f"{scene.name}.svg" for scene in scenes]
    try:
        check_free(out_dir, names, overwrite=overwrite)  # before the seconds of rendering
        rendered = asyncio.run(_render(scenes))
        if out_dir.is_dir():
            write_files(out_dir, rendered, overwrite=overwrite)
        else:
            write_new_directory(out_dir, rendered)
    except TargetExists as error:
        print(f"inspector: error: {visible(str(error))}; pass --overwrite to replace the screenshots",
              file=sys.stderr)
        return 2
    except (LookupError, WriteError) as error:
        print(f"inspector: error: {visible(str(error))}", file=sys.stderr)
        return 2
    for name in rendered:
        print(out_dir / name)
    return 0
