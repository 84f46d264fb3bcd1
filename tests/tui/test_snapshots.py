"""How the inspector looks: one snapshot per state (pytest-textual-snapshot).

The states are the scenes the screenshots are made from (start, each kind of
failure, explore mode, pretty view, summary, help, palette, hostile text, 80×24,
the triage views of the bundled sample logs), plus a case failing each check of
the contract.  Review the report before
``--snapshot-update``.
"""

from __future__ import annotations

from functools import partial

import pytest

from inspector.suites.load import Suite
from inspector.tui.scenes import FAILING_SCENES, SCENES, Scene, app_for, load_bundled, opened, prepare


@pytest.fixture(scope="module")
def bundled() -> list[Suite]:
    return load_bundled()


@pytest.mark.parametrize("scene", SCENES, ids=[scene.name for scene in SCENES])
def test_scene(snap_compare, bundled, scene: Scene):
    with opened(scene, bundled) as app:  # a triage scene's log copied into a folder of its own while it runs
        assert snap_compare(app, terminal_size=scene.size, run_before=partial(prepare, scene))


@pytest.mark.parametrize("scene", FAILING_SCENES, ids=[scene.name.removeprefix("check-") for scene in FAILING_SCENES])
def test_failing_check(snap_compare, bundled, scene: Scene):
    app = app_for(scene, bundled)
    assert snap_compare(app, terminal_size=scene.size, run_before=partial(prepare, scene))
