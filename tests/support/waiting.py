"""Waiting on a condition, never for a fixed time: ``until`` polls briefly,
letting a Pilot's app (or the event loop) run between looks, and returns as soon
as the condition holds; ``wait_until`` does the same for a thread.  Each raises
an AssertionError saying what never happened once its timeout has passed, so a
slow machine only waits longer and a fast one never waits for nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


async def until(pilot: Any, holds: Callable[[], T], what: str, timeout: float = 20.0, every: float = 0.01) -> T:
    """What ``holds()`` returns once it is true, looked at every ``every`` seconds
    (the app, or with ``pilot`` None the event loop, runs in between), then one
    more pause of the app so that what the change schedules is drawn."""
    deadline = time.monotonic() + timeout
    while True:
        found = holds()
        if found:
            if pilot is not None:
                await pilot.pause()
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s, and never: {what}")
        await (pilot.pause(every) if pilot is not None else asyncio.sleep(every))


def wait_until(holds: Callable[[], T], what: str, timeout: float = 10.0, every: float = 0.01) -> T:
    """``until`` for a test that waits on another thread or process."""
    deadline = time.monotonic() + timeout
    while True:
        found = holds()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s, and never: {what}")
        time.sleep(every)
