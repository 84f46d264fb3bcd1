"""The screenshots are written from the real app, through the scenes."""

from __future__ import annotations

from pathlib import Path

from inspector.tui.scenes import FAILING_SCENES, SCENES, Scene, write_all
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
