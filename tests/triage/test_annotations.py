"""triage.annotations and triage.annotated: a reviewer's decisions kept beside a log (issue 19),
the file's round trip, last wins, clear, stale digests, corrupt files, the refusals, and the
counts joined to a summary's groups."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from inspector.suites.load import bundled_root, load_registry
from inspector.triage.annotated import apply_annotations, join_annotations, read_all
from inspector.triage.annotations import (
    SCHEMA,
    AnnotationError,
    annotate,
    annotations_path,
    clear,
    digest,
    new_annotation,
    read_annotations,
)
from inspector.triage.parsing import decode_record
from inspector.triage.run import triage
from inspector.triage.summary import summarize
from inspector.triage.tally import Options

from inspector.contract.verify import verify
from support.together import run_together

SAMPLE = Path(bundled_root()) / "logs" / "sample.jsonl"
REGISTRY = Path(bundled_root()) / "logs" / "sample-registry.json"


@pytest.fixture(scope="module")
def registry():
    return load_registry(REGISTRY)


def records(log: Path, registry, count: int = 60):
    """(line, offset, bytes, label) of the log's first records, with their verdicts now."""
    found, offset = [], 0
    for number, text in enumerate(log.read_bytes().split(b"\n")[:count], 1):
        record = decode_record(text, str(log), number, offset)
        if hasattr(record, "raw"):
            found.append((number, offset, text, verify(record.raw, record.request, registry).label))
        offset += len(text) + 1
    return found


@pytest.fixture
def log(tmp_path):
    copy = tmp_path / "app.jsonl"
    copy.write_bytes(SAMPLE.read_bytes())
    return copy


def first(found, accepted: bool):
    return next(item for item in found if (item[3] == "ACCEPT") == accepted)


class TestFile:
    def test_round_trip_last_wins_and_clear(self, log, registry):
        line, offset, text, label = first(records(log, registry), accepted=False)
        one = new_annotation(str(log), line, offset, text, label, "true_rejection", None, "Ada", "2026-12-02T06:30:00Z")
        annotate(str(log), one)
        path = annotations_path(str(log))
        assert path == log.with_name("app.jsonl.annotations.jsonl")
        written = path.read_text().splitlines()
        assert json.loads(written[0]) == {"schema": SCHEMA, "log": "app.jsonl"}
        assert json.loads(written[1])["decision"] == "true_rejection"
        two = new_annotation(str(log), line, offset, text, label, "false_rejection", "stale registry", "Bo")
        annotate(str(log), two)
        log_notes = read_annotations(str(log))
        assert len(log_notes) == 1 and log_notes.find(line, offset, digest(text)) == two  # last wins
        assert two.verifier.startswith("contract-") and two.sha256 == digest(text)
        log_notes, removed = clear(str(log), line, offset, digest(text))
        assert removed and len(log_notes) == 0 and len(read_annotations(str(log))) == 0
        assert clear(str(log), line, offset, digest(text))[1] is False
        assert log.read_bytes() == SAMPLE.read_bytes()  # never written into the log

    def test_a_later_line_of_the_same_record_in_a_file_wins_on_reading(self, log, registry):
        line, offset, text, label = first(records(log, registry), accepted=True)
        annotate(str(log), new_annotation(str(log), line, offset, text, label, "true_acceptance", reviewer="Ada"))
        path = annotations_path(str(log))
        later = json.loads(path.read_text().splitlines()[1]) | {"decision": "false_acceptance"}
        path.write_text(path.read_text() + json.dumps(later) + "\n")
        assert read_annotations(str(log)).find(line, offset, digest(text)).decision == "false_acceptance"

    def test_a_decision_of_the_other_pair_is_refused(self, log, registry):
        found = records(log, registry)
        line, offset, text, label = first(found, accepted=True)
        with pytest.raises(ValueError, match="accepted .* true_acceptance or a false_acceptance"):
            new_annotation(str(log), line, offset, text, label, "false_rejection")
        line, offset, text, label = first(found, accepted=False)
        with pytest.raises(ValueError, match="rejected"):
            new_annotation(str(log), line, offset, text, label, "true_acceptance")
        with pytest.raises(ValueError, match="not a decision"):
            new_annotation(str(log), line, offset, text, label, "maybe")
        with pytest.raises(ValueError, match="note is"):
            new_annotation(str(log), line, offset, text, label, "true_rejection", "x" * 5000)

    def test_no_file_no_annotations(self, log):
        log_notes = read_annotations(str(log))
        assert not log_notes.exists and len(log_notes) == 0


class TestRefusals:
    def test_standard_input_has_no_file_beside_it(self):
        with pytest.raises(AnnotationError, match="standard input has no file"):
            annotations_path("-")
        assert read_all(["-"]) == {}

    def test_a_file_without_the_header_is_never_replaced(self, log, registry):
        line, offset, text, label = first(records(log, registry), accepted=True)
        foreign = annotations_path(str(log))
        foreign.write_text('{"mine": true}\n')
        with pytest.raises(AnnotationError, match=r"annotations.jsonl:1: not a file of annotations"):
            annotate(str(log), new_annotation(str(log), line, offset, text, label, "true_acceptance"))
        assert foreign.read_text() == '{"mine": true}\n'

    def test_a_symbolic_link_is_refused(self, log, registry, tmp_path):
        line, offset, text, label = first(records(log, registry), accepted=True)
        target = tmp_path / "elsewhere.jsonl"
        target.write_text(json.dumps({"schema": SCHEMA}) + "\n")
        os.symlink(target, annotations_path(str(log)))
        with pytest.raises(AnnotationError, match="symbolic link"):
            annotate(str(log), new_annotation(str(log), line, offset, text, label, "true_acceptance"))
        assert target.read_text() == json.dumps({"schema": SCHEMA}) + "\n"

    def test_a_read_only_file_is_refused_and_kept(self, log, registry):
        """Issue 29, "refuse what the user cannot write": neither an annotation nor a clear
        replaces a read-only annotations file, even as root."""
        found = records(log, registry)
        line, offset, text, label = found[0]
        decision = "true_acceptance" if label == "ACCEPT" else "true_rejection"
        annotate(str(log), new_annotation(str(log), line, offset, text, label, decision))
        path = annotations_path(str(log))
        os.chmod(path, 0o444)
        before = path.read_bytes()
        line2, offset2, text2, label2 = found[1]
        decision2 = "true_acceptance" if label2 == "ACCEPT" else "true_rejection"
        with pytest.raises(AnnotationError, match="is read-only.*the annotation was not kept"):
            annotate(str(log), new_annotation(str(log), line2, offset2, text2, label2, decision2))
        with pytest.raises(AnnotationError, match="is read-only"):
            clear(str(log), line, offset, digest(text))
        assert path.read_bytes() == before and os.stat(path).st_mode & 0o777 == 0o444

    def test_nothing_is_written_into_the_bundled_fixtures(self, registry):
        line, offset, text, label = first(records(SAMPLE, registry), accepted=True)
        with pytest.raises(AnnotationError, match="bundled fixtures"):
            annotate(str(SAMPLE), new_annotation(str(SAMPLE), line, offset, text, label, "true_acceptance"))
        assert not annotations_path(str(SAMPLE)).exists()


GOOD = {"file": "app.jsonl", "line": 1, "offset": 0, "sha256": "0" * 64, "decision": "true_rejection",
        "verdict": "VALUE_MISMATCH", "reviewer": "Ada", "at": "2026-12-02T06:30:00Z", "verifier": "contract-x"}


class TestCorrupt:
    @pytest.mark.parametrize(("lines", "where", "problem"), [
        ([], 1, "empty"),
        (["not json"], 1, "not a file of annotations"),
        ([json.dumps({"schema": "inspector.annotations/9"})], 1, "this inspector reads inspector.annotations/1"),
        ([json.dumps({"schema": SCHEMA}), "{"], 2, "not JSON|malformed|truncated"),
        ([json.dumps({"schema": SCHEMA}), json.dumps(GOOD | {"extra": 1})], 2, "unknown field"),
        ([json.dumps({"schema": SCHEMA}), json.dumps(GOOD | {"decision": "meh"})], 2, "meh|decision"),
        ([json.dumps({"schema": SCHEMA}), json.dumps(GOOD | {"decision": "true_acceptance"})], 2,
         "not a decision on a record whose verdict is VALUE_MISMATCH"),
        ([json.dumps({"schema": SCHEMA}), json.dumps(GOOD | {"sha256": "xyz"})], 2, "sha256"),
        ([json.dumps({"schema": SCHEMA}), json.dumps(GOOD), json.dumps({k: v for k, v in GOOD.items()
                                                                          if k != "reviewer"})], 3, "reviewer"),
    ])
    def test_a_corrupt_file_names_its_line(self, log, lines, where, problem):
        annotations_path(str(log)).write_text("".join(line + "\n" for line in lines))
        with pytest.raises(AnnotationError, match=problem) as caught:
            read_annotations(str(log))
        assert caught.value.line == where
        assert str(caught.value).startswith(f"{annotations_path(str(log))}:{where}: ")


class TestCounts:
    def summary(self, log, registry, options=Options()):
        return summarize(triage([str(log)], registry, options, workers=1), options, [str(log)], str(REGISTRY))

    def test_the_groups_count_annotated_records_and_stale_ones(self, log, registry):
        found = records(log, registry)
        rejected = [item for item in found if item[3] != "ACCEPT"][:3]
        accepted = first(found, accepted=True)
        for line, offset, text, label in rejected[:2]:
            annotate(str(log), new_annotation(str(log), line, offset, text, label, "false_rejection", reviewer="A"))
        line, offset, text, label = rejected[2]
        annotate(str(log), new_annotation(str(log), line, offset, text, label, "true_rejection", reviewer="A"))
        line, offset, text, label = accepted
        annotate(str(log), new_annotation(str(log), line, offset, text, label, "false_acceptance", reviewer="A"))
        summary = self.summary(log, registry)
        counts = join_annotations(summary, registry, read_all([str(log)]))
        apply_annotations(summary, counts)
        assert (counts.annotated, counts.false_rejections, counts.false_acceptances) == (4, 2, 1)
        accept = summary.group("ACCEPT")
        assert (accept.annotated, accept.false_rejections, accept.false_acceptances) == (1, 0, 1)
        rejections = sum(group.annotated for group in summary.of_kind("check") if group.name != "ACCEPT")
        assert rejections == 3
        document = summary.to_dict()
        assert document["annotations"]["annotated"] == 4 and document["annotations"]["stale"] == []
        assert {"annotated", "false_rejections", "false_acceptances"} <= set(document["groups"][0])
        # The log rewritten: the line at an annotated offset is another one; stale, not applied to it.
        data = bytearray(log.read_bytes())
        data[rejected[0][1]:rejected[0][1] + 1] = b" "  # the first byte of the line: '{' becomes ' '
        log.write_bytes(bytes(data))
        summary = self.summary(log, registry)
        counts = join_annotations(summary, registry, read_all([str(log)]))
        assert counts.annotated == 3 and len(counts.stale) == 1
        assert counts.stale[0][1:3] == rejected[0][:2] and "rewritten" in counts.stale[0][3]

    def test_a_record_outside_the_window_is_not_counted(self, log, registry):
        line, offset, text, label = first(records(log, registry), accepted=True)
        annotate(str(log), new_annotation(str(log), line, offset, text, label, "true_acceptance", reviewer="A"))
        options = Options(since=4102444800.0)  # 2100: nothing counted
        summary = self.summary(log, registry, options)
        counts = join_annotations(summary, registry, read_all([str(log)]))
        assert counts.annotated == 0 and counts.not_counted == 1


class TestConcurrentAnnotators:
    """Issue 29: each change re-reads the file under a lock and adds to it; no annotation is lost."""

    def test_processes_annotating_one_log_at_once_keep_every_annotation(self, log):
        script = (
            "import sys\n"
            "from inspector.contract.verify import verify\n"
            "from inspector.suites.load import load_registry\n"
            "from inspector.triage.annotations import annotate, new_annotation\n"
            "from inspector.triage.parsing import decode_record\n"
            "log, registry, first = sys.argv[1], load_registry(sys.argv[2]), int(sys.argv[3])\n"
            "found, offset = [], 0\n"
            "for number, text in enumerate(open(log, 'rb').read().split(b'\\n')[:200], 1):\n"
            "    record = decode_record(text, log, number, offset)\n"
            "    if hasattr(record, 'raw'):\n"
            "        found.append((number, offset, text, verify(record.raw, record.request, registry).label))\n"
            "    offset += len(text) + 1\n"
            "mine = found[first::3][:20]\n"
            "assert len(mine) == 20\n"
            "print('ready', flush=True)\n"
            "sys.stdin.readline()\n"
            "for line, offset, text, label in mine:\n"
            "    decision = 'true_acceptance' if label == 'ACCEPT' else 'true_rejection'\n"
            "    annotate(log, new_annotation(log, line, offset, text, label, decision, reviewer=f'r{first}'))\n"
        )
        run_together(script, [[str(log), str(REGISTRY), str(first)] for first in range(3)])
        log_notes = read_annotations(str(log))
        assert len(log_notes) == 60
        assert sorted({annotation.reviewer for annotation in log_notes}) == ["r0", "r1", "r2"]

    def test_the_later_annotation_of_a_record_wins_and_names_the_one_it_replaced(self, log, registry):
        line, offset, text, label = first(records(log, registry), accepted=False)
        ada = new_annotation(str(log), line, offset, text, label, "true_rejection", None, "Ada")
        assert annotate(str(log), ada).replaced is None
        bo = new_annotation(str(log), line, offset, text, label, "false_rejection", "stale", "Bo")
        log_notes = annotate(str(log), bo)
        assert log_notes.replaced == ada and log_notes.find(line, offset, digest(text)) == bo

    def test_the_files_permission_bits_are_kept(self, log, registry):
        found = records(log, registry)
        line, offset, text, label = found[0]
        decision = "true_acceptance" if label == "ACCEPT" else "true_rejection"
        annotate(str(log), new_annotation(str(log), line, offset, text, label, decision, reviewer="Ada"))
        os.chmod(annotations_path(str(log)), 0o600)
        line, offset, text, label = found[1]
        decision = "true_acceptance" if label == "ACCEPT" else "true_rejection"
        annotate(str(log), new_annotation(str(log), line, offset, text, label, decision, reviewer="Ada"))
        assert os.stat(annotations_path(str(log))).st_mode & 0o7777 == 0o600
        assert len(read_annotations(str(log))) == 2
