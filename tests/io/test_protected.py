"""Nothing inspector writes lands in the bundled fixtures' tree (``io.writing``'s
protected folders, declared by ``suites.load``): not by name, not below it, not
through a symbolic link; for every writer of ``io.writing`` and for ``audit --out``
and ``screenshots``.  The lab's save, triage's export and synth have their tests
beside theirs (tests/lab, tests/cli, tests/tui).

Most tests write at a protected copy of the tree (``protected_copy``), so that a
refusal that fails writes there; those against the real tree (``bundled_tree``)
remove whatever a failing refusal wrote."""

from __future__ import annotations

import re

import pytest

from inspector.cli import main
from inspector.io import writing
from inspector.io.writing import (
    ProtectedTarget,
    WriteError,
    check_free,
    create_files,
    protected_roots,
    refuse_protected,
    write_files,
    write_new_directory,
)
from inspector.suites.load import bundled_root

from support import ARTICLE, FIXTURES, ROOT, one_line_error, tree

REFUSAL = "is inside the bundled fixtures"


def refused(call, *args, place: str, **kwargs) -> ProtectedTarget:  # noqa: ANN001
    with pytest.raises(ProtectedTarget) as caught:
        call(*args, **kwargs)
    assert str(caught.value).endswith(f"{REFUSAL} ({place}); write elsewhere"), str(caught.value)
    return caught.value


def test_the_bundled_fixtures_are_a_protected_root():
    assert bundled_root() == FIXTURES
    assert FIXTURES.resolve() in protected_roots()
    # The default screenshots folder and the checkout's root are not inside it.
    refuse_protected(ROOT / "screenshots" / "start.svg")
    refuse_protected(ROOT / "new.json")


class TestEveryWriter:
    """At a protected copy: by name, below, at the root itself, through links."""

    def test_write_files_by_name_and_below(self, protected_copy):
        before = tree(protected_copy)
        refused(write_files, protected_copy, {"new.json": b"{}"}, place="fixtures/new.json")
        for folder in ("payments", "payments/answers", "registries"):
            refused(write_files, protected_copy / folder, {"x.json": b"{}"}, place=f"fixtures/{folder}/x.json")
        # An existing bundled file, even with overwrite.
        refused(write_files, protected_copy, {"article.json": b"{}"}, overwrite=True, place="fixtures/article.json")
        assert tree(protected_copy) == before

    def test_create_files_refuses_all_when_one_is_inside(self, protected_copy, tmp_path):
        before = tree(protected_copy)
        outside = tmp_path / "app.jsonl"
        refused(create_files, {outside: b"x\n", protected_copy / "registries" / "g.json": b"{}"},
                place="fixtures/registries/g.json")
        assert not outside.exists()
        assert tree(protected_copy) == before

    def test_check_free_answers_before_the_work(self, protected_copy):
        refused(check_free, protected_copy / "payments", ["a.svg"], place="fixtures/payments/a.svg")
        refused(check_free, protected_copy, [], place="fixtures")

    def test_a_new_directory_inside_or_at_the_root(self, protected_copy):
        before = tree(protected_copy)
        refused(write_new_directory, protected_copy / "runs" / "x", {"results.json": b"{}"},
                place="fixtures/runs/x")
        empty = protected_copy / "empty"
        empty.mkdir()
        before["empty"] = "dir"
        refused(write_new_directory, empty, {"results.json": b"{}"}, place="fixtures/empty")
        assert tree(protected_copy) == before

    def test_through_a_symlinked_folder(self, protected_copy, tmp_path):
        before = tree(protected_copy)
        link = tmp_path / "mine"
        link.symlink_to(protected_copy / "payments")
        error = refused(write_files, link, {"new.json": b"{}"}, place="fixtures/payments/new.json")
        assert error.path == str(link / "new.json")  # the path as given, and where it leads
        deeper = tmp_path / "deeper"
        deeper.symlink_to(tmp_path / "mine")  # a link to a link
        refused(create_files, {deeper / "answers" / "x.json": b"{}"}, place="fixtures/payments/answers/x.json")
        # A link as the new directory itself (write_new_directory fills an empty linked one).
        (protected_copy / "empty").mkdir()
        before["empty"] = "dir"
        (tmp_path / "run").symlink_to(protected_copy / "empty")
        refused(write_new_directory, tmp_path / "run", {"results.json": b"{}"}, place="fixtures/empty")
        # .. through a link resolves where the link leads, as the file system does.
        refused(write_files, link / ".." / "registries", {"g.json": b"{}"}, place="fixtures/registries/g.json")
        assert tree(protected_copy) == before

    def test_a_sibling_with_a_like_name_is_not_protected(self, protected_copy, tmp_path):
        sibling = tmp_path / "fixtures-mine"
        sibling.mkdir()
        write_files(sibling, {"new.json": b"{}"})
        assert (sibling / "new.json").read_bytes() == b"{}"

    def test_the_refusal_is_a_write_error(self, protected_copy):
        with pytest.raises(WriteError):  # what every writer catches already
            write_files(protected_copy, {"new.json": b"{}"})

    def test_a_writer_that_skips_the_early_question_is_still_refused(self, protected_copy, monkeypatch):
        """The rule is in the placing too, whoever calls it."""
        before = tree(protected_copy)
        monkeypatch.setattr(writing, "check_free", lambda *args, **kwargs: None)
        refused(write_files, protected_copy, {"new.json": b"{}"}, place="fixtures/new.json")
        assert tree(protected_copy) == before


class TestTheRealTree:
    def test_every_writer_refuses_the_real_fixtures(self, bundled_tree, tmp_path):
        link = tmp_path / "link"
        link.symlink_to(bundled_tree / "payments" / "answers")
        with pytest.raises(ProtectedTarget, match="fixtures/new.json"):
            write_files(bundled_tree, {"new.json": b"{}"})
        with pytest.raises(ProtectedTarget, match="fixtures/payments/answers/new.json"):
            create_files({link / "new.json": b"{}"})
        with pytest.raises(ProtectedTarget, match="fixtures/registries/run"):
            write_new_directory(bundled_tree / "registries" / "run", {"results.json": b"{}"})

    def test_audit_out_into_the_fixtures(self, capsys, bundled_tree, tmp_path):
        link = tmp_path / "link"
        link.symlink_to(bundled_tree)
        for out in (bundled_tree / "run", link / "payments" / "run"):
            assert main(["audit", "--out", str(out), str(ARTICLE)]) == 2
            line = one_line_error(capsys.readouterr().err, str(out), REFUSAL, "write elsewhere")
            assert "fixtures/" in line

    def test_mutate_out_into_the_fixtures(self, capsys, bundled_tree, tmp_path):
        link = tmp_path / "link"
        link.symlink_to(bundled_tree / "payments")
        for out in (bundled_tree / "mutants.json", link / "mutants.json"):
            assert main(["mutate", "--format", "json", "--out", str(out), str(ARTICLE)]) == 2
            one_line_error(capsys.readouterr().err, REFUSAL, "write elsewhere")

    def test_screenshots_into_the_fixtures_before_rendering(self, capsys, bundled_tree, tmp_path, monkeypatch):
        from inspector.tui import scenes as scenes_module

        def no_rendering(*args):  # noqa: ANN002
            raise AssertionError("rendered although the answer was already known")

        monkeypatch.setattr(scenes_module, "_render", no_rendering)
        link = tmp_path / "shots"
        link.symlink_to(bundled_tree / "payments")
        for out in (bundled_tree, bundled_tree / "shots", link):
            assert main(["screenshots", "--overwrite", str(out)]) == 2
            one_line_error(capsys.readouterr().err, REFUSAL, "write elsewhere")


_WRITE_MODE = re.compile(r"""\bopen\([^()]*?['"]([wax][bt+]{0,2})['"]""")


def test_no_writer_writes_outside_io_writing():
    """Every file inspector's commands create goes through io.writing (so the rule
    holds); the synthetic generator's two helpers, which rewrite in place for the
    tests and benchmarks, ask it first."""
    package = ROOT / "inspector"
    writers = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "writing.py":
            continue
        text = path.read_text("utf-8")
        for needle in ("write_text(", "write_bytes(", "os.O_CREAT"):
            if needle in text:
                writers.append((str(path.relative_to(ROOT)), needle))
        # A file opened for writing, appending or creating ("w" alone is also a key's name).
        for mode in sorted(set(_WRITE_MODE.findall(text))):
            writers.append((str(path.relative_to(ROOT)), f'"{mode}"'))
    # A new writer here writes through io.writing, or asks refuse_protected first and is listed.
    # badlines.py: --bad-lines' spills, each a new file (O_EXCL) in a private
    # directory that mkdtemp made beside the --bad-lines file, whose folder was checked.
    # locking.py: the sidecar lock file, created empty (never written into) after refuse_protected.
    # (--records' row spills are badlines.py's spill files too.) formats/stage.py: a staged format's canonical
    # lines, each a new file (O_EXCL) in a private directory mkdtemp made in the system's temporary folder.
    assert sorted(writers) == [("inspector/io/locking.py", "os.O_CREAT"),
                               ("inspector/triage/badlines.py", "os.O_CREAT"),
                               ("inspector/triage/formats/stage.py", "os.O_CREAT"),
                               ("inspector/triage/synth.py", '"wb"'), ("inspector/triage/synth.py", "write_text(")]
    synth = (package / "triage" / "synth.py").read_text("utf-8")
    assert synth.count("refuse_protected(path)") == 2
    assert "refuse_protected(sidecar)" in (package / "io" / "locking.py").read_text("utf-8")
