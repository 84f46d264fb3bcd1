"""A reproducible random sample of a group's records: ``--export GROUP --sample N --seed S``.

Each record gets a key, a 64-bit hash of the seed and its place (the log as
named and the byte offset its line starts at), and the sample is the ``N``
records with the smallest keys (bottom-k sampling, a reservoir whose random
numbers are the keys).  It is uniform, without replacement, and the same for a
seed whatever splits the log: a ``Reservoir`` keeps at most ``N`` records as
they are read (a group of a million records needs no list of them), two
reservoirs merge into the one a single pass keeps (the counting's workers each
keep one), and the overview's export form, which knows the group's places
from its index, draws the same records for the same seed
(``sample_numbers``).  The records come out in log order.
"""

from __future__ import annotations

import hashlib
import heapq
import secrets
from collections.abc import Iterable
from typing import Any

__all__ = ["MAX_SEED", "Reservoir", "pick_seed", "sample_key", "sample_numbers", "parse_sample", "parse_seed"]

# A seed is a whole number from 0 to this (what 8 bytes hold, signed: any seed a person types).
MAX_SEED = 2**63 - 1
# A sample takes at most this many records (a suite holds at most 64 MiB anyway).
MAX_SAMPLE = 10_000_000


def sample_key(seed: int, file: str, offset: int) -> int:
    """The record's key for ``seed``: a 64-bit BLAKE2b of the seed, its log (as named) and its line's offset."""
    digest = hashlib.blake2b(b"%d\0%s\0%d" % (seed, file.encode("utf-8", "surrogateescape"), offset),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def parse_seed(text: str) -> int:
    """A seed as typed: a whole number from 0 to ``MAX_SEED`` in the digits 0-9 (ValueError, one line, else)."""
    text = text.strip()
    if not text or not text.isascii() or not text.isdigit() or len(text) > 19 or int(text) > MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED} (digits 0-9), not {text!r}")
    return int(text)


def parse_sample(text: str) -> int:
    """A sample's size as typed: a whole number of records, 1 or more (ValueError, one line, else)."""
    text = text.strip()
    if not text or not text.isascii() or not text.isdigit() or len(text) > 8 or not 1 <= int(text) <= MAX_SAMPLE:
        raise ValueError(f"a sample is a whole number of records from 1 to {MAX_SAMPLE:,} (digits 0-9), not {text!r}")
    return int(text)


def pick_seed() -> int:
    """A seed for a sample asked without one (said, so that it can be drawn again)."""
    return secrets.randbelow(1_000_000)


class Reservoir:
    """The ``size`` records of smallest key offered so far (``sample_key``), and how many were offered.

    An item is anything; its file and offset make its key.  ``merge`` keeps
    what one pass over both would keep; ``shift`` renumbers the lines of a part
    of a log counted on its own (items are (file, line, ...) tuples then)."""

    __slots__ = ("_heap", "files", "seed", "seen", "size")

    def __init__(self, size: int, seed: int) -> None:
        self.size = size
        self.seed = seed
        self.seen = 0
        self.files: dict[str, int] = {}  # the logs in the order first seen: the sample comes out in log order
        self._heap: list[tuple[int, str, int, Any]] = []  # (-key, file, offset, item): the largest key on top

    def offer(self, file: str, offset: int, item: Any) -> None:
        self.seen += 1
        if file not in self.files:
            self.files[file] = len(self.files)
        key = -sample_key(self.seed, file, offset)
        heap = self._heap
        if len(heap) < self.size:
            heapq.heappush(heap, (key, file, offset, item))
        elif key > heap[0][0]:
            heapq.heapreplace(heap, (key, file, offset, item))

    def merge(self, other: Reservoir) -> Reservoir:
        """Add ``other``'s records (a later part of the logs) in place."""
        self.seen += other.seen
        for file in other.files:
            if file not in self.files:
                self.files[file] = len(self.files)
        for entry in other._heap:
            if len(self._heap) < self.size:
                heapq.heappush(self._heap, entry)
            elif entry[0] > self._heap[0][0]:
                heapq.heapreplace(self._heap, entry)
        return self

    def shift(self, lines: int) -> None:
        """Renumber the items' lines ``lines`` further on (items are (file, line, ...) tuples)."""
        self._heap = [(key, file, offset, (item[0], item[1] + lines, *item[2:]))
                      for key, file, offset, item in self._heap]

    def copy(self) -> Reservoir:
        found = Reservoir(self.size, self.seed)
        found.seen, found.files, found._heap = self.seen, dict(self.files), list(self._heap)
        return found

    def items(self) -> list[Any]:
        """The sample, in log order (by log as first seen, then offset)."""
        files = self.files
        return [item for _, _, _, item in sorted(self._heap, key=lambda entry: (files[entry[1]], entry[2]))]

    def __len__(self) -> int:
        return len(self._heap)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reservoir):
            return NotImplemented
        return (self.size, self.seed, self.seen, sorted(self._heap)) == \
            (other.size, other.seed, other.seen, sorted(other._heap))

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a mutable value


def sample_numbers(places: Iterable[tuple[str, int]], size: int, seed: int) -> list[int]:
    """The numbers (positions in ``places``, ascending) of the ``size`` records of smallest key among
    ``places`` (each (file, offset)): the records a ``Reservoir`` fed them would keep."""
    keyed = ((sample_key(seed, file, offset), file, offset, number) for number, (file, offset) in enumerate(places))
    return sorted(number for _, _, _, number in heapq.nsmallest(size, keyed))
