"""What the overview and the pivot view share: a histogram that follows the selected group (or pair).

``FollowsTime`` is mixed into a screen: ``follow_time()`` draws the histogram of
what ``time_target()`` selects in ``time_snapshot()``; the screen draws it with
``show_time``.  Once the count is done and swept (``presentation.overview.has_buckets``),
a group's histogram is a few milliseconds from the sweep kept, drawn at once;
else a worker sweeps the counts (``time_shown``) and posts it (``TimeDrawn``),
drawn only if it is still of the snapshot shown and of the group selected.
While counting, a move draws once the cursor rests (``rest``), not for every
key, and a new snapshot at most every second and a fifth of the time
(``snapshot_due``): each draw is a sweep of the counts so far, holding the
interpreter from the keys meanwhile.
"""

from __future__ import annotations

import time

from textual import work
from textual.timer import Timer

from ...presentation.overview import Snapshot, TimeShown, has_buckets, time_shown
from ...triage.summary import Group
from ..widgets.time_table import TimeDrawn

__all__ = ["FollowsTime"]

# How long the cursor rests before a histogram is drawn while counting (seconds).
REST = 0.3


class FollowsTime:
    """A screen's histogram following its selection (see the module)."""

    _buckets: object = None  # the finished snapshot's sweep, kept for the next group
    _time_drawn: float = 0.0  # when the histogram was last drawn while counting
    _time_cost: float = 0.0  # how long that drawing took (its worker's sweep)
    _time_timer: Timer | None = None

    # -- what the screen says ------------------------------------------------------------

    def time_snapshot(self) -> Snapshot | None:
        raise NotImplementedError

    def time_target(self) -> Group | None:
        raise NotImplementedError

    def show_time(self, shown: TimeShown) -> None:
        raise NotImplementedError

    # -- following ---------------------------------------------------------------------------

    def follow_time(self) -> None:
        """Draw the selection's histogram now (from the sweep kept) or in a worker."""
        snapshot = self.time_snapshot()
        if snapshot is None:
            return
        group = self.time_target()
        if snapshot.done and has_buckets(snapshot, self._buckets):  # type: ignore[arg-type]  # the buckets kept: Buckets or None
            self.show_time(time_shown(snapshot, group, self._buckets)[0])  # type: ignore[arg-type]  # the buckets kept: Buckets or None
            return
        self._draw_time(snapshot, group, self._buckets)

    def time_moved(self) -> None:
        """The selection moved: drawn at once when counted, once the cursor rests while counting."""
        if self._time_timer is not None:
            self._time_timer.stop()
            self._time_timer = None
        snapshot = self.time_snapshot()
        if snapshot is not None and snapshot.done:
            self.follow_time()
        else:
            self._time_timer = self.set_timer(REST, self.follow_time)  # type: ignore[attr-defined]  # a mixin of a Screen

    def snapshot_due(self, snapshot: Snapshot) -> bool:
        """Whether a new snapshot's histogram is drawn now (the last one, always)."""
        if snapshot.done or time.monotonic() - self._time_drawn >= max(1.0, 5 * self._time_cost):
            self._time_drawn = time.monotonic()
            return True
        return False

    def forget_time(self) -> None:
        """A count starts again: nothing kept of the last one's."""
        self._buckets = None
        self._time_drawn = self._time_cost = 0.0

    @work(thread=True, exclusive=True, group="time")
    def _draw_time(self, snapshot: Snapshot, group: Group | None, buckets: object) -> None:
        started = time.monotonic()
        shown, buckets = time_shown(snapshot, group, buckets)  # type: ignore[arg-type]  # the buckets kept: Buckets or None
        if not snapshot.done:
            self._time_cost = time.monotonic() - started
        self.post_message(TimeDrawn(shown, buckets, snapshot))  # type: ignore[attr-defined]  # a mixin of a Screen

    def on_time_drawn(self, drawn: TimeDrawn) -> None:
        # (named for the message: a mixin's @on handlers are not collected, a method of this name is found)
        if drawn.snapshot is not self.time_snapshot():
            return  # an older snapshot's (a newer one draws again)
        self._buckets = drawn.buckets
        current = self.time_target()
        if drawn.shown.group is not None and (current is None or current.name != drawn.shown.group):
            return  # the cursor moved on: the next one is on its way
        self.show_time(drawn.shown)
