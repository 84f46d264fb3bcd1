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


def _drawn(scene: Scene) -> bool:
    """Whether a scene above draws this failing case already: the same case, no keys, the same size (the
    same picture, byte for byte)."""
    return any(other.case == scene.case and not other.keys and other.size == scene.size and not other.review
               and other.suites is None for other in SCENES)


# A case failing each check, but those a scene draws already (value-mismatch is the value check's case).
UNDRAWN = [scene for scene in FAILING_SCENES if not _drawn(scene)]


@pytest.mark.parametrize("scene", UNDRAWN, ids=[scene.name.removeprefix("check-") for scene in UNDRAWN])
def test_failing_check(snap_compare, bundled, scene: Scene):
    app = app_for(scene, bundled)
    assert snap_compare(app, terminal_size=scene.size, run_before=partial(prepare, scene))


def test_every_check_has_a_picture_of_a_case_failing_it():
    drawn = [scene for scene in FAILING_SCENES if _drawn(scene)]
    assert len(drawn) + len(UNDRAWN) == len(FAILING_SCENES) == len({scene.case for scene in FAILING_SCENES})
    assert {scene.name for scene in drawn} == {"check-value", "check-scope", "check-revision", "check-quote_found",
                                               "check-quote_supports", "check-duplicate_key"}
