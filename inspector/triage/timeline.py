"""Timestamps of records: reading ``ts``, and the histogram over time.

``ts`` is ISO 8601 (``2026-11-30T10:00:00Z``, an offset, or no zone: read as UTC)
or epoch seconds (a JSON number).  Partial counts keep one count per minute and
verdict status, so they merge exactly whatever the histogram's bucket turns out
to be; the bucket is chosen from the span once everything is counted: the
smallest of minute, 5 and 15 minutes, hour, 6 hours, day and week that draws at
most ``MAX_BUCKETS`` bars (a week, beyond that).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

import msgspec

__all__ = ["BUCKETS", "MAX_BUCKETS", "Bar", "Histogram", "histogram", "iso", "parse_time", "parse_ts"]

_STAMP = msgspec.json.Decoder(float | datetime)
_TEXT = msgspec.json.Decoder(str)
BUCKETS: tuple[tuple[str, int], ...] = (
    ("minute", 60), ("5 minutes", 300), ("15 minutes", 900), ("hour", 3600), ("6 hours", 21600),
    ("day", 86400), ("week", 604800),
)
MAX_BUCKETS = 48
# Epoch seconds a datetime can hold (years 1 to 9999), so every ts counted can be shown.
_EARLIEST, _LATEST = -62135596800.0, 253402300799.0


def parse_time(text: str) -> float | None:
    """Epoch seconds of an ISO 8601 text or of a number written as text (what
    ``--since`` and ``--until`` take); None if it is neither."""
    try:
        value = float(text)
    except ValueError:
        pass
    else:
        return value if _EARLIEST <= value <= _LATEST else None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def parse_ts(member: msgspec.Raw | bytes) -> float | None:
    """Epoch seconds of a record's ``ts`` member (its JSON text), None if unreadable.

    msgspec reads a number or an RFC 3339 text in C; any other text (a date
    alone, a week date) goes through ``parse_time``."""
    try:
        value = _STAMP.decode(member)
    except (msgspec.DecodeError, RecursionError):
        try:
            text = _TEXT.decode(member)
        except (msgspec.DecodeError, RecursionError):
            return None
        return None if _is_number_text(text) else parse_time(text)
    if value.__class__ is float:
        return value if _EARLIEST <= value <= _LATEST else None  # type: ignore[operator]
    if value.tzinfo is None:  # type: ignore[union-attr]
        value = value.replace(tzinfo=UTC)  # type: ignore[union-attr]
    return value.timestamp()  # type: ignore[union-attr]


def _is_number_text(value: str) -> bool:
    # "1700000000" as a string is not an ISO text; only a JSON number is epoch seconds.
    return value.strip().lstrip("+-").replace(".", "", 1).isdigit()


def iso(seconds: float) -> str:
    """A UTC ISO 8601 text for epoch seconds, to the second."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class Bar:
    start: float  # epoch seconds
    records: int
    rejected: int


@dataclass(frozen=True, slots=True)
class Histogram:
    bucket: str  # "5 minutes"
    seconds: int
    bars: tuple[Bar, ...]  # every bucket from the first to the last, empty ones included
    first: float  # the earliest and latest counted minute
    last: float


def histogram(minutes: Mapping[tuple[int, str], int]) -> Histogram | None:
    """The histogram of per-(minute, status) counts, or None without any."""
    if not minutes:
        return None
    first = min(minute for minute, _ in minutes)
    last = max(minute for minute, _ in minutes)
    span = (last - first + 1) * 60
    name, seconds = next(((n, s) for n, s in BUCKETS if span / s <= MAX_BUCKETS), BUCKETS[-1])
    origin = (first * 60) // seconds * seconds
    bars = (last * 60 - origin) // seconds + 1
    if bars > 4 * MAX_BUCKETS * 52:  # decades of weeks: only the non-empty ones
        keys = sorted({(minute * 60 - origin) // seconds for minute, _ in minutes})
    else:
        keys = list(range(bars))
    records = dict.fromkeys(keys, 0)
    rejected = dict.fromkeys(keys, 0)
    for (minute, status), count in minutes.items():
        key = (minute * 60 - origin) // seconds
        records[key] += count
        if status != "ACCEPT":
            rejected[key] += count
    return Histogram(name, seconds, tuple(Bar(origin + key * seconds, records[key], rejected[key]) for key in keys),
                     first * 60.0, last * 60.0)
