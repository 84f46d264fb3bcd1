"""``inspector serve``'s command line (inspector.cli.serve): what it refuses before
anything listens, in one line with exit status 2; the serve extra missing; the
terminal check of a served app process.  The server itself: tests/serve/."""

from __future__ import annotations

import socket
import sys

import pytest

from inspector.cli import open as open_command
from inspector.cli.output import WEB_DRIVER
from inspector.cli.serve import MISSING_EXTRA, is_loopback

from support import one_line_error, run_main

LOG, REGISTRY = "fixtures/logs/sample.jsonl", "fixtures/logs/sample-registry.json"


class TestBeforeListening:
    def test_without_the_extra_it_says_what_to_install(self, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setitem(sys.modules, "textual_serve.app_service", None)  # as if not installed
        status, out, err = run_main(capsys, "serve", "fixtures/article.json")
        assert status == 2
        assert one_line_error(err) == f"inspector: error: {MISSING_EXTRA}"
        assert "pip install 'claim-inspector[serve]'" in err

    @pytest.mark.parametrize(("args", "said"), [
        (["--port", "70000"], "--port 70000: a port is 0 to 65535"),
        (["--max-sessions", "0"], "--max-sessions 0: at least 1"),
        (["no-such-suite.json"], "no-such-suite.json"),
        (["fixtures/article.json", "--port", "9"], "--port: serve's own options come before what is served"),
        (["triage", LOG, "--registry", REGISTRY, "--summary"], "the headless command's"),
        (["triage", LOG, "--registry", "no-such-registry.json"], "no-such-registry.json"),
        (["triage", "no-such.jsonl", "--registry", REGISTRY], "no-such.jsonl"),
        (["triage", "-", "--registry", REGISTRY], "standard input (-) is read by the headless summary only"),
        (["open", "--request", "fixtures/payments/request.json"], "--request and --registry go together"),
    ])
    def test_unusable_arguments_are_one_line(self, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch, args: list[str], said: str) -> None:
        from inspector.serve import server

        async def listening(*args: object) -> None:  # were the arguments let through, fail, not serve
            raise AssertionError("inspector serve listened")

        monkeypatch.setattr(server, "run_server", listening)
        status, out, err = run_main(capsys, "serve", *args)
        assert status == 2
        assert said in one_line_error(err)
        assert out == ""

    def test_an_address_in_use_is_one_line(self, capsys: pytest.CaptureFixture[str]) -> None:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            status, out, err = run_main(capsys, "serve", "--port", str(port), "fixtures/article.json")
        assert status == 2
        assert f"cannot listen on 127.0.0.1 port {port}" in one_line_error(err)

    def test_another_host_than_loopback_is_warned_of(self, capsys: pytest.CaptureFixture[str]) -> None:
        with socket.socket() as taken:  # taken: the warning is printed, nothing listens
            taken.bind(("0.0.0.0", 0))
            taken.listen()
            port = taken.getsockname()[1]
            status, out, err = run_main(capsys, "serve", "--host", "0.0.0.0", "--port", str(port),
                                        "fixtures/article.json")
        assert status == 2
        warning, refusal = err.strip().splitlines()
        assert warning.startswith("inspector: warning: --host 0.0.0.0 is reachable from other machines, "
                                  "in plain HTTP")
        assert "cannot listen" in refusal

    @pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("127.3.4.5", True), ("::1", True),
                                                     ("localhost", True), ("0.0.0.0", False), ("::", False),
                                                     ("192.168.1.2", False), ("example.org", False)])
    def test_loopback(self, host: str, loopback: bool) -> None:
        assert is_loopback(host) is loopback


class TestTheTerminalCheck:
    def test_a_served_app_process_needs_no_terminal(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # textual-serve runs each session with pipes for standard input and output and this driver
        monkeypatch.setenv("TEXTUAL_DRIVER", WEB_DRIVER)
        assert open_command.stream_problem(None) is None  # type: ignore[arg-type]

    def test_without_the_web_driver_pipes_are_refused(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.linux_driver:LinuxDriver")
        assert "needs a terminal" in (open_command.stream_problem(None) or "")  # type: ignore[arg-type]
