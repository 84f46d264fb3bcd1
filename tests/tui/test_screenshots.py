"""The screenshots are written from the real app, through the scenes."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.suites.load import bundled_root
from inspector.tui.scenes import FAILING_SCENES, SCENES, Scene, opened, prepare, write_all
from support.tui import hidden_characters


def test_write_screenshots_from_the_real_app(tmp_path: Path, capsys):
    chosen = [scene for scene in SCENES if scene.name in ("start", "hostile")]
    assert write_all(tmp_path, chosen) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["hostile.svg", "start.svg"]
    assert capsys.readouterr().out.split() == [str(tmp_path / "start.svg"), str(tmp_path / "hostile.svg")]
    svg = (tmp_path / "hostile.svg").read_text(encoding="utf-8")
    assert svg.startswith('<svg xml:space="preserve" ')  # rsvg-convert keeps leading spaces
    assert hidden_characters(svg) == []
    assert "\\u001b" in svg  # the OSC 52 quote, shown as escapes


def test_unknown_case_in_a_scene_is_an_error(tmp_path: Path, capsys):
    assert write_all(tmp_path, [Scene("x", "", ("article", "no-such-case"))]) == 2
    assert "no-such-case" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_scene_names_are_unique():
    names = [scene.name for scene in (*SCENES, *FAILING_SCENES)]
    assert len(names) == len(set(names))


def bundled_logs() -> list[tuple[str, int, int]]:
    """Every file under the bundled logs' folder: its path, size and modification time."""
    root = bundled_root()
    assert root is not None
    return sorted((str(path.relative_to(root)), path.stat().st_size, path.stat().st_mtime_ns)
                  for path in (root / "logs").rglob("*"))


async def test_a_triage_scene_keeps_its_marks_beside_its_own_copy_of_the_log(bundled):
    # (That two drawings of a triage scene are the same bytes, the head's records/s and seconds included, is
    # test_snapshots.py's test_scene: each is compared with the picture drawn before.)
    before = bundled_logs()
    scene = next(scene for scene in SCENES if scene.name == "triage-records")
    with opened(scene, bundled) as app:
        folder = Path.cwd()
        async with app.run_test(size=scene.size) as pilot:
            await prepare(scene, pilot)
            svg = app.export_screenshot()
        marks = (folder / "sample.jsonl.marks.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(marks) == 3  # the header and the two records marked
    assert not folder.exists() and Path.cwd() != folder
    assert bundled_logs() == before  # nothing written beside the package's log
    assert "2&#160;marked" in svg and "sample.jsonl" in svg and str(folder) not in svg  # the log as given


def test_a_triage_scene_opens_no_suite_case():
    from inspector.tui.scenes import SAMPLE_BY_MODEL

    with pytest.raises(ValueError, match="a triage scene"):
        Scene("x", "", ("article", "complete-answer"), triage=SAMPLE_BY_MODEL)
