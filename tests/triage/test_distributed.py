"""The dask engine (issue 21): the local engine's counts on a Dask cluster.

One LocalCluster (two worker processes, a thread each) and one local S3
endpoint (moto's server on 127.0.0.1) serve the whole module, whose tests run
in one xdist group so that they share them.  The endpoint is in the standard
AWS environment (``AWS_ENDPOINT_URL``, credentials) before the cluster starts,
so its workers find it as a user's workers would.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from inspector.contract import version
from inspector.suites.load import load_registry
from inspector.triage import Options, distributed, run as run_module
from inspector.triage.distributed import ContractMismatch, DaskEngine, EngineError, count_task, expand_sources, plan
from inspector.triage.summary import summarize
from inspector.triage.synth import write_log, write_registry

from support import ROOT, one_line_error, run_main
from support.waiting import wait_until

pytestmark = pytest.mark.xdist_group("dask")

BUCKET = "answers"
AWS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1"}


@pytest.fixture(scope="module")
def s3():
    """A local S3 endpoint holding a bucket of twenty logs (every third gzipped),
    in the AWS environment; the same logs written locally beside (``local``)."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    saved = {name: os.environ.get(name) for name in [*AWS, "AWS_ENDPOINT_URL"]}
    os.environ.update(AWS, AWS_ENDPOINT_URL=f"http://{host}:{port}")
    try:
        yield f"http://{host}:{port}"
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        server.stop()


@pytest.fixture(scope="module")
def cluster(s3):
    """A LocalCluster of two worker processes, a thread each, no dashboard; closed at the end."""
    import cloudpickle
    from distributed import Client, LocalCluster

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the functions run on the workers
    local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
                         silence_logs=logging.ERROR)
    client = Client(local, set_as_default=False)
    try:
        yield client
    finally:
        client.close()
        local.close()
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dask")
    registry = write_registry(folder / "registry.json")
    write_log(folder / "app.jsonl", 3000, seed=1)
    write_log(folder / "old.jsonl.gz", 800, seed=2)
    write_log(folder / "more.jsonl", 500, seed=3)
    data = (folder / "old.jsonl.gz").read_bytes()
    (folder / "broken.jsonl.gz").write_bytes(data[:len(data) * 2 // 3])  # a truncated .gz
    return folder, registry


def local_and_dask(runs, registry, client, **engine):
    """The tallies of both engines, summarised (the JSON the command prints)."""
    local = run_module.triage_runs(runs, registry, workers=1)
    dask = run_module.triage_runs(runs, registry, engine=DaskEngine(client=client, **engine))
    return ([summarize(tally, options, logs, "registry.json").to_dict() for tally, (logs, options) in zip(local, runs)],
            [summarize(tally, options, logs, "registry.json").to_dict() for tally, (logs, options) in zip(dask, runs)])


def tasks_of(client):
    """This module's tasks the scheduler still holds."""
    return client.run_on_scheduler(lambda dask_scheduler: sorted(
        str(key) for key in dask_scheduler.tasks if str(key).startswith("inspector-triage-")))


class TestSameCounts:
    def test_the_json_of_both_engines_is_equal(self, made, cluster):
        # Bad lines, a .gz, several files, --by, ranges of 64 KiB: many tasks merged in order.
        folder, registry = made
        logs = [str(folder / name) for name in ("app.jsonl", "old.jsonl.gz", "more.jsonl")]
        runs = [(logs, Options(by=("model", "prompt_version")))]
        local, dask = local_and_dask(runs, load_registry(registry), cluster, task_bytes=64 * 1024)
        assert dask == local
        assert local[0]["bad_lines"] > 0 and len(plan(logs, [os.path.getsize(p) for p in logs],
                                                                64 * 1024)) > 10

    def test_a_window_an_export_and_against(self, made, cluster):
        folder, registry = made
        options = Options(by=("model",), since=1796119200 + 3600, until=1796119200 + 20 * 3600, collect="ACCEPT",
                          limit=50)
        runs = [([str(folder / "app.jsonl")], options), ([str(folder / "more.jsonl")], Options(by=("model",)))]
        local, dask = local_and_dask(runs, load_registry(registry), cluster, task_bytes=100_000)
        assert dask == local

    def test_the_collected_records_are_the_same(self, made, cluster):
        folder, registry = made
        runs = [([str(folder / "app.jsonl")], Options(collect="VALUE_MISMATCH", limit=40, index=True))]
        local = run_module.triage_runs(runs, load_registry(registry), workers=1)[0]
        dask = run_module.triage_runs(runs, load_registry(registry), engine=DaskEngine(client=cluster,
                                                                                     task_bytes=50_000))[0]
        assert dask.collected == local.collected and len(dask.collected) == 40
        assert dask.index == local.index and dask.bad == local.bad

    def test_a_gzip_named_plain_and_a_plain_file_named_gz(self, made, cluster, tmp_path):
        # The plan goes by the name, the worker by the magic bytes: either way the same counts.
        folder, registry = made
        (tmp_path / "zipped.jsonl").write_bytes((folder / "old.jsonl.gz").read_bytes())
        (tmp_path / "plain.jsonl.gz").write_bytes((folder / "more.jsonl").read_bytes())
        logs = [str(tmp_path / "zipped.jsonl"), str(tmp_path / "plain.jsonl.gz")]
        local, dask = local_and_dask([(logs, Options())], load_registry(registry), cluster, task_bytes=8 * 1024)
        assert dask == local and local[0]["lines"] == 1300

    def test_progress_from_task_completions(self, made, cluster):
        folder, registry = made
        seen = []
        tally = run_module.triage([str(folder / "app.jsonl")], load_registry(registry), on_progress=seen.append,
                                  engine=DaskEngine(client=cluster, task_bytes=64 * 1024, progress_every=0))
        assert seen[-1].tasks_done == seen[-1].tasks > 10 and seen[-1].lines == tally.lines == 3000
        assert all(state.tasks_done <= state.tasks for state in seen)


def _slowed(seconds):
    """On a worker: each task a while longer (0: as it was), so that a test acts while tasks remain."""
    real = getattr(distributed, "_unslowed", distributed.tally_chunks)
    distributed._unslowed = real

    def slow(*args, **kwargs):
        time.sleep(seconds)
        return real(*args, **kwargs)

    distributed.tally_chunks = slow if seconds else real


@pytest.fixture
def slow_tasks(cluster):
    """Every task 20 ms longer on the workers while the test runs."""
    cluster.run(_slowed, 0.02)
    try:
        yield
    finally:
        cluster.run(_slowed, 0)


class TestFaults:
    def test_a_worker_killed_mid_count_costs_a_retry_not_a_count(self, made, cluster, slow_tasks):
        folder, registry = made
        logs = [str(folder / "app.jsonl"), str(folder / "more.jsonl")]
        runs = [(logs, Options(by=("model",)))]
        pids = cluster.run(os.getpid)
        victim = sorted(pids.values())[0]
        killed = []

        def kill(state):
            if not killed and state.tasks_done >= 2:
                killed.append(state.tasks - state.tasks_done)  # tasks still to do
                os.kill(victim, signal.SIGKILL)

        local = run_module.triage_runs(runs, load_registry(registry), workers=1)[0]
        started = time.monotonic()
        dask = run_module.triage_runs(runs, load_registry(registry), on_progress=kill,
                                      engine=DaskEngine(client=cluster, task_bytes=32 * 1024, progress_every=0))[0]
        assert killed and killed[0] > 0, "the worker was killed before the count ended"
        assert summarize(dask, runs[0][1], logs).to_dict() == summarize(local, runs[0][1], logs).to_dict()
        assert time.monotonic() - started < 30
        cluster.wait_for_workers(2, timeout=30)  # the nanny started another: the next tests have two
        assert victim not in cluster.run(os.getpid).values()

    def test_a_result_lost_with_its_worker_is_waited_for_again(self, monkeypatch):
        """A task done on a worker killed before its result was gathered: dask tells the client its
        data is "lost" (the future no longer done) and computes it again.  Seen between the wait and
        the status check, that is a task still to come, not a failure (the test above once failed
        under load: "a task of ... was cancelled on the cluster")."""
        import distributed as dask_distributed
        from types import SimpleNamespace

        class Future:
            def __init__(self, key: str, status: str) -> None:
                self.key, self.status = key, status

        first, second = Future("a", "finished"), Future("b", "lost")
        # Both done at the wait, the second's worker killed before its status is read; then computed again.
        rounds = iter([({first, second}, "lost"), ({second}, "finished")])

        def wait(futures, timeout, return_when):
            done, second.status = next(rounds)
            return SimpleNamespace(done=done)

        monkeypatch.setattr(dask_distributed, "wait", wait)
        client = SimpleNamespace(gather=lambda futures: [(SimpleNamespace(lines=1), None) for _ in futures])
        tasks = [("file", "app.jsonl", 0, 0, 10), ("file", "app.jsonl", 0, 10, 20)]
        futures = {"a": (0, first), "b": (1, second)}
        taken: list[int] = []
        counted = {"lines": 0, "bytes": 0, "tasks": 0}
        distributed._collect(client, tasks, futures, lambda task, tally, spilled: taken.append(task[3]), counted,
                             lambda now: None, 0, None, lambda: False)
        assert taken == [0, 10] and counted == {"lines": 2, "bytes": 20, "tasks": 2}

    def test_a_log_gone_since_it_was_listed_is_reported_and_the_rest_counted(self, made, cluster, monkeypatch):
        folder, registry = made
        real = distributed._size
        monkeypatch.setattr(distributed, "_size",
                            lambda name, options, timeout: 1000 if name.endswith("gone.jsonl") else
                            real(name, options, timeout))
        logs = [str(folder / "more.jsonl"), str(folder / "gone.jsonl"), str(folder / "broken.jsonl.gz")]
        tally = run_module.triage(logs, load_registry(registry), engine=DaskEngine(client=cluster))
        alone = run_module.triage([str(folder / "more.jsonl"), str(folder / "broken.jsonl.gz")],
                                  load_registry(registry), workers=1)
        assert tally.lines == alone.lines and tally.cells == alone.cells
        assert [(file, line) for file, line, _ in tally.broken] == [(logs[1], 0), (logs[2], alone.broken[0][1])]
        assert "cannot be read: no such file" in tally.broken[0][2]
        assert tally.broken[1][2] == alone.broken[0][2]

    def test_a_log_the_worker_may_not_read(self, made, monkeypatch):
        # Access denied where the task runs (a bucket's policy, a file's mode): named, nothing counted of it.
        folder, registry = made

        def denied(self, name, storage_options):
            raise PermissionError(13, "Access Denied")

        monkeypatch.setattr(distributed._Source, "__init__", denied)
        tally, spilled = count_task(("file", str(folder / "more.jsonl"), 0, 0, 100),
                                    load_registry(registry).sources, Options(), version.VERIFIER, {})
        assert tally.lines == 0 and spilled is None
        assert tally.broken == [(str(folder / "more.jsonl"), 0, "cannot be read: access denied ([Errno 13] "
                                                                 "Access Denied)")]

    def test_the_command_names_a_broken_log_and_exits_4(self, made, cluster):
        folder, registry = made
        status, out, err = run_main(None, "triage", folder / "more.jsonl", folder / "broken.jsonl.gz", "--registry",
                                    registry, "--format", "json", "--engine", "dask", "--scheduler",
                                    cluster.scheduler.address)
        assert status == 4 and json.loads(out)["lines"] > 500
        assert f"{folder / 'broken.jsonl.gz'} broke off after line" in err

    def test_cancel_stops_and_leaves_the_cluster_as_it_was(self, made, cluster, slow_tasks):
        folder, registry = made
        cancel = threading.Event()
        workers = sorted(cluster.scheduler_info()["workers"])

        def stop(state):
            if state.tally.lines > 0:  # a prefix merged (tasks end out of order)
                cancel.set()

        tally = run_module.triage([str(folder / "app.jsonl")], load_registry(registry), on_progress=stop, cancel=cancel,
                                  engine=DaskEngine(scheduler=cluster.scheduler.address, task_bytes=16 * 1024,
                                                    progress_every=0))
        assert 0 < tally.lines < 3000
        assert sorted(cluster.scheduler_info()["workers"]) == workers
        wait_until(lambda: tasks_of(cluster) == [], "the cluster's tasks cancelled")

    def test_ctrl_c_cancels_the_tasks_and_leaves_the_cluster(self, made, cluster):
        folder, registry = made
        workers = sorted(cluster.scheduler_info()["workers"])

        def interrupt(state):
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt, match=r"^while counting on the cluster: \d+ of \d+ tasks done, the "
                                                    "others cancelled$"):
            run_module.triage([str(folder / "app.jsonl")], load_registry(registry), on_progress=interrupt,
                              engine=DaskEngine(scheduler=cluster.scheduler.address, task_bytes=16 * 1024,
                                                progress_every=0))
        assert sorted(cluster.scheduler_info()["workers"]) == workers
        wait_until(lambda: tasks_of(cluster) == [], "the cluster's tasks cancelled")

    def test_ctrl_c_closes_the_local_cluster_it_started(self, made, cluster):
        # No --scheduler: a LocalCluster of its own, closed on the way out (its processes gone).
        import psutil

        folder, registry = made
        before = {child.pid for child in psutil.Process().children(recursive=True)}

        def interrupt(state):
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            run_module.triage([str(folder / "app.jsonl")], load_registry(registry), on_progress=interrupt,
                              engine=DaskEngine(workers=1, task_bytes=16 * 1024, progress_every=0, dashboard=False))

        def left() -> set[int]:  # the processes started since, still running
            return {child.pid for child in psutil.Process().children(recursive=True)
                    if child.is_running() and child.status() != psutil.STATUS_ZOMBIE} - before

        wait_until(lambda: not left(), "the local cluster's processes gone")


def _set_verifier(digest):
    version.VERIFIER = digest


class TestContract:
    def test_a_worker_with_another_contract_is_named_and_nothing_counted(self, made, cluster):
        folder, registry = made
        mine = version.VERIFIER
        first = sorted(cluster.scheduler_info()["workers"])[0]
        cluster.run(_set_verifier, "contract-0000000000000000", workers=[first])
        try:
            with pytest.raises(EngineError) as caught:
                run_module.triage([str(folder / "app.jsonl")], load_registry(registry), engine=DaskEngine(client=cluster))
        finally:
            cluster.run(_set_verifier, mine, workers=[first])
        said = str(caught.value)
        assert f"{first} verifies with contract-0000000000000000" in said and mine in said
        assert "nothing was counted" in said and "\n" not in said

    def test_the_digest_travels_with_each_task(self, made, cluster, monkeypatch):
        # Past the check before counting (a worker that joins later): each task refuses.
        folder, registry = made
        mine = version.VERIFIER
        monkeypatch.setattr(distributed, "check_workers", lambda client, digest: None)
        cluster.run(_set_verifier, "contract-1111111111111111")
        try:
            with pytest.raises(EngineError) as caught:
                run_module.triage([str(folder / "app.jsonl")], load_registry(registry), engine=DaskEngine(client=cluster))
        finally:
            cluster.run(_set_verifier, mine)
        assert "verifies with contract-1111111111111111" in str(caught.value) and mine in str(caught.value)

    def test_a_task_with_another_digest_refuses(self, made):
        folder, registry = made
        task = ("file", str(folder / "more.jsonl"), 0, 0, 100)
        with pytest.raises(ContractMismatch) as caught:
            count_task(task, load_registry(registry).sources, Options(), "contract-2222222222222222", {})
        assert str(caught.value) == (f"worker pid {os.getpid()} verifies with {version.VERIFIER}, "
                                     "the client with contract-2222222222222222")


class TestCommandLine:
    def test_the_same_json_bad_lines_and_export_as_the_local_engine(self, made, cluster, tmp_path):
        folder, registry = made
        outputs = []
        for engine in (("--engine", "local"), ("--engine", "dask", "--scheduler", cluster.scheduler.address)):
            name = engine[1]
            status, out, err = run_main(
                None, "triage", folder / "app.jsonl", folder / "old.jsonl.gz", "--registry", registry, "--format",
                "json", "--by", "model", "--against", folder / "more.jsonl", "--export", "VALUE_MISMATCH", "--out",
                tmp_path / f"{name}.json", "--bad-lines", tmp_path / f"{name}-bad.jsonl", *engine)
            assert status == 0, err
            document = json.loads(out)
            document["export"].pop("out")
            document.pop("bad_lines_file")
            outputs.append((document, (tmp_path / f"{name}.json").read_bytes(),
                            (tmp_path / f"{name}-bad.jsonl").read_bytes()))
        assert outputs[0] == outputs[1]
        assert outputs[0][2].count(b"\n") == outputs[0][0]["bad_lines"] > 0

    def test_a_series_and_a_sample_as_the_local_engine_draws_them(self, made, cluster, tmp_path):
        # --series and --sample N --seed S (issue 20) merge in Tally.add: the same on the cluster.
        folder, registry = made
        said = []
        for engine in (("--engine", "local"), ("--engine", "dask", "--scheduler", cluster.scheduler.address)):
            status, out, err = run_main(
                None, "triage", folder / "app.jsonl", folder / "old.jsonl.gz", "--registry", registry, "--format",
                "json", "--series", "--pivot", "scope,model", "--export", "VALUE_MISMATCH", "--sample", "7", "--seed",
                "11", "--out", tmp_path / f"{engine[1]}.json", *engine)
            assert status == 0, err
            document = json.loads(out)
            document["export"].pop("out")
            said.append(document)
        assert said[0] == said[1] and said[0]["export"]["cases"] == 7
        assert (tmp_path / "local.json").read_bytes() == (tmp_path / "dask.json").read_bytes()

    def test_the_overview_counts_on_the_cluster(self, made, cluster):
        # The overview's callable: presentation.overview.count with the engine's options.
        from inspector.presentation.overview import count, triage_run

        folder, registry = made
        snapshots = {}
        for name, engine in (("local", {}), ("dask", {"engine": DaskEngine(scheduler=cluster.scheduler.address)})):
            found = []
            run = triage_run([str(folder / "app.jsonl")], load_registry(registry), registry, ("model",), **engine)
            count(run, found.append, threading.Event())
            snapshots[name] = found[-1]
        assert snapshots["dask"].done and snapshots["dask"].summary.to_dict() == snapshots["local"].summary.to_dict()
        assert snapshots["dask"].summary.tally.index == snapshots["local"].summary.tally.index

    @pytest.mark.parametrize("extra, said", [
        (("--follow",), "--follow follows logs on this machine"),
        (("--scheduler", "tcp://127.0.0.1:1", "--workers", "2"), "--workers starts the LocalCluster's workers"),
        (("--storage-option", "anon"), "--storage-option 'anon': write KEY=VALUE"),
    ])
    def test_options_that_do_not_go_with_the_engine(self, made, extra, said):
        folder, registry = made
        status, _, err = run_main(None, "triage", folder / "app.jsonl", "--registry", registry, "--summary",
                                  "--engine", "dask", *extra)
        assert status == 2 and said in err and err.count("\n") == 1

    def test_standard_input_is_not_for_the_workers(self, made):
        folder, registry = made
        status, _, err = run_main(None, "triage", "-", "--registry", registry, "--summary", "--engine", "dask",
                                  input=b"")
        assert status == 2 and "standard input (-) cannot be read by the cluster's workers" in err

    def test_a_url_needs_the_dask_engine(self, made):
        folder, registry = made
        status, _, err = run_main(None, "triage", "s3://answers/app.jsonl", "--registry", registry, "--summary")
        assert status == 2 and "a URL is read by the workers of --engine dask" in err

    def test_without_dask_it_says_what_to_install(self, made, monkeypatch):
        folder, registry = made
        monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
        status, _, err = run_main(None, "triage", folder / "app.jsonl", "--registry", registry, "--summary",
                                  "--engine", "dask")
        assert status == 2 and err.count("\n") == 1
        assert "needs distributed, not installed here: pip install 'claim-inspector[dask]'" in err

    def test_without_s3fs_it_says_what_to_install(self, made, monkeypatch):
        folder, registry = made
        import fsspec.registry

        monkeypatch.setitem(sys.modules, "s3fs", None)  # as if not installed
        for protocol in ("s3", "s3a"):  # and its filesystem not imported yet
            monkeypatch.delitem(sys.modules["fsspec.registry"]._registry, protocol, raising=False)
        status, _, err = run_main(None, "triage", "s3://answers/x.jsonl", "--registry", registry, "--summary",
                                  "--engine", "dask")
        assert status == 2 and "pip install 'claim-inspector[s3]'" in err and err.count("\n") == 1

    def test_the_local_engine_imports_no_dask(self, made):
        folder, registry = made
        script = (f"import sys\nfrom inspector.cli import main\n"
                  f"status = main(['triage', {str(folder / 'more.jsonl')!r}, '--registry', {str(registry)!r}, "
                  "'--format', 'json'])\n"
                  "print(sorted({'dask', 'distributed', 'fsspec', 's3fs'} & {m.split('.')[0] for m in sys.modules}))")
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip().splitlines()[-1] == "[]"


class TestS3:
    @pytest.fixture(scope="class")
    def bucket(self, s3, made, tmp_path_factory):
        """Twenty logs in a bucket, every third gzipped, and the same logs on disk."""
        import boto3

        folder = tmp_path_factory.mktemp("bucket")
        client = boto3.client("s3")
        client.create_bucket(Bucket=BUCKET)
        for number in range(20):
            name = f"app-{number:02d}.jsonl" + (".gz" if number % 3 == 0 else "")
            write_log(folder / name, 60 + number * 7, seed=number)
            client.put_object(Bucket=BUCKET, Key=f"2026-12-01/{name}", Body=(folder / name).read_bytes())
        client.put_object(Bucket=BUCKET, Key="2026-12-01/notes.txt", Body=b"not a log")
        return folder

    def test_a_bucket_of_twenty_logs_counts_as_they_do_on_disk(self, bucket, made, cluster):
        folder, registry = made
        status, out, err = run_main(None, "triage", f"s3://{BUCKET}/2026-12-01/", "--registry", registry, "--format",
                                    "json", "--by", "model", "--engine", "dask", "--scheduler",
                                    cluster.scheduler.address)
        assert status == 0, err
        status, local, err = run_main(None, "triage", bucket, "--registry", registry, "--format", "json", "--by",
                                      "model")
        assert status == 0, err
        remote = json.loads(out)
        assert len(remote["logs"]) == 20 and remote["lines"] == sum(60 + number * 7 for number in range(20))
        assert out.replace(f"s3://{BUCKET}/2026-12-01/", f"{bucket}/") == local

    def test_a_glob_of_urls_and_storage_options(self, bucket, made, cluster, s3):
        logs = expand_sources([f"s3://{BUCKET}/2026-12-01/*.jsonl.gz"], {"client_kwargs": {"endpoint_url": s3}})
        assert logs == [f"s3://{BUCKET}/2026-12-01/app-{number:02d}.jsonl.gz" for number in range(0, 20, 3)]
        with pytest.raises(run_module.LogError, match="no object matches this pattern"):
            expand_sources([f"s3://{BUCKET}/2026-12-02/*.jsonl"])

    def test_a_truncated_gz_in_the_bucket(self, bucket, made, cluster):
        import boto3

        folder, registry = made
        boto3.client("s3").put_object(Bucket=BUCKET, Key="broken/app.jsonl.gz",
                                      Body=(folder / "broken.jsonl.gz").read_bytes())
        url = f"s3://{BUCKET}/broken/app.jsonl.gz"
        tally = run_module.triage([url], load_registry(registry), engine=DaskEngine(client=cluster))
        alone = run_module.triage([str(folder / "broken.jsonl.gz")], load_registry(registry), workers=1)
        assert tally.lines == alone.lines > 0 and tally.cells == alone.cells
        assert tally.broken == [(url, *alone.broken[0][1:])]

    def test_an_object_gone_before_its_task(self, bucket, made, cluster):
        import boto3

        folder, registry = made
        logs = expand_sources([f"s3://{BUCKET}/2026-12-01/app-0*.jsonl"])
        sizes = {name: distributed._size(name, {}) for name in logs}
        boto3.client("s3").delete_object(Bucket=BUCKET, Key="2026-12-01/app-01.jsonl")
        try:
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(distributed, "_size", lambda name, options, timeout: sizes[name])
                tally = run_module.triage(logs, load_registry(registry), engine=DaskEngine(client=cluster))
        finally:
            boto3.client("s3").put_object(Bucket=BUCKET, Key="2026-12-01/app-01.jsonl",
                                          Body=(bucket / "app-01.jsonl").read_bytes())
        assert [file for file, _, _ in tally.broken] == [f"s3://{BUCKET}/2026-12-01/app-01.jsonl"]
        assert tally.broken[0][2].startswith("cannot be read: no such object")
        assert tally.lines == sum(60 + number * 7 for number in (1, 2, 4, 5, 7, 8)) - 67


class TestOptions:
    def test_storage_options_nest_and_read_json(self):
        assert distributed.parse_storage_options(
            ["anon=true", "client_kwargs.endpoint_url=http://127.0.0.1:9000", "client_kwargs.region_name=eu",
             "default_block_size=5242880"]) == {
            "anon": True, "default_block_size": 5242880,
            "client_kwargs": {"endpoint_url": "http://127.0.0.1:9000", "region_name": "eu"}}
        sixteen = "{\"x\": " * 14 + "1" + "}" * 14  # two dots and fourteen objects: the deepest taken
        assert distributed.parse_storage_options([f"a.b.c={sixteen}"]) == {"a": {"b": {"c": json.loads(sixteen)}}}

    @pytest.mark.parametrize("item", ["a=" + "[" * 900 + "]" * 900, "a=" + "[" * 60_000 + "]" * 60_000,
                                      "a" + ".a" * 900 + "=1", "a.b.c=" + "{\"x\": " * 15 + "1" + "}" * 15],
                             ids=["an array 900 deep", "past the decoder's stack", "a key of 900 dots",
                                  "17 levels in all"])
    def test_storage_options_nested_too_deeply_are_one_line_and_2(self, made, item):
        folder, registry = made
        with pytest.raises(ValueError, match="nested deeper than 16 levels"):
            distributed.parse_storage_options([item])
        status, out, err = run_main(None, "triage", folder / "more.jsonl", "--registry", registry, "--summary",
                                    "--engine", "dask", "--workers", "1", "--storage-option", item)
        assert (status, out) == (2, "")
        assert one_line_error(err, "--storage-option a", "nested deeper than 16 levels")
        assert len(err) < 300  # the value is not said back

    def test_the_help_says_the_engines_timeouts(self, capsys):
        from inspector.cli import triage_engine

        assert (triage_engine.CONNECT_TIMEOUT, triage_engine.STORE_TIMEOUT) == (
            distributed.CONNECT_TIMEOUT, distributed.STORE_TIMEOUT)
        status, out, _ = run_main(capsys, "triage", "--help")
        said = " ".join(out.split())
        assert status == 0 and "--timeout SECONDS with --engine dask: how long the scheduler (default 10) and the " \
            "logs' store (listing, default 60) may take to answer" in said

    def test_the_dashboard_is_linked_only_where_it_has_pages(self, cluster):
        import importlib.util

        has_pages = importlib.util.find_spec("bokeh") is not None  # the scheduler is this machine's
        assert distributed.dashboard_of(cluster) == (cluster.dashboard_link if has_pages else None)

    def test_file_urls_are_local_paths(self, made):
        folder, _ = made
        assert expand_sources([f"file://{folder}/*.jsonl", f"file://{folder / 'old.jsonl.gz'}"]) == [
            str(folder / "app.jsonl"), str(folder / "more.jsonl"), str(folder / "old.jsonl.gz")]

    def test_the_task_size(self):
        mib = 1024 * 1024
        assert distributed.task_size([20 * 571 * 10**6], 2) == 32 * mib  # 20M lines on two workers: 32 MiB
        assert distributed.task_size([400 * 10**6], 2) == 400 * 10**6 // 16  # eight tasks a worker
        assert distributed.task_size([1000], 128) == 8 * mib  # never below 8 MiB

    def test_the_plan(self):
        # Ranges of about task_bytes covering each plain log; a .gz (by its name) and a small log one task each.
        assert plan(["a.jsonl", "b.jsonl.gz", "c.jsonl"], [250, 1000, 40], 100) == [
            ("range", "a.jsonl", 0, 0, 83), ("range", "a.jsonl", 0, 83, 166), ("range", "a.jsonl", 0, 166, 250),
            ("file", "b.jsonl.gz", 1, 0, 1000), ("file", "c.jsonl", 2, 0, 40)]


class _Answers:
    """A client whose workers answer ``run`` as given (a digest, or an exception)."""

    def __init__(self, answers):
        self.answers = answers

    def run(self, function, on_error="raise"):
        return self.answers


class _Failed:
    """A future that ended with ``exception``."""

    status = "error"

    def __init__(self, exception):
        self._exception = exception

    def exception(self):
        return self._exception


class TestClusterProblems:
    def test_a_worker_without_inspector_is_named(self):
        answers = {"tcp://10.0.0.1:1": version.VERIFIER,
                   "tcp://10.0.0.2:1": ModuleNotFoundError("No module named 'inspector'")}
        with pytest.raises(EngineError) as caught:
            distributed.check_workers(_Answers(answers), version.VERIFIER)
        said = str(caught.value)
        assert "1 worker(s) cannot run inspector's counting (tcp://10.0.0.2:1: ModuleNotFoundError" in said
        assert "install inspector on every worker" in said

    def test_workers_that_die_again_and_again_end_the_count(self):
        from distributed import KilledWorker

        task = ("range", "app.jsonl", 0, 0, 100)
        with pytest.raises(run_module.WorkerError) as caught:
            distributed._failed(_Failed(KilledWorker("inspector-triage-x-0", "tcp://10.0.0.2:1", 3)), task, [])
        assert str(caught.value).startswith("app.jsonl: the workers counting it died again and again")

    def test_a_scheduler_that_cannot_be_reached(self, made, monkeypatch):
        folder, registry = made
        monkeypatch.setattr(distributed, "CONNECT_TIMEOUT", 0.3)
        status, _, err = run_main(None, "triage", folder / "more.jsonl", "--registry", registry, "--summary",
                                  "--engine", "dask", "--scheduler", "tcp://127.0.0.1:1")
        assert status == 2 and "cannot connect to the scheduler at tcp://127.0.0.1:1" in err
        assert err.count("\n") == 1

    def test_an_export_alone_stops_at_its_limit(self, made, cluster, tmp_path):
        folder, registry = made
        said = []
        for engine in (("--engine", "local"), ("--engine", "dask", "--scheduler", cluster.scheduler.address)):
            status, out, err = run_main(None, "triage", folder / "app.jsonl", "--registry", registry, "--export",
                                        "ACCEPT", "--out", tmp_path / f"{engine[1]}.json", "--limit", "5", *engine)
            assert status == 0, err
            said.append(out.replace(engine[1], "ENGINE"))
        assert said[0] == said[1] and "wrote 5 case(s) of ACCEPT" in said[0]
        assert (tmp_path / "local.json").read_bytes() == (tmp_path / "dask.json").read_bytes()


class _Silent:
    """A TCP listener on 127.0.0.1 that accepts every connection and never says
    a word: a scheduler or a store that hangs.  ``accepted`` is set once a
    connection is held."""

    def __init__(self):
        import socket

        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.05)  # (the loop looks at ``stop`` between accepts)
        self.port = self.listener.getsockname()[1]
        self.accepted = threading.Event()
        self.stop = threading.Event()
        self.held = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.stop.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            self.held.append(connection)
            self.accepted.set()

    def close(self):
        self.stop.set()
        self.thread.join()
        self.listener.close()
        for connection in self.held:
            connection.close()


@pytest.fixture
def silent():
    peer = _Silent()
    try:
        yield peer
    finally:
        peer.close()


@pytest.fixture
def aws(monkeypatch):
    """Credentials in the environment (botocore looks no further), and no endpoint but the one given."""
    for name, value in AWS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)


class TestSilentPeers:
    """A scheduler or a store that accepts and never answers: bounded by
    --timeout, said in one line; Ctrl-C ends the wait at once."""

    def test_a_scheduler_that_never_answers(self, made, silent):
        folder, registry = made
        started = time.monotonic()
        status, out, err = run_main(None, "triage", folder / "more.jsonl", "--registry", registry, "--summary",
                                    "--engine", "dask", "--scheduler", f"tcp://127.0.0.1:{silent.port}",
                                    "--timeout", "1")
        assert (status, out) == (2, "")
        assert time.monotonic() - started < 10
        assert silent.accepted.is_set()  # it was reached, and said nothing
        one_line_error(err, f"--engine dask: the scheduler at tcp://127.0.0.1:{silent.port} did not answer "
                            "within 1 s (--timeout SECONDS waits longer)")

    @pytest.mark.parametrize("url", ["s3://answers/2026-12-01/", "s3://answers/2026-12-01/*.jsonl",
                                     "s3://answers/2026-12-01/app-00.jsonl"], ids=["prefix", "glob", "object"])
    def test_a_store_that_never_answers(self, made, silent, aws, url):
        folder, registry = made
        started = time.monotonic()
        status, out, err = run_main(None, "triage", url, "--registry", registry, "--summary", "--engine", "dask",
                                    "--workers", "1", "--timeout", "1", "--storage-option",
                                    f"client_kwargs.endpoint_url=http://127.0.0.1:{silent.port}")
        assert (status, out) == (2, "")
        assert time.monotonic() - started < 10
        one_line_error(err, f"{url}: the store did not answer within 1 s (listing it; --timeout SECONDS waits "
                            "longer)")

    def test_the_timeout_is_seconds_with_the_dask_engine(self, made):
        folder, registry = made
        for given, said in ((["--timeout", "0"], "--timeout takes seconds, a number above 0"),
                            (["--timeout", "soon"], "--timeout takes seconds, a number above 0"),
                            (["--timeout", "nan"], "--timeout takes seconds, a number above 0")):
            status, _, err = run_main(None, "triage", folder / "more.jsonl", "--registry", registry, "--summary",
                                      "--engine", "dask", *given)
            assert status == 2 and said in one_line_error(err)
        status, _, err = run_main(None, "triage", folder / "more.jsonl", "--registry", registry, "--summary",
                                  "--timeout", "5")
        assert status == 2 and "--timeout is of --engine dask" in one_line_error(err)

    @pytest.mark.parametrize("where", ["scheduler", "store"])
    def test_ctrl_c_while_waiting_is_a_prompt_exit_and_one_line(self, made, silent, where):
        folder, registry = made
        if where == "scheduler":
            args = [folder / "more.jsonl", "--scheduler", f"tcp://127.0.0.1:{silent.port}"]
            said = f"inspector: interrupted while waiting for the scheduler at tcp://127.0.0.1:{silent.port}"
        else:
            args = ["s3://answers/2026-12-01/", "--workers", "1", "--storage-option",
                    f"client_kwargs.endpoint_url=http://127.0.0.1:{silent.port}"]
            said = "inspector: interrupted while listing s3://answers/2026-12-01/ (the store had not answered after "
        env = {**os.environ, **AWS, "NO_COLOR": "1"}
        env.pop("AWS_ENDPOINT_URL", None)
        proc = subprocess.Popen([sys.executable, "-m", "inspector", "triage", *map(str, args), "--registry", registry,
                                 "--summary", "--engine", "dask"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert silent.accepted.wait(30), "the command never reached the silent peer"
            interrupted = time.monotonic()
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=15)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
        assert time.monotonic() - interrupted < 5
        assert (proc.returncode, out) == (130, "")
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in err, err
        assert lines[0].startswith(said), lines[0]
