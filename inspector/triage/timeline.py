"""Timestamps of records: reading ``ts``, and the histogram over time.

One rule, for a ``ts`` member and ``--since``/``--until`` alike: a JSON number
is epoch seconds, and a string is ISO 8601 (what ``datetime.fromisoformat``
reads: ``2026-11-30T10:00:00Z``, an offset, no zone (UTC), a date alone, a week
date); a string of digits of any length (``"1796119200"``, an OpenTelemetry
``"1796120581621166300"`` in nanoseconds, ``"20261201"``), ``"1e5"`` or
``"1_796_119_200"`` is not a time: ``fromisoformat`` would read a digit string
as a compact ISO date (``"1796120581621166300"`` as 1796-12-05), so one never
reaches it.  A record whose ``ts`` is there but not read is counted
(``Tally.bad_ts``), and the summary and the overview say so once
(``unread_words``).  On the command line, where every value is text, a number
written as JSON writes it (``1796119200``, ``1.7e9``) is epoch seconds and
anything else is read as ISO 8601.  The instant must fall within the years 1
to 9999 in UTC (what can be shown with a four-digit year); outside, the ts is
unreadable and ``--since``/``--until`` refused.

Partial counts keep one count per minute and verdict status, so they merge
exactly whatever the histogram's bucket turns out to be; the bucket is chosen
once everything is counted, from the span of the bulk of the records: a record
further from the middle half of the records (by minute) than three times that
half's span, and than a day (``OUTLIER_MARGIN``), is an outlier (Tukey's "far
out") if it is among the 5% earliest or latest (``OUTLIER_SHARE``), counted
before or after the range shown instead of stretching it (one ``ts: 0`` among
today's records would draw 2,970 weeks).  The bucket is the
smallest of minute, 5 and 15 minutes, hour, 6 hours, day and week that draws at
most ``MAX_BUCKETS`` bars over that range (a week, beyond that).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

import msgspec

__all__ = ["BUCKETS", "EARLIEST", "LATEST", "MAX_BUCKETS", "OUTLIER_MARGIN", "OUTLIER_SHARE", "Bar", "Histogram", "histogram",
           "iso", "parse_time", "parse_ts", "unread_words"]

_STAMP = msgspec.json.Decoder(float | datetime)
_TEXT = msgspec.json.Decoder(str)
BUCKETS: tuple[tuple[str, int], ...] = (
    ("minute", 60), ("5 minutes", 300), ("15 minutes", 900), ("hour", 3600), ("6 hours", 21600),
    ("day", 86400), ("week", 604800),
)
MAX_BUCKETS = 48
# Epoch seconds a datetime can hold in UTC (0001-01-01T00:00:00Z to
# 9999-12-31T23:59:59Z), so every ts counted can be shown.
EARLIEST, LATEST = -62135596800.0, 253402300799.0
# The least distance, in minutes, from the middle half of the records at which a record is an outlier.
OUTLIER_MARGIN = 24 * 60
# At most this share of the records on either side is left out as outliers.
OUTLIER_SHARE = 0.05
_FAR_OUT = 3  # Tukey's: three times the middle half's span
# A JSON number: epoch seconds, written bare on the command line.
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def _shown(seconds: float) -> float | None:
    """``seconds`` if a four-digit year can show it (NaN is not)."""
    return seconds if EARLIEST <= seconds <= LATEST else None


def parse_time(text: str) -> float | None:
    """Epoch seconds of what ``--since`` and ``--until`` take: a number as JSON
    writes it, or an ISO 8601 text; None if it is neither or out of range."""
    text = text.strip()
    if _NUMBER.fullmatch(text):
        return _shown(float(text))
    return _iso_text(text)


def _iso_text(text: str) -> float | None:
    """Epoch seconds of an ISO 8601 text (no zone: UTC), None if it is not one (a string of digits
    alone never is: a number written as a string, not a compact date)."""
    text = text.strip()
    if text.isascii() and text.isdigit():
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return _shown(moment.timestamp())


def parse_ts(member: msgspec.Raw | bytes) -> float | None:
    """Epoch seconds of a record's ``ts`` member (its JSON text), None if unreadable.

    msgspec reads a number or an RFC 3339 text in C; any other text (a date
    alone, a week date) is read as ISO 8601 (``_iso_text``), never as a number."""
    try:
        value = _STAMP.decode(member)
    except (msgspec.DecodeError, RecursionError):
        try:
            text = _TEXT.decode(member)
        except (msgspec.DecodeError, RecursionError):
            return None
        return _iso_text(text)
    if value.__class__ is float:
        return _shown(value)
    if value.tzinfo is None:  # type: ignore[union-attr]  # not a float: a datetime
        value = value.replace(tzinfo=UTC)  # type: ignore[union-attr]  # not a float: a datetime
    return _shown(value.timestamp())  # type: ignore[union-attr]  # not a float: a datetime


def unread_words(unread: int) -> str:
    """What the summary and the overview say once of the records whose ``ts`` is there but not read as a
    time ("" when none): how many, and what a time is."""
    if not unread:
        return ""
    return (f"the ts of {unread:,} record(s) was not read as a time: it is ISO 8601 text or a JSON number of "
            "epoch seconds (a string of digits is neither)")


def iso(seconds: float, fraction: bool = False) -> str:
    """A UTC ISO 8601 text for epoch seconds (years 1 to 9999), to the second,
    the year in four digits (``0001-01-01T00:00:00Z``); with ``fraction``, a
    time between seconds to the microsecond (``2026-12-01T00:09:02.084655Z``:
    a record's time, as ``--records`` writes it)."""
    moment = datetime.fromtimestamp(seconds, UTC)
    if fraction:  # (isoformat: the year in four digits, the microseconds when there are any, then +00:00)
        return moment.isoformat()[:-6] + "Z"
    return f"{moment.year:04d}-{moment:%m-%dT%H:%M:%S}Z"


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
    first: float  # the earliest and latest counted minute shown (the bulk's)
    last: float
    before: int = 0  # dated records before ``first``'s minute (outliers), and after ``last``'s
    after: int = 0
    earliest: float | None = None  # the earliest and latest counted minute of all
    latest: float | None = None

    @property
    def outliers(self) -> int:
        return self.before + self.after

    def outlier_words(self) -> str:
        """The records left out of the range shown, in words ("" when none): the
        summary's and the overview's."""
        parts = []
        if self.before:
            parts.append(f"{self.before:,} record(s) before the range shown (the earliest "
                         f"{iso(self.earliest if self.earliest is not None else self.first)})")
        if self.after:
            parts.append(f"{self.after:,} record(s) after it (the latest "
                         f"{iso(self.latest if self.latest is not None else self.last)})")
        return "; ".join(parts)


def _bulk(per_minute: Mapping[int, int]) -> tuple[int, int]:
    """The first and last minute of the bulk of the records: those no further
    from the middle half (between the records' quartiles, by minute) than
    ``_FAR_OUT`` times its span or ``OUTLIER_MARGIN``, whichever is more, and
    every record but the ``OUTLIER_SHARE`` earliest and latest, whatever their
    distance (a tenth of the records two days before a burst is no outlier)."""
    ordered = sorted(per_minute)
    total = sum(per_minute.values())
    # The minute of the records ranked just past each share (strictly: with one
    # record in 20, the 5% before the rest are that one).
    shares = (OUTLIER_SHARE, 0.25, 0.75, 1 - OUTLIER_SHARE)
    ranked: list[int] = []
    seen = 0
    for minute in ordered:
        seen += per_minute[minute]
        while len(ranked) < len(shares) and seen > total * shares[len(ranked)]:
            ranked.append(minute)
    ranked += [ordered[-1]] * (len(shares) - len(ranked))  # (a last share of 1.0 is reached at the last)
    least, low, high, most = ranked
    margin = max(_FAR_OUT * (high - low), OUTLIER_MARGIN)
    return (min(least, next(m for m in ordered if m >= low - margin)),
            max(most, next(m for m in reversed(ordered) if m <= high + margin)))


def histogram(minutes: Mapping[tuple[int, str], int], frame: Histogram | None = None) -> Histogram | None:
    """The histogram of per-(minute, status) counts, or None without any.

    With ``frame`` (the whole triage's histogram), the bars are ``frame``'s: its
    bucket and range, the records outside it counted before or after, so that a
    group's histogram lines up with the whole log's (one bar per bar); then an
    empty histogram, not None, for a group without a dated record."""
    if not minutes and frame is None:
        return None
    per_minute: dict[int, int] = {}
    for (minute, _), count in minutes.items():
        per_minute[minute] = per_minute.get(minute, 0) + count
    if frame is None:
        first, last = _bulk(per_minute)
        span = (last - first + 1) * 60
        name, seconds = next(((n, s) for n, s in BUCKETS if span / s <= MAX_BUCKETS), BUCKETS[-1])
    else:
        first, last, name, seconds = int(frame.first // 60), int(frame.last // 60), frame.bucket, frame.seconds
    before = sum(count for minute, count in per_minute.items() if minute < first)
    after = sum(count for minute, count in per_minute.items() if minute > last)
    origin = (first * 60) // seconds * seconds
    bars = (last * 60 - origin) // seconds + 1
    if frame is not None:
        keys = [(int(bar.start) - origin) // seconds if bar.start > EARLIEST else 0 for bar in frame.bars]
    elif bars > 4 * MAX_BUCKETS * 52:  # decades of weeks: only the non-empty ones
        keys = sorted({(minute * 60 - origin) // seconds for minute in per_minute if first <= minute <= last})
    else:
        keys = list(range(bars))
    records = dict.fromkeys(keys, 0)
    rejected = dict.fromkeys(keys, 0)
    for (minute, status), count in minutes.items():
        if first <= minute <= last:
            key = (minute * 60 - origin) // seconds
            if key in records:
                records[key] += count
                if status != "ACCEPT":
                    rejected[key] += count
    # A week's bucket may start before the year 1 (0001-01-01 was a Monday, the
    # epoch's weeks start on Thursdays): the first bar then starts at the first minute.
    return Histogram(name, seconds, tuple(Bar(max(origin + key * seconds, EARLIEST), records[key], rejected[key])
                                          for key in keys),
                     first * 60.0, last * 60.0, before, after,
                     min(per_minute) * 60.0 if per_minute else None, max(per_minute) * 60.0 if per_minute else None)
