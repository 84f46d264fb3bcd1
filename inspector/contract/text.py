"""Text measurements shared by the contract, the loaders and every renderer.

Sizes follow Java's String.length(): UTF-16 code units, so a character outside the
Basic Multilingual Plane counts two.  Positions shown to people are 1-based
line:column in characters.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from functools import lru_cache
from itertools import accumulate, chain, repeat
from typing import Any

__all__ = [
    "INVISIBLE_CATEGORIES",
    "escape_char",
    "INVISIBLE_CHARACTERS",
    "is_invisible",
    "json_dumps",
    "json_escape",
    "line_col",
    "nearest_line",
    "shorten",
    "utf16_len",
    "visible",
    "visible_name",
]

# Unicode categories that must never reach a terminal as themselves: controls (ESC,
# NUL, DEL, C1), format characters (bidi overrides, zero-width joiners), surrogates,
# private use, unassigned code points (no two terminals agree on their width), and
# the line/paragraph separators.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

# Characters that draw as nothing or as a blank although their category is a
# letter, mark or symbol, so that "prod\u3164" would pass for "prod" or a doc id for
# another: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, every
# range, whatever its category: the Hangul fillers U+115F, U+1160, U+3164, U+FFA0,
# the combining grapheme joiner, Khmer inherent vowels, Mongolian and other
# variation selectors, the tag block...), plus U+2800 BRAILLE PATTERN BLANK.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
INVISIBLE_CHARACTERS = frozenset(chr(code) for low, high in _IGNORABLE_RANGES for code in range(low, high + 1))


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, as Java counts it."""
    if text.isascii():
        return len(text)
    # Each code point above U+FFFF is a surrogate pair in UTF-16.
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset; column counts characters."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


@lru_cache(maxsize=4096)
def is_invisible(ch: str) -> bool:
    """Shown as ``\\uXXXX`` everywhere (CLI, JSON, TUI): one definition."""
    return ch in INVISIBLE_CHARACTERS or unicodedata.category(ch) in INVISIBLE_CATEGORIES


def visible(text: str) -> str:
    """Replace control and invisible characters with a literal ``\\uXXXX``.

    For plain-text outputs (the CLI, error messages).  The TUI has its own styled
    variant built on the same ``is_invisible``.
    """
    if text.isascii() and text.isprintable():
        return text
    return "".join(escape_char(ch) if is_invisible(ch) else ch for ch in text)


def visible_name(text: str) -> str:
    """``visible``, for names that people tell apart by eye (a triage's groups):
    a text that is not in Unicode NFC also has every character outside ASCII
    escaped, so that "e\u0301" (e and a combining acute accent) cannot pass for
    "é" (one code point, its NFC twin), nor "\u212b" (the angstrom sign) for
    "Å".  Text in NFC, the usual form, is shown as ``visible`` shows it."""
    if text.isascii() or unicodedata.is_normalized("NFC", text):
        return visible(text)
    return "".join(ch if ch.isascii() and not is_invisible(ch) else escape_char(ch) for ch in text)


def json_dumps(document: Any) -> str:
    """The JSON that inspector writes (``--format json``, results, manifests): indented,
    UTF-8 where it is visible, and every invisible character escaped."""
    return json_escape(json.dumps(document, indent=2, ensure_ascii=False))


def json_escape(text: str) -> str:
    """JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) with every
    invisible character written as a ``\\uXXXX`` escape (a surrogate pair past
    U+FFFF): the same document when read back, and nothing a terminal acts on
    (json escapes only U+0000-U+001F; DEL, C1, U+202E, U+2028 went out raw).

    Outside its strings JSON text is ASCII, so every such character is in a string,
    where an escape means the character itself.
    """
    if text.isascii() and "\x7f" not in text:
        return text
    return _NOT_PLAIN_ASCII.sub(_json_escape_match, text)


_NOT_PLAIN_ASCII = re.compile("[^\x00-\x7e]")


def _json_escape_match(match: re.Match[str]) -> str:
    ch = match.group()
    if not is_invisible(ch):
        return ch
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_char(ch: str) -> str:
    """The literal escape shown in place of an invisible character."""
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def shorten(text: str, width: int = 60) -> str:
    """Cut long untrusted text for one-line explanations, keeping the head."""
    if len(text) <= width:
        return text
    return text[: width - 1] + "…"


# The nearest line's budgets (see nearest_line): the characters of the source
# searched, the lines scored and their characters, and difflib's ratio's work in
# all (a unit is a step of its inner loop, well under a microsecond).
NEAREST_SCAN = 1 << 18
NEAREST_CANDIDATES = 48
NEAREST_CHARACTERS = 1 << 15
NEAREST_ANCHORS = 8
NEAREST_ANCHOR_HITS = 64
NEAREST_WORK = 8_000


def nearest_line(text: str, quote: str) -> tuple[int, int] | None:
    """The line of ``text`` most like ``quote``, as offsets [start, end) without its
    line end; None for an empty text.

    "Most like" is difflib's: the highest ``SequenceMatcher(None, line, quote).ratio()``
    (ties to the greater line, then to its first occurrence), what
    ``get_close_matches`` with no cutoff picks, but bounded: comparing every line
    costs seconds on a large source, and a QUOTE_NOT_FOUND explanation is built by
    ``check``, ``audit`` and the TUI.  A source of at most NEAREST_CANDIDATES
    distinct lines and NEAREST_CHARACTERS characters is searched exactly, best bound
    first (a line whose length, then whose characters, cannot beat the best so far
    is never compared).  A larger one is searched in its first NEAREST_SCAN
    characters, among the lines sharing most of the quote's less common trigrams,
    then its first lines, within the same two limits.  Once the work budget is spent
    a line's score is difflib's upper bound (quick_ratio), so a pathological pair
    (long lines of a two-letter alphabet) cannot take long either.
    """
    if not text:
        return None
    scanned = text[:NEAREST_SCAN]
    lines = scanned.splitlines(keepends=True)
    if len(text) > NEAREST_SCAN and len(lines) > 1:
        lines.pop()  # cut short by the scan: not a line of the source
    stripped = list(map(str.rstrip, lines, repeat("\r\n")))
    starts = [0, *accumulate(map(len, lines))]
    # Each distinct line once, at its first occurrence (a dict keeps the last
    # assignment, so insert from the end).
    first = dict(zip(reversed(stripped), range(len(stripped) - 1, -1, -1)))
    if len(first) <= NEAREST_CANDIDATES and len(text) <= NEAREST_CHARACTERS:
        candidates = list(first)
    else:
        candidates = _prefiltered(scanned, quote, stripped, starts, first)
    best = _best_match(candidates, quote)
    start = starts[first[best]]
    return start, start + len(best)


def _prefiltered(text: str, quote: str, stripped: list[str], starts: list[int],
                 first: dict[str, int]) -> list[str]:
    """At most NEAREST_CANDIDATES distinct lines of NEAREST_CHARACTERS characters
    in all (and at least one) worth comparing with ``quote``."""
    hits: Counter[int] = Counter()
    for gram in _anchors(quote):
        found: list[int] = []
        at = text.find(gram)
        while at >= 0 and len(found) <= NEAREST_ANCHOR_HITS:
            found.append(at)
            at = text.find(gram, at + 1)
        if len(found) > NEAREST_ANCHOR_HITS:
            continue  # a common trigram tells the lines apart no better than their order
        hits.update({bisect_right(starts, at) - 1 for at in found})
    ranked = chain((stripped[number] for number, _ in hits.most_common()), first)
    chosen: dict[str, None] = {}
    room = NEAREST_CHARACTERS
    for line in ranked:
        if line in chosen:
            continue
        if len(line) > room and chosen:
            if room <= 0:
                break
            continue
        chosen[line] = None
        room -= len(line)
        if len(chosen) == NEAREST_CANDIDATES:
            break
    return list(chosen)


def _anchors(quote: str) -> list[str]:
    """Up to NEAREST_ANCHORS distinct trigrams of the quote, spread over it."""
    grams = list(dict.fromkeys(quote[i:i + 3] for i in range(max(1, len(quote) - 2))))
    step = max(1, len(grams) // NEAREST_ANCHORS)
    return grams[::step][:NEAREST_ANCHORS]


def _best_match(lines: list[str], quote: str) -> str:
    """The line with the highest (ratio, line), as get_close_matches ranks them."""
    matcher = difflib.SequenceMatcher(None, "", quote)
    wanted = Counter(quote)
    # what ratio looks up (no popular ones); b2j is difflib's own index, not in typeshed
    indexed = {ch: len(at) for ch, at in matcher.b2j.items()}  # type: ignore[attr-defined]
    size = len(quote)

    def ratio_of(matches: int, line: str) -> float:  # difflib's _calculate_ratio
        total = len(line) + size
        return 2.0 * matches / total if total else 1.0

    best: tuple[float, str] = (-1.0, "")
    budget = NEAREST_WORK
    for upper, line in sorted(((ratio_of(min(len(line), size), line), line) for line in lines), reverse=True):
        if (upper, line) <= best:
            break  # real_quick_ratio bounds ratio, and every later line is bounded lower
        if len(wanted) < len(line):
            have = {ch: line.count(ch) for ch in wanted}
        else:
            have = Counter(line)
        quick = ratio_of(sum(min(count, wanted.get(ch, 0)) for ch, count in have.items()), line)
        if (quick, line) <= best:
            continue  # quick_ratio bounds ratio too
        # ratio's cost: a pass over the line per level of its recursion, plus a step
        # per pair of equal characters.
        pairs = sum(count * indexed.get(ch, 0) for ch, count in have.items())
        work = (len(line) + pairs) * (1 + min(len(line), size).bit_length())
        if work <= budget:
            budget -= work
            matcher.set_seq1(line)
            score = matcher.ratio()
        else:
            score = quick
        best = max(best, (score, line))
    return best[1]
