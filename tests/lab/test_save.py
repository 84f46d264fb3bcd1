"""Saving counterexamples (inspector.lab.save): a new file or an inspector-made one
appended to, never any other file; whole or not at all; provenance kept through
loading and audit."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest

from inspector import __version__, verify
from inspector.contract.version import VERIFIER
from inspector.lab.repair import repair
from inspector.lab.save import COUNTEREXAMPLES, SaveError, parent_sha256, save_case
from inspector.suites.load import LoadError, load_suite

from support import ARTICLE, FIXTURES, case_of, run_main, save_counterexample, tree

ARTICLE_SUITE = load_suite(ARTICLE)
CONFLICTS_SUITE = load_suite(FIXTURES / "conflicts.json")


def save(path, case_id="saved", parent="value-in-seconds", suite=ARTICLE_SUITE, raw=None, expected=None,
         edits=("value.perturb",), note="a note"):
    return save_counterexample(path, case_id, parent, suite, raw, expected, edits, note)


def listing(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_a_new_file_is_created_marked_and_loads(tmp_path):
    target = tmp_path / "mine.json"
    loaded = save(target)
    document = json.loads(target.read_text("utf-8"))
    assert document["kind"] == COUNTEREXAMPLES
    # The parent's registry and the case's request are kept.
    assert loaded.registry.sources == ARTICLE_SUITE.registry.sources
    (case,) = loaded.cases
    parent = case_of(ARTICLE_SUITE, "value-in-seconds")
    assert (case.id, case.request, case.raw, case.note) == ("saved", parent.request, parent.raw, "a note")
    assert case.provenance.parent_suite == "article" and case.provenance.parent_case == parent.id
    assert case.provenance.parent_sha256 == parent_sha256(parent.raw)
    assert listing(tmp_path) == ["mine.json"]  # no temporary file left


def test_append_keeps_the_cases_already_there(tmp_path):
    target = tmp_path / "mine.json"
    save(target, "one")
    first = target.read_text("utf-8")
    loaded = save(target, "two", parent="complete-answer")
    assert [case.id for case in loaded.cases] == ["one", "two"]
    assert json.loads(first)["cases"][0] == json.loads(target.read_text("utf-8"))["cases"][0]


def test_a_saved_file_audits_with_the_same_verdicts(tmp_path, capsys):
    """Every article case, repaired where it can be, saved and audited again."""
    target = tmp_path / "lab.json"
    expected = {}
    for case in ARTICLE_SUITE.cases:
        fix = repair(case.raw, case.request, ARTICLE_SUITE.registry)
        for suffix, raw, edits in (("as-is", case.raw, []), ("repaired", fix.raw, fix.edits)):
            label = verify(raw, case.request, ARTICLE_SUITE.registry).label
            save_case(target, ARTICLE_SUITE, case, raw, label, None, f"{case.id}-{suffix}", edits, __version__)
            expected[f"{case.id}-{suffix}"] = label
    _, out, _ = run_main(capsys, "audit", target, "--format", "json")
    document = json.loads(out)
    assert {c["id"]: c["actual"] for c in document["cases"]} == expected
    assert all(c["match"] for c in document["cases"])
    assert all("provenance" in c for c in document["cases"])


def test_provenance_round_trips_through_load_and_audit_json(tmp_path, capsys):
    target = tmp_path / "mine.json"
    case = case_of(ARTICLE_SUITE, "value-in-seconds")
    fix = repair(case.raw, case.request, ARTICLE_SUITE.registry)
    loaded = save_case(target, ARTICLE_SUITE, case, fix.raw, "ACCEPT", "fixed", "fixed", ["value.perturb", *fix.edits],
                       __version__)
    provenance = loaded.cases[0].provenance
    edits = ["value.perturb", {"what": "change", "claim": 0, "member": "value", "old": '"5s"', "new": '"5000"'}]
    assert list(provenance.edits) == edits and provenance.inspector_version == __version__
    _, out, _ = run_main(capsys, "audit", target, "--format", "json")
    assert json.loads(out)["cases"][0]["provenance"] == {
        "parent_suite": "article", "parent_case": "value-in-seconds",
        "parent_sha256": parent_sha256(case.raw), "edits": edits, "inspector_version": __version__,
        "verifier": VERIFIER}


def test_the_bundled_audit_json_has_no_provenance(capsys):
    _, out, _ = run_main(capsys, "audit", ARTICLE, "--format", "json")
    assert all("provenance" not in case for case in json.loads(out)["cases"])


def test_bytes_answers_are_saved_exactly(tmp_path):
    raw = b'{"claims": [\xff]}'
    loaded = save(tmp_path / "mine.json", raw=raw)
    assert loaded.cases[0].raw == raw
    assert verify(loaded.cases[0].raw, loaded.cases[0].request, loaded.registry).label == "INVALID_JSON/NOT_UTF8"


def test_the_loader_validates_provenance(tmp_path):
    target = tmp_path / "mine.json"
    save(target)
    document = json.loads(target.read_text("utf-8"))
    for change, place in (({"parent_sha256": "abc"}, "cases[0].provenance.parent_sha256"),
                          ({"parent_case": ""}, "cases[0].provenance.parent_case"),
                          ({"extra": 1}, "cases[0].provenance"),
                          ({"edits": [3]}, "cases[0].provenance.edits[0]")):
        broken = json.loads(json.dumps(document))
        broken["cases"][0]["provenance"].update(change)
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(broken), "utf-8")
        with pytest.raises(LoadError) as caught:
            load_suite(path)
        assert caught.value.place == place, (change, str(caught.value))


# -- refusals: nothing written ---------------------------------------------------------


def refused(path, *words, **changes):
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(SaveError) as caught:
        save(path, **changes)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    for word in words:
        assert word in message, message
    if before is not None:
        assert path.read_bytes() == before
    return message


def test_a_foreign_suite_is_refused(tmp_path):
    copy = tmp_path / "article.json"
    shutil.copy(ARTICLE, copy)
    refused(copy, "not a counterexample file", "inspector.suite/1")
    plain = tmp_path / "notes.json"
    plain.write_text('{"hello": 1}')
    refused(plain, "not a counterexample file", "no kind")
    text = tmp_path / "notes.txt"
    text.write_text("not json at all")
    refused(text, "not a counterexample file")
    assert listing(tmp_path) == ["article.json", "notes.json", "notes.txt"]


def test_what_is_not_a_regular_file_is_refused(tmp_path):
    directory = tmp_path / "dir.json"
    directory.mkdir()
    refused(directory, "not a regular file")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    refused(fifo, "not a regular file")
    real = tmp_path / "real.json"
    save(real)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    refused(link, "symbolic link")


BUNDLED = "is inside the bundled fixtures"


def test_bundled_suites_are_refused(bundled_tree):
    for path in sorted(bundled_tree.glob("*.json")):
        refused(path, BUNDLED, f"(fixtures/{path.name}); write elsewhere")
    refused(bundled_tree / "new-counterexamples.json", BUNDLED, "(fixtures/new-counterexamples.json)")


@pytest.mark.parametrize("place", ["payments/new.json", "payments/answers/new.json", "payments/answers/accept.json",
                                   "payments/registry.json", "registries/new.json", "registries/lint-demo.json"])
def test_nothing_below_the_bundled_folder_is_written(bundled_tree, place):
    """Not only the suites' own folder: the answers, the registries, any depth."""
    refused(bundled_tree / place, BUNDLED, f"(fixtures/{place}); write elsewhere")


def test_a_symlinked_folder_into_the_fixtures_is_refused(tmp_path, bundled_tree):
    (tmp_path / "mine").symlink_to(bundled_tree / "payments")
    (tmp_path / "all").symlink_to(bundled_tree)
    refused(tmp_path / "mine" / "new.json", BUNDLED, "(fixtures/payments/new.json)")
    refused(tmp_path / "mine" / "answers" / "x.json", BUNDLED, "(fixtures/payments/answers/x.json)")
    refused(tmp_path / "all" / "registries" / "x.json", BUNDLED, "(fixtures/registries/x.json)")
    # A link as the file name itself, leading into the tree: refused too, not written through.
    (tmp_path / "link.json").symlink_to(bundled_tree / "payments" / "made.json")
    refused(tmp_path / "link.json", BUNDLED, "(fixtures/payments/made.json)")


def test_a_protected_copy_is_refused_at_every_depth(tmp_path, protected_copy):
    """The same at a protected copy of the tree: a failing refusal writes there, not into fixtures/."""
    before = tree(protected_copy)
    (tmp_path / "via").symlink_to(protected_copy / "payments" / "answers")
    for target in (protected_copy / "payments" / "x.json", protected_copy / "registries" / "x.json",
                   tmp_path / "via" / "x.json"):
        refused(target, BUNDLED, "write elsewhere")
    assert tree(protected_copy) == before


def test_an_id_already_in_the_file_is_refused(tmp_path):
    target = tmp_path / "mine.json"
    save(target, "same")
    refused(target, "'same' is already in this file", case_id="same")


def test_another_registry_is_refused(tmp_path):
    target = tmp_path / "mine.json"
    save(target)
    parent = CONFLICTS_SUITE.cases[0].id
    refused(target, "another registry", suite=CONFLICTS_SUITE, parent=parent, case_id="other")


def test_bad_ids_and_labels_are_refused(tmp_path):
    target = tmp_path / "mine.json"
    refused(target, "empty", case_id="")
    refused(target, "expected label", expected="ACCEPTED")
    refused(target, "lone surrogate", raw="{\ud800}")
    assert listing(tmp_path) == []


# -- full disk, read-only directory: the original intact ------------------------------------


@pytest.mark.parametrize("on", ["write", "fsync"])
def test_a_full_disk_leaves_the_original_intact(tmp_path, disk_full, on):  # noqa: F811
    target = tmp_path / "mine.json"
    save(target, "one")
    before = target.read_bytes()
    disk_full(0, on)
    message = refused(target, os.strerror(errno.ENOSPC), "the file is as it was", case_id="two")
    assert message.count(os.strerror(errno.ENOSPC)) == 1
    assert target.read_bytes() == before and listing(tmp_path) == ["mine.json"]


def test_a_full_disk_creates_nothing(tmp_path, disk_full):  # noqa: F811
    disk_full(100)
    refused(tmp_path / "new.json", os.strerror(errno.ENOSPC), "nothing was written")
    assert listing(tmp_path) == []


def test_a_missing_directory_is_one_line(tmp_path):
    refused(tmp_path / "no" / "such" / "mine.json", "not saved", "nothing was written")
    assert listing(tmp_path) == []


def test_a_read_only_directory_leaves_the_original_intact(read_only_with_file):
    target = read_only_with_file
    before = target.read_bytes()
    message = refused(target, "not saved", "the file is as it was", case_id="two")
    # a read-only file is refused before the folder is tried (io.writing.may_write); else the system says why
    assert "is read-only" in message or os.strerror(errno.EROFS) in message or os.strerror(errno.EACCES) in message
    assert target.read_bytes() == before and listing(target.parent) == ["mine.json"]


def test_an_edit_holding_a_lone_surrogate_is_recorded_visibly(tmp_path):
    """The raw editor can make text no file can hold; the repair of it rewrites it,
    and the record of that edit shows the surrogate as its escape."""
    edited = '{"claims": ["\ud800"]}'
    fix = repair(edited, case_of(ARTICLE_SUITE, "complete-answer").request, ARTICLE_SUITE.registry)
    assert fix.edits[0].old == edited
    loaded = save(tmp_path / "mine.json", raw=fix.raw, edits=fix.edits, parent="complete-answer")
    assert loaded.cases[0].provenance.edits[0]["old"] == '{"claims": ["\\ud800"]}'
