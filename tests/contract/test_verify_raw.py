"""What ``verify`` takes as ``raw``: str and the bytes-like types, nothing else."""

from __future__ import annotations

import pytest

from inspector import verify

from support import GOOD, REGISTRY, REQUEST


class TestRaw:
    @pytest.mark.parametrize("raw", [GOOD, GOOD.encode(), bytearray(GOOD.encode()), memoryview(GOOD.encode())])
    def test_str_and_bytes_like_give_the_same_verdict(self, raw):
        assert verify(raw, REQUEST, REGISTRY).label == "ACCEPT"

    @pytest.mark.parametrize("raw", ["", b"", bytearray(), memoryview(b"{"), "\ud800", b"\xff"])
    def test_never_raises_for_str_or_bytes(self, raw):
        assert verify(raw, REQUEST, REGISTRY).label.startswith("INVALID_JSON")

    @pytest.mark.parametrize("raw, name", [(None, "NoneType"), (123, "int"), (1.5, "float"), ([GOOD], "list"),
                                           ({"claims": []}, "dict")])
    def test_anything_else_is_a_type_error(self, raw, name):
        # 123 used to be read as 123 NUL bytes; None raised deep inside the decoder.
        with pytest.raises(TypeError, match=f"str or bytes.*not {name}$"):
            verify(raw, REQUEST, REGISTRY)
