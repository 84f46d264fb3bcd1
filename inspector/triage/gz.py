"""A ``.gz`` log decompressed here, in bounded pieces, so that a break loses nothing
before it, and rereading at an offset starts from a restart point nearby.

``gzip.GzipFile`` reads in large pieces and a break inside one (a truncated file,
corrupt data, a bad CRC, garbage after the last member) throws away everything
that read had decompressed.  ``Inflater`` parses the gzip members itself (RFC
1952: header, raw deflate, CRC-32 and size trailer; several members one after
the other, as ``cat a.gz b.gz`` makes) and feeds zlib ``FEED_BYTES`` of
compressed input at a time, each call giving at most ``PIECE_BYTES``: it hands
out every byte decompressed before a break, and only then raises ``GzipBreak``
saying why.  Where zlib finds corrupt data, the piece of input that held it is
decompressed again from a copy of the decompressor taken before, on ever shorter
prefixes, so the output ends where zlib's byte-by-byte decoding would (what
``zcat`` writes).  What comes after a complete member and is not another member
is trailing garbage: the data is kept, as ``gzip -d`` keeps it, and the garbage
is reported (a break that lost nothing).

``SeekIndex`` is a log's restart points, kept as it is decompressed: every
``spacing`` bytes of output, where the compressed input was, where the output
was, and a copy of the zlib decompressor (``Decompress.copy()``: the state and
the 32 KiB window, about 48 KB).  An ``Inflater`` started from a point reads on
from there, so rereading a line at any offset decompresses at most one interval.
The index is bounded: past ``limit`` points every other one is dropped and the
spacing doubles.
"""

from __future__ import annotations

import bisect
import functools
import os
import struct
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["FEED_BYTES", "PIECE_BYTES", "GzipBreak", "GzipLines", "Inflater", "Point", "SeekIndex", "file_identity"]

FEED_BYTES = 16 * 1024  # compressed bytes given to zlib in one call
PIECE_BYTES = 256 * 1024  # decompressed bytes at most from one call
_READ_BYTES = 256 * 1024  # compressed bytes read from the file at a time
_HEADER_LIMIT = 1024 * 1024  # a member's header (name, comment, extra field) past this is refused

_MAGIC = b"\x1f\x8b"
_FTEXT, _FHCRC, _FEXTRA, _FNAME, _FCOMMENT = 1, 2, 4, 8, 16
_HEADER, _BODY, _TRAILER, _END = range(4)


class GzipBreak(Exception):
    """Where a ``.gz`` stops being readable, and why (one line): raised by
    ``Inflater.read`` once every byte decompressed before it was handed out."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Point:
    """A restart point: ``out`` bytes decompressed so far, ``compressed`` the file
    offset of the next compressed byte to feed, the decompressor's state there,
    and the current member's number (from 1), CRC-32 and size so far."""

    out: int
    compressed: int
    inflater: Any  # zlib's Decompress
    member: int
    crc: int
    size: int


class SeekIndex:
    """A ``.gz`` file's restart points, in order of output offset, added as it is
    decompressed (by any ``Inflater`` given it), at most ``limit`` of them: when
    full, every other point goes and the spacing doubles, so a log of any size
    keeps at most ``limit`` × ~48 KB.  ``identity`` is the file's (device,
    inode, size, modification time) when the points were taken: a file changed
    since has other bytes at those offsets, and its index is dropped."""

    SPACING = 4 * 1024 * 1024
    LIMIT = 256

    def __init__(self, identity: tuple[int, ...] | None = None, spacing: int | None = None,
                 limit: int | None = None) -> None:
        self.identity = identity
        self.spacing = spacing or self.SPACING
        self.limit = max(2, limit or self.LIMIT)
        self.points: list[Point] = []
        self._outs: list[int] = []
        self._lock = threading.Lock()  # the overview's count and a drill-down may add at once

    def __len__(self) -> int:
        return len(self.points)

    def wants(self, out: int) -> bool:
        """Whether a point at output offset ``out`` would be kept."""
        outs = self._outs
        return out >= (outs[-1] + self.spacing if outs else self.spacing)

    def add(self, point: Point) -> None:
        with self._lock:
            if not self.wants(point.out):
                return
            self.points.append(point)
            self._outs.append(point.out)
            if len(self.points) > self.limit:
                self.points = self.points[1::2]
                self._outs = [kept.out for kept in self.points]
                self.spacing *= 2

    def before(self, offset: int) -> Point | None:
        """The last point at or before output offset ``offset`` (None: start from the beginning)."""
        with self._lock:
            at = bisect.bisect_right(self._outs, offset)
            return self.points[at - 1] if at else None


def file_identity(fd: int) -> tuple[int, ...]:
    found = os.fstat(fd)
    return (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)


class Inflater:
    """The decompressed bytes of the gzip file open at ``fd`` (read with
    ``pread``: the descriptor's position is not used), from its start or from
    ``start``, a point of its ``SeekIndex``.  With ``index``, points are added to
    it as the output passes them.

    ``read(size)`` gives up to ``size`` bytes (fewer only at the end or just
    before a break), ``b""`` at a clean end, and after the last byte before a
    break raises ``GzipBreak``.  ``position`` is the output offset of the next
    byte ``read`` gives; ``compressed`` the compressed bytes consumed."""

    def __init__(self, fd: int, start: Point | None = None, index: SeekIndex | None = None, *,
                 pread: Callable[[int, int], bytes] | None = None, size: Callable[[], int] | None = None) -> None:
        # Where the compressed bytes come from: the descriptor, or (``pread``, ``size``) for a file
        # read elsewhere (an object in a bucket, read by a distributed worker: ``triage.distributed``).
        self._pread = pread if pread is not None else functools.partial(os.pread, fd)
        self._file_size = size if size is not None else (lambda: os.fstat(fd).st_size)
        self._index = index
        self._pending = b""  # compressed bytes read and not yet consumed
        self._file_at = 0  # file offset just past _pending
        self._eof = False
        self._broken: GzipBreak | None = None
        self._z: Any = None
        self._state = _HEADER
        self.members = 0
        self._crc = 0
        self._size = 0
        self.position = 0
        if start is not None:
            self._z = start.inflater.copy()
            self._file_at = start.compressed
            self.members, self._crc, self._size = start.member, start.crc, start.size
            self.position = start.out
            self._state = _BODY

    @property
    def compressed(self) -> int:
        return self._file_at - len(self._pending)

    def read(self, size: int) -> bytes:
        pieces: list[bytes] = []
        wanted = size
        while wanted > 0 and self._state != _END:
            if self._broken is not None:
                break
            try:
                piece = self._step(min(wanted, PIECE_BYTES))
            except GzipBreak as exc:
                self._broken = exc
                break
            if piece:
                pieces.append(piece)
                wanted -= len(piece)
                self.position += len(piece)
        if not pieces and self._broken is not None:
            raise self._broken
        return b"".join(pieces)

    def skip(self, count: int) -> None:
        """Decompress and drop ``count`` bytes (fewer at the end; GzipBreak at a break)."""
        while count > 0:
            data = self.read(min(count, 4 * PIECE_BYTES))
            if not data:
                return
            count -= len(data)

    # -- the members, one step at a time ----------------------------------------------

    def _step(self, limit: int) -> bytes:
        if self._state == _HEADER:
            self._header()
            return b""
        if self._state == _TRAILER:
            self._trailer()
            return b""
        return self._body(limit)

    def _fill(self, wanted: int) -> bool:
        """At least ``wanted`` bytes pending if the file has them (False: it ends first)."""
        while len(self._pending) < wanted and not self._eof:
            data = self._pread(max(_READ_BYTES, wanted - len(self._pending)), self._file_at)
            if not data:
                self._eof = True
                break
            self._pending += data
            self._file_at += len(data)
        return len(self._pending) >= wanted

    def _header(self) -> None:
        member = self.members + 1
        if not self._fill(1):
            if self.members:
                self._state = _END
                return
            raise GzipBreak("an empty .gz: no member")
        if not self._fill(2) or self._pending[:2] != _MAGIC:
            if self.members:
                rest = self._file_size() - self.compressed
                self._state = _END
                raise GzipBreak(f"{rest:,} byte(s) of trailing garbage after the last gzip member (ignored, "
                                "as gzip -d does)")
            raise GzipBreak("not a .gz (no gzip magic bytes)")
        if not self._fill(10):
            raise GzipBreak(f"truncated: the file ends inside member {member}'s header")
        method, flags = self._pending[2], self._pending[3]
        if method != 8:
            raise GzipBreak(f"member {member} is not deflate-compressed (method {method})")
        if flags & 0xE0:
            raise GzipBreak(f"member {member}'s header has reserved flags set (0x{flags:02x})")
        end = 10
        if flags & _FEXTRA:
            if not self._fill(end + 2):
                raise GzipBreak(f"truncated: the file ends inside member {member}'s header")
            end += 2 + struct.unpack_from("<H", self._pending, end)[0]
        for flag in (_FNAME, _FCOMMENT):
            if flags & flag:
                end = self._zero_after(end, member) + 1
        if flags & _FHCRC:
            end += 2
        if not self._fill(end):
            raise GzipBreak(f"truncated: the file ends inside member {member}'s header")
        self._pending = self._pending[end:]
        self._z = zlib.decompressobj(-zlib.MAX_WBITS)
        self.members, self._crc, self._size = member, 0, 0
        self._state = _BODY

    def _zero_after(self, start: int, member: int) -> int:
        """The position of the zero byte ending a name or comment that begins at ``start``."""
        while True:
            found = self._pending.find(b"\0", start)
            if found >= 0:
                return found
            if len(self._pending) > _HEADER_LIMIT:
                raise GzipBreak(f"member {member}'s header is longer than {_HEADER_LIMIT:,} bytes")
            if not self._fill(len(self._pending) + 1):
                raise GzipBreak(f"truncated: the file ends inside member {member}'s header")

    def _body(self, limit: int) -> bytes:
        z = self._z
        if not self._pending and not self._fill(1):
            data = z.decompress(b"", limit)  # what the decompressor still holds
            if data:
                return self._took(data)
            raise GzipBreak(f"truncated: member {self.members}'s compressed data ends before its end marker")
        piece = self._pending[:FEED_BYTES]
        before = z.copy()
        try:
            data = z.decompress(piece, limit)
        except zlib.error as exc:
            good = _longest_good(before, piece, limit)
            self._broken = GzipBreak(f"corrupt compressed data in member {self.members} ({exc})")
            return self._took(good, restart=False)
        rest = self._pending[len(piece):]
        self._pending = (z.unused_data if z.eof else z.unconsumed_tail) + rest
        if z.eof:
            self._state = _TRAILER
        return self._took(data)

    def _took(self, data: bytes, restart: bool = True) -> bytes:
        """``data`` decompressed: checked into the member's CRC and size, and a
        restart point after it offered to the index (not inside a member's end,
        nor where the data broke)."""
        self._crc = zlib.crc32(data, self._crc)
        self._size += len(data)
        index = self._index
        out = self.position + len(data)
        if restart and index is not None and self._state == _BODY and index.wants(out):
            index.add(Point(out, self.compressed, self._z.copy(), self.members, self._crc, self._size))
        return data

    def _trailer(self) -> None:
        member = self.members
        if not self._fill(8):
            raise GzipBreak(f"truncated: the file ends inside member {member}'s trailer (its data is complete "
                            "but its CRC cannot be checked)")
        crc, size = struct.unpack_from("<II", self._pending)
        self._pending = self._pending[8:]
        if crc != self._crc:
            raise GzipBreak(f"member {member}'s CRC check failed (0x{crc:08x} written, 0x{self._crc:08x} "
                            "decompressed): its data may be corrupt")
        if size != self._size & 0xFFFFFFFF:
            raise GzipBreak(f"member {member}'s length check failed ({size:,} bytes written, "
                            f"{self._size & 0xFFFFFFFF:,} decompressed mod 2^32): its data may be corrupt")
        self._state = _HEADER


def _longest_good(before: Any, piece: bytes, limit: int) -> bytes:
    """The output of the longest prefix of ``piece`` that ``before`` (the
    decompressor as it was before the piece) decodes without an error: what a
    byte-by-byte decoding writes before the corrupt data (a bisection, from
    copies)."""
    good, low, high = b"", 0, len(piece)  # low decodes (the empty prefix), high does not
    while high - low > 1:
        middle = (low + high) // 2
        trial = before.copy()
        try:
            data = trial.decompress(piece[:middle], limit)
        except zlib.error:
            high = middle
        else:
            good, low = data, middle
    return good


class GzipLines:
    """Lines of one ``.gz`` file reread at their offsets (a drill-down), with its
    ``SeekIndex``: reading on at a later offset decompresses only the bytes
    between; an earlier one starts again from the index's last point before it,
    so any reread decompresses at most one interval once the index reaches it
    (the index grows as far as any read went).  What was decompressed past the
    last line read is kept, for the next line (lines are a few hundred bytes)."""

    READ_BYTES = 64 * 1024

    def __init__(self, fd: int, index: SeekIndex) -> None:
        self.fd = fd
        self.index = index
        self._inflater: Inflater | None = None
        self._buffer = b""  # decompressed bytes from _buffer_at on, up to the inflater's position
        self._buffer_at = 0

    def line_at(self, offset: int, limit: int) -> bytes:
        """The bytes from ``offset`` to the end of its line, the newline included
        (without one at the end of the data; at most ``limit + 1`` bytes).
        GzipBreak if the data breaks off before."""
        try:
            return self._line_at(offset, limit)
        except GzipBreak:
            self._inflater, self._buffer = None, b""  # the next read starts again from a point
            raise

    def _line_at(self, offset: int, limit: int) -> bytes:
        buffer_end = self._buffer_at + len(self._buffer)
        if self._inflater is not None and self._buffer_at <= offset <= buffer_end:
            self._buffer, self._buffer_at = self._buffer[offset - self._buffer_at:], offset
        else:
            self._seek(offset)
        buffer, inflater = self._buffer, self._inflater
        assert inflater is not None
        searched = 0
        while (end := buffer.find(b"\n", searched)) < 0 and len(buffer) <= limit:
            searched = len(buffer)
            data = inflater.read(self.READ_BYTES)
            if not data:
                break
            buffer += data
            self._buffer = buffer
        return buffer[:end + 1] if end >= 0 else buffer[:limit + 1]

    def _seek(self, offset: int) -> None:
        inflater = self._inflater
        point = self.index.before(offset)
        if inflater is None or inflater.position > offset or (point is not None and point.out > inflater.position):
            inflater = self._inflater = Inflater(self.fd, point, self.index)
        self._buffer, self._buffer_at = b"", inflater.position
        inflater.skip(offset - inflater.position)
        if inflater.position < offset:
            raise GzipBreak(f"offset {offset:,} is past the end of the decompressed data ({inflater.position:,} "
                            "bytes)")
        self._buffer_at = offset
