"""Audit runs on disk (inspector.suites.manifest, ``audit --out`` and ``--verify``):
what a run holds, and that verifying one trusts nothing in it.  Crafted
manifests and results are either a clear one-line error (exit 2) or a list of
differences (exit 1); never a traceback, never a file read outside the run
directory, and a run verifies only if its results are exactly what its inputs
give today."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector import __version__
from inspector.cli import main
from inspector.reports.audit import audit
from inspector.suites.load import load_suites
from inspector.suites.manifest import RunError, verify_run

from support import ARTICLE, decoded, one_line_error, run_bounded, run_main


def copy_suite(tmp_path: Path, source: Path = ARTICLE, name: str | None = None) -> Path:
    target = tmp_path / (name or source.name)
    shutil.copyfile(source, target)
    return target


def make_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out_dir = tmp_path / "run"
    assert main(["audit", "--out", str(out_dir), str(copy_suite(tmp_path))]) == 0
    capsys.readouterr()
    return out_dir


def read_json(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", "utf-8")


def tamper_results(out_dir: Path, change) -> None:  # noqa: ANN001 - a function of the document
    """Change results.json and update the manifest's hash and size to match."""
    results = out_dir / "results.json"
    document = read_json(results)
    change(document)
    write_json(results, document)
    manifest = read_json(out_dir / "manifest.json")
    manifest["outputs"][0]["sha256"] = hashlib.sha256(results.read_bytes()).hexdigest()
    manifest["outputs"][0]["bytes"] = results.stat().st_size
    write_json(out_dir / "manifest.json", manifest)


def verify(capsys: pytest.CaptureFixture[str], out_dir: Path) -> tuple[int, str, str]:
    status = main(["audit", "--verify", str(out_dir)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


class TestAuditRuns:
    def test_out_writes_results_and_manifest(self, capsys, tmp_path):
        suite = copy_suite(tmp_path)
        out_dir = tmp_path / "run"
        assert main(["audit", "--format", "json", "--out", str(out_dir), str(suite)]) == 0
        printed = json.loads(capsys.readouterr().out)
        assert sorted(p.name for p in out_dir.iterdir()) == ["manifest.json", "results.json"]
        results = json.loads((out_dir / "results.json").read_text("utf-8"))
        assert results == printed
        manifest = json.loads((out_dir / "manifest.json").read_text("utf-8"))
        (item,) = manifest["inputs"]
        assert item["sha256"] == hashlib.sha256(suite.read_bytes()).hexdigest()
        assert item["bytes"] == suite.stat().st_size
        (output,) = manifest["outputs"]
        assert output["sha256"] == hashlib.sha256((out_dir / "results.json").read_bytes()).hexdigest()
        assert {"inspector", "python", "msgspec"} <= set(manifest["versions"])

    def test_out_into_an_existing_empty_directory(self, capsys, tmp_path):
        out_dir = tmp_path / "empty"
        out_dir.mkdir()
        assert main(["audit", "--out", str(out_dir), str(copy_suite(tmp_path))]) == 0
        assert "wrote" in capsys.readouterr().out

    def test_out_refuses_a_non_empty_directory(self, capsys, tmp_path):
        out_dir = tmp_path / "used"
        out_dir.mkdir()
        (out_dir / "keep.txt").write_text("mine", "utf-8")
        assert main(["audit", "--out", str(out_dir), str(copy_suite(tmp_path))]) == 2
        one_line_error(capsys.readouterr().err, str(out_dir))
        assert [p.name for p in out_dir.iterdir()] == ["keep.txt"]
        assert (out_dir / "keep.txt").read_text("utf-8") == "mine"

    def test_out_refuses_a_previous_run(self, capsys, tmp_path):
        suite, out_dir = copy_suite(tmp_path), tmp_path / "run"
        assert main(["audit", "--out", str(out_dir), str(suite)]) == 0
        before = {p.name: p.read_bytes() for p in out_dir.iterdir()}
        capsys.readouterr()
        assert main(["audit", "--out", str(out_dir), str(suite)]) == 2
        assert {p.name: p.read_bytes() for p in out_dir.iterdir()} == before

    def test_out_refuses_a_file(self, capsys, tmp_path):
        target = tmp_path / "file"
        target.write_text("x", "utf-8")
        assert main(["audit", "--out", str(target), str(copy_suite(tmp_path))]) == 2
        one_line_error(capsys.readouterr().err, str(target))

    def test_verify_unchanged_run(self, capsys, tmp_path):
        out_dir = tmp_path / "run"
        main(["audit", "--out", str(out_dir), str(copy_suite(tmp_path))])
        capsys.readouterr()
        assert main(["audit", "--verify", str(out_dir)]) == 0
        assert "verified" in capsys.readouterr().out

    def test_verify_detects_tampered_results(self, capsys, tmp_path):
        out_dir = tmp_path / "run"
        main(["audit", "--out", str(out_dir), str(copy_suite(tmp_path))])
        results = out_dir / "results.json"
        results.write_text(results.read_text("utf-8").replace('"accepted": 3', '"accepted": 4'), "utf-8")
        capsys.readouterr()
        assert main(["audit", "--verify", str(out_dir)]) == 1
        assert "results.json" in capsys.readouterr().out

    def test_verify_recomputes_when_results_and_manifest_agree(self, capsys, tmp_path):
        # Tampering that also fixes the manifest's hash is caught by recomputing.
        out_dir = tmp_path / "run"
        main(["audit", "--out", str(out_dir), str(copy_suite(tmp_path))])
        results, manifest_path = out_dir / "results.json", out_dir / "manifest.json"
        document = json.loads(results.read_text("utf-8"))
        document["cases"][0]["actual"] = "VALUE_MISMATCH"
        results.write_text(json.dumps(document, indent=2) + "\n", "utf-8")
        manifest = json.loads(manifest_path.read_text("utf-8"))
        manifest["outputs"][0]["sha256"] = hashlib.sha256(results.read_bytes()).hexdigest()
        manifest_path.write_text(json.dumps(manifest, indent=2), "utf-8")
        capsys.readouterr()
        assert main(["audit", "--verify", str(out_dir)]) == 1
        out = capsys.readouterr().out
        assert "actual" in out and document["cases"][0]["id"] in out

    def test_verify_detects_a_changed_input(self, capsys, tmp_path):
        suite, out_dir = copy_suite(tmp_path), tmp_path / "run"
        main(["audit", "--out", str(out_dir), str(suite)])
        suite.write_bytes(suite.read_bytes().replace(b'"expected": "ACCEPT"', b'"expected": "INCOMPLETE"', 1))
        capsys.readouterr()
        assert main(["audit", "--verify", str(out_dir)]) == 1
        assert str(suite) in capsys.readouterr().out

    def test_verify_detects_a_missing_input(self, capsys, tmp_path):
        suite, out_dir = copy_suite(tmp_path), tmp_path / "run"
        main(["audit", "--out", str(out_dir), str(suite)])
        suite.unlink()
        capsys.readouterr()
        assert main(["audit", "--verify", str(out_dir)]) == 1
        assert "missing" in capsys.readouterr().out

    def test_verify_of_a_directory_that_is_no_run(self, capsys, tmp_path):
        assert main(["audit", "--verify", str(tmp_path)]) == 2
        one_line_error(capsys.readouterr().err, "manifest.json")

    def test_verify_takes_no_suites(self, capsys, tmp_path):
        assert main(["audit", "--verify", str(tmp_path), str(ARTICLE)]) == 2
        one_line_error(capsys.readouterr().err)

    def test_verify_from_another_directory(self, tmp_path, capsys):
        work = tmp_path / "work"
        work.mkdir()
        copy_suite(work)
        status, _, err = run_main(capsys, "audit", "--out", "run", "article.json", cwd=work)
        assert status == 0, err
        status, out, _ = run_main(capsys, "audit", "--verify", work / "run", cwd=tmp_path)
        assert status == 0, out



class TestOutputsStayInTheRun:
    """An output named by the manifest is a plain file of the run directory."""

    @pytest.mark.parametrize("name", ["../../../../etc/passwd", "/etc/shadow", "/dev/zero", "sub/results.json",
                                      "..", "", "manifest.json"])
    def test_paths_outside_are_refused(self, capsys, tmp_path, name):
        out_dir = make_run(tmp_path, capsys)
        manifest = read_json(out_dir / "manifest.json")
        manifest["outputs"].append({"path": name, "sha256": "0" * 64, "bytes": 0})
        write_json(out_dir / "manifest.json", manifest)
        status, out, err = verify(capsys, out_dir)
        assert status == 2
        one_line_error(err, "manifest.json", "outputs[1].path", "is not a file of the run directory")
        assert out == ""  # nothing was hashed, so no sha256 of anything printed

    def test_dev_zero_does_not_hang(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        manifest = read_json(out_dir / "manifest.json")
        manifest["outputs"][0]["path"] = "/dev/zero"
        write_json(out_dir / "manifest.json", manifest)
        proc = run_bounded("audit", "--verify", out_dir)
        assert proc.returncode == 2
        one_line_error(decoded(proc)[1], "outputs[0].path")

    def test_results_must_be_listed(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        manifest = read_json(out_dir / "manifest.json")
        manifest["outputs"] = []
        write_json(out_dir / "manifest.json", manifest)
        status, _, err = verify(capsys, out_dir)
        assert status == 2
        one_line_error(err, "outputs: does not list results.json")

    def test_results_that_link_elsewhere_are_refused(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        elsewhere = tmp_path / "elsewhere.json"
        (out_dir / "results.json").rename(elsewhere)
        (out_dir / "results.json").symlink_to(elsewhere)
        status, _, err = verify(capsys, out_dir)
        assert status == 2
        one_line_error(err, "results.json", "symbolic link")

    def test_a_device_as_an_input_is_a_difference(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        manifest = read_json(out_dir / "manifest.json")
        manifest["inputs"][0].update(path="/dev/zero", resolved="/dev/zero")
        write_json(out_dir / "manifest.json", manifest)
        proc = run_bounded("audit", "--verify", out_dir)
        out, err = decoded(proc)
        assert proc.returncode == 1, err
        assert "/dev/zero: is a character device, not a regular file" in out


# (what, change, the error after "FILE: ").
MALFORMED_MANIFESTS = [
    ("outputs a number", lambda m: m.update(outputs=5), "outputs: Expected `array`, got `int`"),
    ("outputs numbers", lambda m: m.update(outputs=[1, 2]), "outputs[0]: Expected `object`, got `int`"),
    ("outputs an object", lambda m: m.update(outputs={}), "outputs: Expected `array`, got `object`"),
    ("input without path", lambda m: m["inputs"][0].pop("path"),
     "inputs[0]: Object missing required field `path`"),
    ("inputs an object", lambda m: m.update(inputs={}), "inputs: Expected `array`, got `object`"),
    ("versions a list", lambda m: m.update(versions=[]), "versions: Expected `object`, got `array`"),
    ("unknown key", lambda m: m.update(extra=1), "Object contains unknown field `extra`"),
    ("another schema", lambda m: m.update(schema="x/1"), "schema: not an inspector.manifest/1 manifest"),
    ("sha256 a number", lambda m: m["outputs"][0].update(sha256=1),
     "outputs[0].sha256: Expected `str`, got `int`"),
]
MALFORMED_RESULTS = [
    ("a list", lambda r: [], "Expected `object`, got `array`"),
    ("cases an object", lambda r: {**r, "cases": {}}, "cases: Expected `array`, got `object`"),
    ("a case a number", lambda r: {**r, "cases": [1]}, "cases[0]: Expected `object`, got `int`"),
    ("summary a list", lambda r: {**r, "summary": []}, "summary: Expected `object`, got `array`"),
    ("no summary", lambda r: {k: v for k, v in r.items() if k != "summary"},
     "Object missing required field `summary`"),
    ("an unknown key", lambda r: {**r, "extra": True}, "Object contains unknown field `extra`"),
]


class TestMalformedRuns:
    @pytest.mark.parametrize(("what", "change", "place"), MALFORMED_MANIFESTS, ids=[m[0] for m in MALFORMED_MANIFESTS])
    def test_manifest(self, capsys, tmp_path, what, change, place):
        out_dir = make_run(tmp_path, capsys)
        manifest = read_json(out_dir / "manifest.json")
        change(manifest)
        write_json(out_dir / "manifest.json", manifest)
        status, _, err = verify(capsys, out_dir)
        assert status == 2
        one_line_error(err, f"{out_dir / 'manifest.json'}: {place}")

    @pytest.mark.parametrize(("what", "change", "place"), MALFORMED_RESULTS, ids=[m[0] for m in MALFORMED_RESULTS])
    def test_results(self, capsys, tmp_path, what, change, place):
        out_dir = make_run(tmp_path, capsys)
        results = out_dir / "results.json"
        write_json(results, change(read_json(results)))
        status, _, err = verify(capsys, out_dir)
        assert status == 2
        one_line_error(err, f"{results}: {place}")

    @pytest.mark.parametrize("name", ["manifest.json", "results.json"])
    def test_a_directory_instead_of_a_file(self, capsys, tmp_path, name):
        out_dir = make_run(tmp_path, capsys)
        (out_dir / name).unlink()
        (out_dir / name).mkdir()
        status, _, err = verify(capsys, out_dir)
        assert status == 2
        one_line_error(err, name, "is a directory")

    @pytest.mark.parametrize("content", [b"", b"{", b"\xff\xfe", b"[" * 100_000, b'{"schema": 1e400}'])
    def test_not_json(self, capsys, tmp_path, content):
        out_dir = make_run(tmp_path, capsys)
        (out_dir / "manifest.json").write_bytes(content)
        status, _, err = verify(capsys, out_dir)
        assert status == 2
        one_line_error(err, "manifest.json")


class TestTamperedResults:
    """Results changed and the manifest's hash updated to match: recomputing
    compares the whole document, so every change is a difference."""

    def test_a_second_entry_for_a_case_in_front(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        def change(document):  # noqa: ANN001, ANN202
            forged = {**document["cases"][0], "actual": "VALUE_MISMATCH"}
            document["cases"].insert(0, forged)
        tamper_results(out_dir, change)
        status, out, _ = verify(capsys, out_dir)
        assert status == 1
        case = read_json(out_dir / "results.json")["cases"][0]
        assert f"{case['suite']}/{case['id']}: 2 entries in the stored results" in out
        assert "actual was \"VALUE_MISMATCH\", now \"ACCEPT\"" in out

    def test_another_inspector_version(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        tamper_results(out_dir, lambda document: document.update(inspector_version="9.9.9"))
        status, out, _ = verify(capsys, out_dir)
        assert status == 1
        assert f"results.json: recorded by inspector \"9.9.9\", this is inspector {__version__}" in out

    def test_the_manifest_from_another_inspector(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        manifest = read_json(out_dir / "manifest.json")
        manifest["versions"]["inspector"] = "0.0.1"
        write_json(out_dir / "manifest.json", manifest)
        status, out, _ = verify(capsys, out_dir)
        assert status == 1
        assert f"the run was made by inspector 0.0.1, this is inspector {__version__}" in out

    def test_another_python_is_a_note(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        manifest = read_json(out_dir / "manifest.json")
        manifest["versions"]["python"] = "2.7.18"
        write_json(out_dir / "manifest.json", manifest)
        status, out, _ = verify(capsys, out_dir)
        assert status == 0
        assert "note: python was 2.7.18" in out

    def test_an_unknown_key_in_a_case(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        tamper_results(out_dir, lambda document: document["cases"][1].update(reviewed=True))
        status, out, _ = verify(capsys, out_dir)
        assert status == 1
        assert 'unknown key "reviewed" in the stored results' in out

    def test_a_missing_key_and_a_missing_case(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        def change(document):  # noqa: ANN001, ANN202
            del document["cases"][0]["policy"]
            del document["cases"][-1]
        tamper_results(out_dir, change)
        status, out, _ = verify(capsys, out_dir)
        assert status == 1
        assert "policy missing from the stored results" in out
        assert "in the inputs, not in the stored results" in out

    def test_a_number_of_another_type(self, capsys, tmp_path):
        # true == 1 in Python; not in JSON.
        out_dir = make_run(tmp_path, capsys)
        tamper_results(out_dir, lambda document: document["cases"][0].update(match=1))
        status, out, _ = verify(capsys, out_dir)
        assert status == 1
        assert "match was 1, now true" in out

    def test_cases_reordered(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        tamper_results(out_dir, lambda document: document["cases"].reverse())
        status, out, _ = verify(capsys, out_dir)
        assert status == 1
        assert "another order" in out

    def test_reformatted(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        results = out_dir / "results.json"
        results.write_text(json.dumps(read_json(results), indent=4), "utf-8")
        manifest = read_json(out_dir / "manifest.json")
        manifest["outputs"][0].update(sha256=hashlib.sha256(results.read_bytes()).hexdigest(),
                                      bytes=results.stat().st_size)
        write_json(out_dir / "manifest.json", manifest)
        status, out, _ = verify(capsys, out_dir)
        assert status == 1
        assert "not byte for byte the recomputed results" in out

    def test_summary_changed(self, capsys, tmp_path):
        out_dir = make_run(tmp_path, capsys)
        tamper_results(out_dir, lambda document: document["summary"].update(accepted=22, bonus=[1]))
        status, out, _ = verify(capsys, out_dir)
        assert status == 1
        assert "summary: accepted was 22, now 3" in out
        assert 'summary: unknown key "bonus"' in out


def _recompute(paths: list[Path]) -> dict[str, Any]:
    return audit(load_suites(paths)).to_dict(__version__)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8,
)


@st.composite
def mutated(draw, document: dict[str, Any]) -> bytes:  # noqa: ANN001 - hypothesis' draw
    """``document`` with one value somewhere in it replaced, removed or added to, as bytes."""
    value: Any = json.loads(json.dumps(document))
    node = value
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2, 3]))):  # mostly near the top
        if isinstance(node, dict) and node:
            child = node[draw(st.sampled_from(sorted(node)))]
        elif isinstance(node, list) and node:
            child = node[draw(st.integers(0, len(node) - 1))]
        else:
            break
        if not isinstance(child, (dict, list)):
            break
        node = child
    action = draw(st.sampled_from(["replace", "remove", "add"]))
    if isinstance(node, dict) and node:
        key = draw(st.sampled_from(sorted(node)))
        if action == "replace":
            node[key] = draw(JSON_VALUES)
        elif action == "remove":
            del node[key]
        else:
            node[draw(st.text(max_size=8))] = draw(JSON_VALUES)
    elif isinstance(node, list):
        if action == "remove" and node:
            node.pop(draw(st.integers(0, len(node) - 1)))
        else:
            node.insert(draw(st.integers(0, len(node))), draw(JSON_VALUES))
    return json.dumps(value).encode("utf-8")


class TestAnyRunFileIsAClearError:
    """No manifest or results content, in any bytes, makes verifying raise
    anything but a RunError (an exit 2 line) or give differences."""

    @pytest.fixture(scope="class")
    def run(self, tmp_path_factory) -> Path:  # noqa: ANN001
        base = tmp_path_factory.mktemp("property")
        out_dir = base / "run"
        assert main(["audit", "--out", str(out_dir), str(copy_suite(base))]) == 0
        return out_dir

    def _check(self, run: Path, name: str, content: bytes, tmp_path_factory, pin: bool = False) -> None:  # noqa: ANN001
        work = tmp_path_factory.mktemp("case") / "run"
        shutil.copytree(run, work)
        (work / name).write_bytes(content)
        if pin:  # as a forger would: the manifest's hash made to match
            manifest = read_json(work / "manifest.json")
            manifest["outputs"][0].update(sha256=hashlib.sha256(content).hexdigest(), bytes=len(content))
            write_json(work / "manifest.json", manifest)
        try:
            differences, notes = verify_run(work, _recompute, __version__)
        except RunError as error:
            message = str(error)
            assert message and "\n" not in message and str(work) in message
        else:
            assert all(isinstance(line, str) and "\n" not in line for line in differences + notes)
        # And the command says it in one line, or lists differences, with its exit status.
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = main(["audit", "--verify", str(work)])
        assert status in (0, 1, 2)
        if status == 2:
            one_line_error(err.getvalue(), str(work))
        else:
            assert err.getvalue() == "" and out.getvalue().splitlines()[-1].startswith(str(work))

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=st.data())
    def test_any_manifest(self, run, tmp_path_factory, data):
        document = read_json(run / "manifest.json")
        content = data.draw(st.one_of(st.binary(max_size=200), mutated(document)))
        self._check(run, "manifest.json", content, tmp_path_factory)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=st.data())
    def test_any_results(self, run, tmp_path_factory, data):
        document = read_json(run / "results.json")
        content = data.draw(st.one_of(st.binary(max_size=200), mutated(document)))
        self._check(run, "results.json", content, tmp_path_factory, pin=data.draw(st.booleans()))
