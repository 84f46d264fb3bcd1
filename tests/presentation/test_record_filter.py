"""In a triage group (issue 20): the records' filter (``presentation.record_filter``: metadata
``KEY=VALUE`` and ``KEY!=VALUE``, text in the place, the verdict or the raw answer, every term
held), the export form's fields (``presentation.export_form``) and an export of marked or sampled
records (``presentation.group_export.export_group``) drawing what the headless export draws."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from inspector.presentation.export_form import ExportFormError, default_take, export_choice
from inspector.presentation.group_export import Shown, export_group
from inspector.presentation.marks import Marks
from inspector.presentation.overview import count, triage_run
from inspector.presentation.record_filter import FilterError, filter_records, parse_filter, value_text
from inspector.presentation.record_session import open_group
from inspector.suites.load import bundled_root, load_registry, load_suite
from inspector.triage import Options, triage
from inspector.triage.drill import LineReader
from inspector.triage.export import ExportError

SAMPLE = Path(bundled_root()) / "logs" / "sample.jsonl"
REGISTRY = Path(bundled_root()) / "logs" / "sample-registry.json"


class TestParsing:
    def test_terms(self):
        parsed = parse_filter('model=gpt-x  prompt_version!=p2 "read timeout" /metadata/prompt.version=p1 2000')
        assert [(term.key, term.value, term.negated) for term in parsed.terms] == [
            ("model", "gpt-x", False), ("prompt_version", "p2", True), (None, "read timeout", False),
            ("/metadata/prompt.version", "p1", False), (None, "2000", False)]
        assert parsed.terms[3].path == ("metadata", "prompt.version")
        assert parse_filter('model="gpt x"').terms[0].value == "gpt x"
        assert parse_filter("model=").terms[0].value == ""  # an empty string
        assert parse_filter("  ").empty

    @pytest.mark.parametrize(("text", "words"), [
        ('model="gpt', "a quote is not closed"),
        ("=gpt-x", "a comparison needs a metadata key before ="),
        ("!=gpt-x", "a comparison needs a metadata key before !="),
        ("a..b=1", "has an empty segment"),
        ("/a/~2=1", "'~' not followed by 0 or 1"),
        ("\x1b..=1", "has an empty segment"),  # said escaped
    ])
    def test_what_cannot_be_read_says_why_in_one_line(self, text, words):
        with pytest.raises(FilterError, match=words.replace("(", r"\(")) as caught:
            parse_filter(text)
        assert "\n" not in str(caught.value) and "\x1b" not in str(caught.value)

    def test_how_a_record_holds_it(self):
        meta = {"model": "gpt-x", "attempt": 3, "cached": True, "metadata": {"prompt.version": "p2"},
                "request.trace_id": "t-1", "tags": ["a", "b"]}

        def holds(text, raw='{"claims": []}', place="app.jsonl:12", label="ACCEPT"):
            return parse_filter(text).holds(place, label, raw, meta)

        assert holds("model=gpt-x") and not holds("model=GPT-X") and holds("model!=gpt-y")
        assert holds("attempt=3") and holds("cached=true") and holds("'tags=[\"a\",\"b\"]'")
        assert holds("/metadata/prompt.version=p2") and holds("request.trace_id=t-1")
        assert holds("missing=null") and holds("missing!=x") and not holds("missing=x")
        assert holds("raw:CLAIMS") and holds("app.jsonl:12") and holds("accept") and not holds("raw:nothing")
        assert not holds("claims")  # a plain text is looked for in the place and the label only
        assert holds("model=gpt-x raw:claims") and not holds("model=gpt-x raw:nothing")
        assert holds("raw:\u00ff", raw=b'\xff \xc3\xbf')  # an answer that is not UTF-8: read with replacements
        assert holds("raw:retry_enabled=true", raw='{"quote": "retry_enabled=true"}')  # not a comparison
        with pytest.raises(FilterError, match="raw: needs a text"):
            parse_filter("raw:")
        # A metadata or a raw: term needs the record read; place and label terms are the index's alone.
        assert parse_filter("app.jsonl model=gpt-x").reads and parse_filter("app.jsonl raw:x").reads
        assert not parse_filter("app.jsonl accept").reads
        assert value_text(None) == "null" and value_text({"a": 1}) == '{"a":1}' and value_text("3") == "3"


@pytest.fixture(scope="module")
def overview():
    """The overview's count of the sample log by model, and its run."""
    run = triage_run([str(SAMPLE)], load_registry(REGISTRY), str(REGISTRY), ("model",), workers=1)
    snapshots = []
    count(run, snapshots.append, threading.Event())
    assert snapshots[-1].done
    return snapshots[-1], run


def records_of(snapshot, run, group):
    return open_group(snapshot.summary.group(group), snapshot, run, LineReader())


def lines_where(test):
    """The 1-based lines of the sample whose record holds ``test(record)``."""
    found = []
    for number, text in enumerate(SAMPLE.read_bytes().split(b"\n"), 1):
        try:
            record = json.loads(text)
        except ValueError:
            continue
        if isinstance(record, dict) and test(record):
            found.append(number)
    return found


class TestFilteringAGroup:
    def test_metadata_and_text_found_as_the_log_says(self, overview):
        snapshot, run = overview
        session = records_of(snapshot, run, "model=gpt-x")
        found = filter_records(session, parse_filter("prompt_version=p2"))
        ids = [session.ids[number] for number in found.numbers]
        expected = lines_where(lambda record: record.get("model") == "gpt-x" and record.get("prompt_version") == "p2"
                               and isinstance(record.get("raw"), str) and isinstance(record.get("request"), dict))
        assert ids == [f"sample.jsonl:{line}" for line in expected] and found.read == found.among == 149
        assert found.words == f"{len(ids)} of 149 records match"
        text = filter_records(session, parse_filter("prompt_version=p2 raw:read_timeout_ms"))
        assert set(text.numbers) < set(found.numbers) and text.numbers
        assert all("read_timeout_ms" in session.report(number).case.raw for number in text.numbers)
        none = filter_records(session, parse_filter("model=gpt-y"))
        assert none.numbers == () and none.words == "no record of 149 matches"
        among = filter_records(session, parse_filter("prompt_version!=p2"), among=found.numbers[:3])
        assert among.numbers == () and among.among == 3

    def test_a_place_or_a_label_decides_without_reading(self, overview):
        snapshot, run = overview
        session = records_of(snapshot, run, "VALUE_MISMATCH")
        found = filter_records(session, parse_filter("value_mismatch sample.jsonl"))
        assert len(found.numbers) == len(session) and found.read == 0

    def test_it_stops_when_told(self, overview):
        snapshot, run = overview
        session = records_of(snapshot, run, "model=gpt-x")
        assert filter_records(session, parse_filter("model=x"), cancelled=lambda: True) is None


class TestTheExportForm:
    def test_what_the_fields_say(self):
        assert default_take(0) == "first" and default_take(2) == "marked"
        first = export_choice("first", "10", "", 149, ())
        assert (first.count, first.numbers, first.sample) == (10, None, None)
        marked = export_choice("m", "10", "", 149, (5, 2, 5))
        assert marked.numbers == (2, 5) and marked.count == 2 and marked.how == "the 2 record(s) marked"
        sample = export_choice("SAMPLE", "5", "7", 149, ())
        assert (sample.sample.size, sample.sample.seed, sample.sample.of, sample.picked) == (5, 7, 149, False)
        assert sample.how == "a random sample of 5 of the group's 149 records, seed 7"
        picked = export_choice("sample", "5", " ", 149, ())
        assert picked.picked and "the seed was picked" in picked.how
        everything = export_choice("sample", "500", "1", 149, ())
        assert everything.count == 149 and "all of them written" in everything.how

    @pytest.mark.parametrize(("fields", "field", "words"), [
        (("", "5", ""), "take", "which records: first or sample"),
        (("x", "5", ""), "take", "which records"),
        (("marked", "5", ""), "take", "no record is marked"),
        (("first", "0", ""), "count", "records: a whole number from 1 to 149"),
        (("first", "150", ""), "count", "150 is not"),
        (("sample", "²", ""), "count", "digits 0-9 only"),
        (("sample", "5", "x"), "seed", "a seed is a whole number"),
    ])
    def test_a_field_that_cannot_be_read_is_named(self, fields, field, words):
        with pytest.raises(ExportFormError, match=words) as caught:
            export_choice(*fields, 149, ())
        assert caught.value.field == field

    def test_marks(self):
        marks = Marks()
        assert marks.toggle(3) and marks.toggle(1) and not marks.toggle(3) and marks.toggle(7)
        assert marks.numbers() == [1, 7] and 7 in marks and len(marks) == 2 and marks.words == "2 marked"
        assert marks.clear() == 2 and marks.words == "" and not marks


def test_the_forms_sample_is_the_headless_one_and_marked_records_are_written(overview, tmp_path):
    snapshot, run = overview
    group = snapshot.summary.group("model=gpt-x")
    sample = export_choice("sample", "6", "9", group.records, ()).sample
    assert export_group(group, snapshot, run, LineReader(), tmp_path / "a.json", 6, sample=sample) == 6
    headless = triage([str(SAMPLE)], run.registry, Options(by=("model",), collect="model=gpt-x", sample=6, seed=9),
                      workers=1)
    lines = [line for _, line, *_ in headless.sampled.items()]
    suite = load_suite(tmp_path / "a.json")
    assert [case.metadata.line for case in suite.cases] == lines
    assert "a random sample of 6 of the group's 149 records, seed 9" in suite.description
    assert export_group(group, snapshot, run, LineReader(), tmp_path / "b.json", numbers=[4, 1]) == 2
    marked = load_suite(tmp_path / "b.json")
    session = records_of(snapshot, run, "model=gpt-x")
    assert [f"sample.jsonl:{case.metadata.line}" for case in marked.cases] == [session.ids[1], session.ids[4]]
    assert "the 2 record(s) marked by hand" in marked.description


def test_an_export_of_a_filtered_group_takes_the_records_shown(overview, tmp_path):
    """Issue 29: with ``/ model=gpt-x`` showing some of ACCEPT's records, the first N, a sample and the marked
    ones are taken among those shown, never from the whole group (which holds other models')."""
    snapshot, run = overview
    group = snapshot.summary.group("ACCEPT")
    session = records_of(snapshot, run, "ACCEPT")
    found = filter_records(session, parse_filter("model=gpt-x"))
    assert 5 < len(found.numbers) < len(session)
    shown = Shown(found.numbers, "filter model=gpt-x")

    def models(name):
        return {case.metadata.members.get("model") for case in load_suite(tmp_path / name).cases}

    # before: the group's first 5, of three models
    assert export_group(group, snapshot, run, LineReader(), tmp_path / "first.json", 5, shown=shown) == 5
    assert models("first.json") == {"gpt-x"}
    first = load_suite(tmp_path / "first.json")
    assert [f"sample.jsonl:{case.metadata.line}" for case in first.cases] == \
        [session.ids[number] for number in found.numbers[:5]]
    assert f"the first 5 of the {len(found.numbers)} records shown (filter model=gpt-x)" in first.description
    sample = export_choice("sample", "4", "3", len(shown), ()).sample
    assert export_group(group, snapshot, run, LineReader(), tmp_path / "sample.json", 4, sample=sample,
                        shown=shown) == 4
    assert models("sample.json") == {"gpt-x"}
    assert (f"a random sample of 4 of the {len(found.numbers)} records shown (filter model=gpt-x), seed 3"
            in load_suite(tmp_path / "sample.json").description)
    hidden = next(number for number in range(len(session)) if number not in found.numbers)
    marked = [found.numbers[0], hidden, found.numbers[2]]
    assert export_group(group, snapshot, run, LineReader(), tmp_path / "marked.json", numbers=marked,
                        shown=shown) == 2
    assert models("marked.json") == {"gpt-x"}
    with pytest.raises(ExportError, match=r"no record to write among the \d+ records shown \(filter model=gpt-x\)"):
        export_group(group, snapshot, run, LineReader(), tmp_path / "none.json", numbers=[hidden], shown=shown)
    assert not (tmp_path / "none.json").exists()
