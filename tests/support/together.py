"""Several processes doing the same thing at once: the concurrent reviewers' and
annotators' tests.  Each process prints ``ready`` once set up, then waits for a line
on its standard input, so all of them start their writes together."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence


def run_together(script: str, argvs: Sequence[Sequence[str]], timeout: float = 30) -> None:
    """Run ``python -c script ARGS`` once for each argument list, released at the same
    moment; fails the test if any did not say ready or did not exit 0."""
    procs = [subprocess.Popen([sys.executable, "-c", script, *argv], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for argv in argvs]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdin is not None
            assert proc.stdout.readline() == b"ready\n", proc.stderr.read() if proc.stderr else b""
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(b"go\n")
            proc.stdin.flush()
        for proc in procs:
            _, err = proc.communicate(timeout=timeout)
            assert proc.returncode == 0, err
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
