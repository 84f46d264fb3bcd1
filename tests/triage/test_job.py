"""``triage.job``: one triage run described whole (``TriageJob``) and run (``run_job``);
the engines as typed settings (``LocalEngine``, ``DaskEngine``)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from inspector.suites.load import load_registry
from inspector.triage import Options, triage_runs
from inspector.triage.compare import compare
from inspector.triage.distributed import DaskEngine
from inspector.triage.job import TriageJob, run_job
from inspector.triage.run import LocalEngine
from inspector.triage.summary import summarize

from support import ROOT

SAMPLE = str(ROOT / "fixtures" / "logs" / "sample.jsonl")
REGISTRY_PATH = str(ROOT / "fixtures" / "logs" / "sample-registry.json")


@pytest.fixture(scope="module")
def registry():
    return load_registry(REGISTRY_PATH)


def test_a_job_with_against_is_both_counts_and_their_comparison(registry):
    options = Options(by=("model",), index=True, series=True)
    job = TriageJob((SAMPLE,), registry, REGISTRY_PATH, options, against=(SAMPLE,), engine=LocalEngine(workers=1))
    result = run_job(job)
    # The baseline is counted with the same groups and nothing else (no index, no series).
    assert job.against_options == Options(by=("model",))
    tallies = triage_runs([([SAMPLE], options), ([SAMPLE], Options(by=("model",)))], registry, workers=1)
    summary = summarize(tallies[0], options, [SAMPLE], REGISTRY_PATH)
    baseline = summarize(tallies[1], Options(by=("model",)), [SAMPLE], REGISTRY_PATH)
    assert result.summary.to_dict() == summary.to_dict()
    assert result.baseline is not None and result.baseline.to_dict() == baseline.to_dict()
    assert result.comparison is not None
    assert result.comparison.to_dict() == compare(summary, baseline).to_dict()
    assert result.stamps == {}  # not asked for


def test_the_summaries_name_the_logs_as_given_and_stamps_are_taken(registry):
    job = TriageJob((SAMPLE,), registry, REGISTRY_PATH, against=(SAMPLE,), names=("given.json",),
                    against_names=("before.json",), stamp=True, engine=LocalEngine(workers=1))
    result = run_job(job)
    assert result.summary.logs == ("given.json",)
    assert result.baseline is not None and result.baseline.logs == ("before.json",)
    assert list(result.stamps) == [SAMPLE]


def test_a_cancelled_job_has_no_comparison(registry):
    cancel = threading.Event()
    cancel.set()
    result = run_job(TriageJob((SAMPLE,), registry, REGISTRY_PATH, against=(SAMPLE,)), cancel=cancel)
    assert result.cancelled and result.baseline is None and result.comparison is None


def test_an_engine_and_its_settings_as_keywords_are_refused(registry):
    with pytest.raises(ValueError, match="the engine's settings"):
        triage_runs([([SAMPLE], Options())], registry, engine=LocalEngine(), workers=2)


def test_the_dask_engine_refuses_what_only_the_local_one_does(registry):
    # Refused before anything of dask is needed.
    engine = DaskEngine(scheduler="tcp://127.0.0.1:1")
    with pytest.raises(ValueError, match="--records"):
        engine.count_runs([([SAMPLE], Options())], registry, records=object())  # type: ignore[arg-type]  # refused before it is used
    with pytest.raises(ValueError, match="standard input"):
        engine.count_runs([([SAMPLE], Options())], registry, ends={SAMPLE: 10})


def test_a_followed_job_counts_what_is_appended_until_cancelled(registry, tmp_path):
    from support.waiting import wait_until

    from inspector.triage.job import Following, FollowProgress
    from inspector.triage.engines import Progress

    lines = Path(SAMPLE).read_bytes().splitlines(keepends=True)
    log = tmp_path / "live.jsonl"
    log.write_bytes(b"".join(lines[:10]))
    seen: list[Progress] = []
    cancel = threading.Event()
    job = TriageJob((str(log),), registry, REGISTRY_PATH, Options(index=True), engine=LocalEngine(workers=1),
                    follow=Following(poll_seconds=0.02, report_seconds=0.05))
    done: list = []
    worker = threading.Thread(target=lambda: done.append(run_job(job, progress=seen.append, cancel=cancel)))
    worker.start()
    try:
        wait_until(lambda: any(isinstance(state, FollowProgress) and state.caught_up for state in seen),
                   "the lines already there counted")
        with log.open("ab") as out:
            out.write(b"".join(lines[10:25]))
        wait_until(lambda: seen[-1].tally.lines == 25, "the appended lines counted")
    finally:
        cancel.set()
        worker.join(30)
    (result,) = done
    assert result.cancelled and result.summary.tally.lines == 25
    assert all(isinstance(state, Progress) for state in seen)  # a follow reports as every job does
    assert list(result.stamps) == [str(log)]  # the follower's stamps, for rereading what it counted
    # The counts are those of the same 25 lines counted at once.
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(lines[:25]))
    plain = run_job(TriageJob((str(whole),), registry, REGISTRY_PATH, engine=LocalEngine(workers=1)))
    assert result.summary.tally.verdicts == plain.summary.tally.verdicts


def test_a_followed_job_compares_nothing(registry):
    from inspector.triage.job import Following

    with pytest.raises(ValueError, match="compares nothing"):
        TriageJob((SAMPLE,), registry, REGISTRY_PATH, against=(SAMPLE,), follow=Following())
