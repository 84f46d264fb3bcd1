"""Strict decoding against the JSONTestSuite parsing corpus (nst/JSONTestSuite, MIT,
copied unchanged into tests/data/JSONTestSuite with its licence).

``n_`` files must be refused by the syntax/encoding layer of stage 1, no ``y_``
file may be refused as a syntax or encoding error (they fail the claims shape
instead), and no file, ``i_`` included, may raise.  Files are fed as bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector import Outcome, explain, verify
from inspector.reports.case import verdict_document

from support import REGISTRY, REQUEST, detail

CORPUS = Path(__file__).parents[1] / "data" / "JSONTestSuite"
FILES = sorted((CORPUS / "test_parsing").iterdir())

# The reasons of stage 1 that judge the text as text: size, encoding, depth, syntax.
SYNTAX_LAYER = {"TOO_LARGE", "NOT_UTF8", "TOO_DEEP", "SYNTAX", "TRAILING_DATA"}
# What a valid JSON text may still fail on: keys, then the claims shape.
AFTER_SYNTAX = {"DUPLICATE_KEY", "WRONG_SHAPE", "TOO_MANY_CLAIMS", "UNKNOWN_MEMBER", "MISSING_MEMBER",
                "NOT_A_STRING", "EMPTY_STRING", "TOO_LONG"}


def by_prefix(prefix: str) -> list[Path]:
    return [path for path in FILES if path.name.startswith(prefix)]


def ids(paths: list[Path]) -> list[str]:
    return [path.name for path in paths]


class TestCorpus:
    def test_corpus_is_complete(self):
        assert (CORPUS / "LICENSE").read_text().startswith("MIT License")
        assert (CORPUS / "SOURCE.md").is_file()
        assert (len(by_prefix("y_")), len(by_prefix("n_")), len(by_prefix("i_"))) == (95, 188, 35)


class TestRejected:
    @pytest.mark.parametrize("path", by_prefix("n_"), ids=ids(by_prefix("n_")))
    def test_refused_by_the_syntax_layer(self, path):
        verdict = verify(path.read_bytes(), REQUEST, REGISTRY)
        assert verdict.status == "INVALID_JSON"
        assert verdict.reason in SYNTAX_LAYER
        assert not verdict.strict_json
        failure = explain(verdict).first_failure
        assert failure.check.id in ("size", "encoding", "depth", "syntax")
        assert "truncated" not in failure.explanation.lower()

    def test_reasons_that_occur(self):
        reasons = {verify(path.read_bytes(), REQUEST, REGISTRY).reason for path in by_prefix("n_")}
        # The corpus exercises syntax, trailing data, encoding and the size limit
        # (its 100000 opening brackets).
        assert {"SYNTAX", "TRAILING_DATA", "NOT_UTF8"} <= reasons <= SYNTAX_LAYER


class TestAccepted:
    @pytest.mark.parametrize("path", by_prefix("y_"), ids=ids(by_prefix("y_")))
    def test_valid_json_passes_the_syntax_layer(self, path):
        verdict = verify(path.read_bytes(), REQUEST, REGISTRY)
        assert verdict.reason not in SYNTAX_LAYER, detail(verdict)
        assert verdict.status == "INVALID_JSON" and verdict.reason in AFTER_SYNTAX
        syntax = next(s for s in explain(verdict).steps if s.check.id == "syntax")
        assert syntax.outcome is Outcome.PASSED

    def test_duplicate_keys_among_valid_files(self):
        duplicates = {path.name for path in by_prefix("y_")
                      if verify(path.read_bytes(), REQUEST, REGISTRY).reason == "DUPLICATE_KEY"}
        assert duplicates == {"y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"}


class TestImplementationDefined:
    @pytest.mark.parametrize("path", FILES, ids=ids(FILES))
    def test_never_raises(self, path):
        data = path.read_bytes()
        for raw in (data, data.decode("utf-8", "surrogateescape")):
            verdict = verify(raw, REQUEST, REGISTRY)
            assert verdict.status == "INVALID_JSON"
            for step in explain(verdict).steps:
                assert step.explanation
                step.to_dict()
            verdict_document(verdict, trace=True)
