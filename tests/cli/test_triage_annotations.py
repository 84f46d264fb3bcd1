"""``inspector triage`` with a log's annotations beside it (issue 19): the counts per group in
``--format json`` and the text, a corrupt annotations file as one line and exit 2, ``--export``
carrying each record's decision into its case as ``human``, which ``audit`` loads and shows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.contract.verify import verify
from inspector.suites.load import bundled_root, load_registry, load_suite
from inspector.triage.annotations import annotate, annotations_path, new_annotation
from inspector.triage.parsing import decode_record

from support import one_line_error, run_main

SAMPLE = Path(bundled_root()) / "logs" / "sample.jsonl"
REGISTRY = Path(bundled_root()) / "logs" / "sample-registry.json"
NOTE = "[bold]loud[/bold] \x1b[31mred"


@pytest.fixture(scope="module")
def annotated(tmp_path_factory):
    """A copy of the sample log with three VALUE_MISMATCH records annotated (two false rejections,
    the first with a hostile note) and one accepted record (a true acceptance)."""
    folder = tmp_path_factory.mktemp("annotated")
    log = folder / "app.jsonl"
    log.write_bytes(SAMPLE.read_bytes())
    registry = load_registry(REGISTRY)
    offset, marked = 0, {}
    for number, text in enumerate(log.read_bytes().split(b"\n"), 1):
        record = decode_record(text, str(log), number, offset)
        if hasattr(record, "raw"):
            label = verify(record.raw, record.request, registry).label
            if label == "VALUE_MISMATCH" and marked.get(label, 0) < 3:
                decision = "false_rejection" if marked.get(label, 0) < 2 else "true_rejection"
                note = NOTE if not marked.get(label) else None
                annotate(str(log), new_annotation(str(log), number, offset, text, label, decision, note, "Ada"))
                marked[label] = marked.get(label, 0) + 1
            elif label == "ACCEPT" and not marked.get(label):
                annotate(str(log), new_annotation(str(log), number, offset, text, label, "true_acceptance",
                                                  reviewer="Ada"))
                marked[label] = 1
        offset += len(text) + 1
    return folder, log


def test_the_json_and_the_text_count_annotated_records_per_group(annotated, capsys):
    folder, log = annotated
    status, out, err = run_main(capsys, "triage", log, "--registry", REGISTRY, "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    groups = {group["group"]: group for group in document["groups"]}
    assert (groups["VALUE_MISMATCH"]["annotated"], groups["VALUE_MISMATCH"]["false_rejections"]) == (3, 2)
    assert (groups["ACCEPT"]["annotated"], groups["ACCEPT"]["false_acceptances"]) == (1, 0)
    assert groups["INVALID_JSON"]["annotated"] == 0
    assert document["annotations"]["annotated"] == 4
    assert document["annotations"]["files"] == [str(annotations_path(str(log)))]
    status, out, err = run_main(capsys, "triage", log, "--registry", REGISTRY, "--summary")
    assert status == 0, err
    assert "4 record(s) · 2 false rejection(s) · 0 false acceptance(s)" in out
    assert "annotated records by group" in out
    table = out[out.index("annotated records by group"):]
    row = next(line for line in table.splitlines() if "│ VALUE_MISMATCH " in line)
    assert [cell.strip() for cell in row.split("│")[2:6]] == ["26", "3", "2", "0"]


def test_without_annotations_the_json_is_as_it_was(capsys):
    document = json.loads(run_main(capsys, "triage", SAMPLE, "--registry", REGISTRY, "--format", "json")[1])
    assert "annotations" not in document and "annotated" not in document["groups"][0]


def test_a_corrupt_annotations_file_is_one_line_and_exit_2(tmp_path, capsys):
    log = tmp_path / "app.jsonl"
    log.write_bytes(SAMPLE.read_bytes())
    annotations_path(str(log)).write_text('{"schema": "inspector.annotations/1"}\n{"line": "x"}\n')
    status, _, err = run_main(capsys, "triage", log, "--registry", REGISTRY, "--summary")
    assert status == 2
    one_line_error(err, "app.jsonl.annotations.jsonl:2:")


def test_export_carries_the_decisions_and_audit_shows_them(annotated, tmp_path, capsys):
    folder, log = annotated
    out = tmp_path / "mismatch.json"
    status, _, err = run_main(capsys, "triage", log, "--registry", REGISTRY, "--export", "VALUE_MISMATCH", "--out", out)
    assert status == 0, err
    cases = json.loads(out.read_text())["cases"]
    humans = [case.get("human") for case in cases]
    assert [human["decision"] for human in humans if human] == ["false_rejection", "false_rejection",
                                                                 "true_rejection"]
    first = next(human for human in humans if human)
    assert first["note"] == NOTE and first["reviewer"] == "Ada" and first["verifier"].startswith("contract-")
    assert set(first) == {"decision", "note", "reviewer", "at", "verifier"}
    suite = load_suite(out)
    assert sum(case.human is not None for case in suite.cases) == 3
    document = json.loads(run_main(capsys, "audit", out, "--format", "json")[1])
    decided = [case for case in document["cases"] if "human" in case]
    assert len(decided) == 3 and decided[0]["human"]["note"] == NOTE
    text = run_main(capsys, "audit", out)[1]
    lines = [line for line in text.splitlines() if "human:" in line]
    assert len(lines) == 3 and "false_rejection by Ada" in lines[0]
    assert "\x1b" not in text and "\\u001b[31mred" in text  # the note's escape shown, not sent


def test_a_suite_with_a_bad_human_decision_is_a_case_error(tmp_path, capsys):
    out = tmp_path / "bad.json"
    status, _, _ = run_main(capsys, "triage", SAMPLE, "--registry", REGISTRY, "--export", "ACCEPT", "--out", out,
                            "--limit", "1")
    assert status == 0
    document = json.loads(out.read_text())
    document["cases"][0]["human"] = {"decision": "maybe", "reviewer": "A", "at": "t", "verifier": "v"}
    out.write_text(json.dumps(document))
    suite = load_suite(out, strict=False)
    assert not suite.cases and "maybe" in suite.broken[0].problem


# -- an annotated record's label is the person's, not the contract's own verdict --------------

@pytest.fixture(scope="module")
def wrongly_accepted(tmp_path_factory):
    """A copy of the sample log with its first accepted record annotated a false acceptance and
    its first VALUE_MISMATCH a false rejection, by Ada."""
    folder = tmp_path_factory.mktemp("wrong")
    log = folder / "app.jsonl"
    log.write_bytes(SAMPLE.read_bytes())
    registry = load_registry(REGISTRY)
    offset, done = 0, set()
    for number, text in enumerate(log.read_bytes().split(b"\n"), 1):
        record = decode_record(text, str(log), number, offset)
        if hasattr(record, "raw"):
            label = verify(record.raw, record.request, registry).label
            decision = {"ACCEPT": "false_acceptance", "VALUE_MISMATCH": "false_rejection"}.get(label)
            if decision is not None and label not in done:
                annotate(str(log), new_annotation(str(log), number, offset, text, label, decision, None, "Ada"))
                done.add(label)
        offset += len(text) + 1
    return log


def test_a_false_rejection_exports_accept_and_audit_reports_the_mismatch(wrongly_accepted, annotated, tmp_path,
                                                                        capsys):
    _, log = annotated
    out = tmp_path / "mismatch.json"
    assert run_main(capsys, "triage", log, "--registry", REGISTRY, "--export", "VALUE_MISMATCH", "--out", out)[0] == 0
    cases = json.loads(out.read_text())["cases"]
    labels = [(case.get("human", {}).get("decision"), case["expected"]) for case in cases]
    assert labels.count(("false_rejection", "ACCEPT")) == 2  # the person's label
    assert labels.count(("true_rejection", "VALUE_MISMATCH")) == 1  # the person's too: the verdict, confirmed
    assert all(expected == "VALUE_MISMATCH" for decision, expected in labels if decision is None)
    status, text, _ = run_main(capsys, "audit", out)
    assert status == 1
    assert "2 case(s) differ from their frozen label" in text and "expected ACCEPT, got VALUE_MISMATCH" in text


def test_a_false_acceptance_exports_unlabelled_and_audit_says_so(wrongly_accepted, tmp_path, capsys):
    out = tmp_path / "accepted.json"
    assert run_main(capsys, "triage", wrongly_accepted, "--registry", REGISTRY, "--export", "ACCEPT",
                    "--out", out)[0] == 0
    cases = json.loads(out.read_text())["cases"]
    unlabelled = [case for case in cases if case["expected"] is None]
    assert [case["human"]["decision"] for case in unlabelled] == ["false_acceptance"]
    assert all(case["expected"] == "ACCEPT" for case in cases if "human" not in case)
    assert load_suite(out).cases[cases.index(unlabelled[0])].expected is None
    status, text, _ = run_main(capsys, "audit", out)
    assert status == 1
    assert "1 case(s) without a label: a person annotated the acceptance as false" in text
    assert f"/{unlabelled[0]['id']}: got ACCEPT (false_acceptance by Ada at" in " ".join(text.split())
    assert "all verdicts match" not in text
    document = json.loads(run_main(capsys, "audit", out, "--format", "json")[1])
    assert len(document["summary"]["unlabelled_cases"]) == 1


def test_an_unlabelled_case_needs_a_persons_false_acceptance(tmp_path, capsys):
    out = tmp_path / "one.json"
    assert run_main(capsys, "triage", SAMPLE, "--registry", REGISTRY, "--export", "ACCEPT", "--out", out,
                    "--limit", "1")[0] == 0
    document = json.loads(out.read_text())
    document["cases"][0]["expected"] = None
    out.write_text(json.dumps(document))
    suite = load_suite(out, strict=False)
    assert not suite.cases and "null (unlabelled) only in a case a person annotated" in suite.broken[0].problem
