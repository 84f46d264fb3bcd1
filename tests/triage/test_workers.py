"""The counting workers (issue 17, items 5 and 14): bounded by the cores and
the work, absurd numbers refused, a refused fork counted in this process
instead of a hang, and a worker that dies (out of memory) said as such.

What could hang or kill runs in a child Python with a timeout: a fork refused
midway once left forked workers that the interpreter waited for at exit."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from inspector.triage import run as run_module
from inspector.triage.run import MAX_WORKERS, WorkerError, cores, plan_workers
from inspector.triage.synth import write_log, write_registry

from support import ROOT, one_line_error


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("workers")
    registry = write_registry(folder / "registry.json")
    write_log(folder / "app.jsonl", 400, seed=3)
    return folder, registry


def child(*parts: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``parts`` in a fresh Python at the checkout's root (within ``timeout`` seconds, or the test fails)."""
    script = "import sys\n" + "".join(textwrap.dedent(part) for part in parts)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout, check=False)


class TestHowMany:
    def test_at_most_the_cores(self):
        assert plan_workers(MAX_WORKERS, ["stream"], [None]) == cores()
        assert plan_workers(None, ["stream"], [None]) == cores()

    def test_at_most_the_tasks_of_plain_logs(self):
        assert plan_workers(MAX_WORKERS, ["plain"], [100], task_bytes=1000) == 1
        assert plan_workers(MAX_WORKERS, ["plain", "plain"], [5000, 0], task_bytes=1000) == min(6, cores())

    @pytest.mark.parametrize("asked", [0, -3, MAX_WORKERS + 1, 100_000])
    def test_absurd_numbers_are_refused(self, asked):
        with pytest.raises(ValueError, match=f"between 1 and {MAX_WORKERS}"):
            plan_workers(asked, ["plain"], [10])

    def test_the_most_asked_forks_no_more_than_the_cores(self, made, monkeypatch):
        folder, registry = made
        from inspector.suites.load import load_registry

        started = []
        real = run_module.ProcessPoolExecutor

        def counting(max_workers, **kwargs):
            started.append(max_workers)
            return real(max_workers=max_workers, **kwargs)

        monkeypatch.setattr(run_module, "ProcessPoolExecutor", counting)
        monkeypatch.setattr(run_module, "cores", lambda: 2)
        tally = run_module.triage([str(folder / "app.jsonl")], load_registry(registry), workers=MAX_WORKERS,
                                  parallel_min_bytes=0, task_bytes=10_000)
        assert started == [2] and tally.lines == 400


class TestCommandLine:
    @pytest.mark.parametrize("asked", ["0", "-1", "65", "100000"])
    def test_absurd_workers_exit_2_at_once(self, made, asked):
        from support import decoded, run_cli

        folder, registry = made
        proc = run_cli("triage", folder / "app.jsonl", "--registry", registry, "--summary", "--workers", asked,
                       timeout=30)
        assert proc.returncode == 2
        assert f"between 1 and {MAX_WORKERS}" in one_line_error(decoded(proc)[1])


class TestARefusedFork:
    def test_counts_in_this_process_and_says_so(self, made):
        folder, registry = made
        proc = child(f"""
            import errno, json, os
            from inspector.suites.load import load_registry
            from inspector.triage import run
            real, calls = os.fork, []

            def fork():
                calls.append(1)
                if len(calls) > 1:  # the first worker starts, the second is refused
                    raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
                return real()

            os.fork = fork
            run.cores = lambda: 4
            notices = []
            tally = run.triage([{str(folder / "app.jsonl")!r}], load_registry({str(registry)!r}), workers=4,
                               parallel_min_bytes=0, task_bytes=5_000, on_notice=notices.append)
            os.fork = real
            import multiprocessing
            print(json.dumps({{"lines": tally.lines, "records": tally.records, "notices": notices,
                               "children": len(multiprocessing.active_children())}}))
        """)
        assert proc.returncode == 0, proc.stderr
        found = json.loads(proc.stdout)
        assert found["lines"] == 400 and found["records"] > 0 and found["children"] == 0
        assert found["notices"] == [("could not start 4 counting processes (Resource temporarily unavailable); "
                                     "counting in this process")]


    def test_the_command_counts_all_the_same_with_a_note(self, made):
        folder, registry = made
        proc = child("""
            import errno, os
            from inspector.triage import run

            def fork():
                raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

            os.fork = fork
            run.cores = lambda: 2
            run.PARALLEL_MIN_BYTES, run.TASK_BYTES = 0, 10_000
        """, f"""
            from inspector.cli import main
            sys.exit(main(["triage", {str(folder / "app.jsonl")!r}, "--registry", {str(registry)!r},
                           "--format", "json"]))
        """)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["lines"] == 400
        assert proc.stderr.strip() == ("inspector: note: could not start 2 counting processes "
                                       "(Resource temporarily unavailable); counting in this process")


DYING = """
    import os, signal
    from inspector.triage import run
    real = run._work

    def dying(task):
        if task[0] == "range" and task[3] > 0:  # the second range: killed as the OOM killer would
            os.kill(os.getpid(), signal.SIGKILL)
        return real(task)

    run._work = dying
    run.cores = lambda: 2
"""


class TestAWorkerThatDies:
    def test_the_engine_says_how(self, made):
        folder, registry = made
        proc = child(DYING, f"""
            from inspector.suites.load import load_registry
            try:
                run.triage([{str(folder / "app.jsonl")!r}], load_registry({str(registry)!r}), workers=2,
                           parallel_min_bytes=0, task_bytes=10_000)
            except run.WorkerError as exc:
                print(exc)
        """)
        assert proc.returncode == 0, proc.stderr
        assert "app.jsonl: a counting worker died (killed by SIGKILL (signal 9): probably out of memory)" \
            in proc.stdout

    def test_the_command_reports_the_death(self, made, tmp_path):
        folder, registry = made
        proc = child(DYING, f"""
            run.PARALLEL_MIN_BYTES, run.TASK_BYTES = 0, 10_000
            from inspector.cli import main
            sys.exit(main(["triage", {str(folder / "app.jsonl")!r}, "--registry", {str(registry)!r}, "--summary"]))
        """)
        assert proc.returncode == 3, proc.stderr
        line = one_line_error(proc.stderr, "app.jsonl")
        assert "a counting worker died (killed by SIGKILL (signal 9): probably out of memory)" in line
        assert "internal error" not in line and "--workers 1" in line


def test_worker_error_is_a_log_error():
    # The overview shows a LogError as the triage's failure: a dead worker is one.
    from inspector.triage.logs import LogError

    assert issubclass(WorkerError, LogError)
