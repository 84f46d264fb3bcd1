"""``inspector serve``: the inspector in a browser (textual-serve, the optional extra
``claim-inspector[serve]``), with ``open``'s arguments or ``triage``'s.

The arguments are checked here by the command that will run them (``open`` or
``triage`` with ``check_only``: the files read, the options checked, nothing
opened), so a bad one is one line and exit status 2 before anything listens.
Then the server (``inspector.serve``) runs until SIGINT, SIGTERM or SIGHUP (a closed
terminal), each browser session an ``inspector open ...`` (or ``triage ...``)
process of its own, which ends with the server.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..contract.text import visible
from .output import EXIT_ACCEPT, error

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "MISSING_EXTRA", "add_parser", "is_loopback", "run"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_SESSIONS = 4
MISSING_EXTRA = ("inspector serve needs the serve extra: pip install 'claim-inspector[serve]' (textual-serve and "
                 "aiohttp); the rest of inspector works without it")
SERVED = ("open", "triage")


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "serve", help="serve the inspector to a browser (needs claim-inspector[serve])",
        description="Serve what `inspector open` (or `inspector triage LOG --registry G`) shows, with the same "
                    "arguments, to a web browser: one app process per browser tab.",
        epilog="serve's own options come first: inspector serve --port 8001 fixtures/article.json; "
               "inspector serve triage LOG --registry G --by model.\n\n"
               "Every request needs the random token in the address printed at start (then a cookie): without "
               "it, 403 and nothing starts. It binds to 127.0.0.1 unless --host says otherwise; another address "
               "is reachable from the network in plain HTTP (a warning says so). Stop it with Ctrl+C (SIGINT), "
               "SIGTERM or SIGHUP (a closed terminal): every session's process ends with it, and with a server "
               "ended any other way. A session reads and writes only what is served (and the review and "
               "annotation files beside it): the palette's open command is off. exit status: 0 stopped; 2 "
               "unusable input, the serve extra not installed, or an address that cannot be bound; 3 internal "
               "error.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default=DEFAULT_HOST, metavar="H",
                        help=f"the address to listen on (default {DEFAULT_HOST}, this machine only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                        help=f"the port (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--max-sessions", type=int, default=DEFAULT_SESSIONS, metavar="N",
                        help=f"browser sessions (app processes) at once, beyond which one is refused "
                             f"(default {DEFAULT_SESSIONS})")
    parser.add_argument("served", nargs=argparse.REMAINDER, metavar="[open] SUITE... | triage LOG --registry G ...",
                        help="what to serve: open's arguments (the default: the bundled suites), or triage and "
                             "its arguments")
    # open's and triage's parsers (the same object the command line fills: they are there by run time)
    parser.set_defaults(run=run, parsers=commands.choices)
    return parser


def is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _served(words: list[str]) -> tuple[str, list[str]]:
    if words and words[0] in SERVED:
        return words[0], words[1:]
    return "open", words


def _checked(parsers: dict[str, argparse.ArgumentParser], command: str, rest: list[str]) -> int:
    """``inspector COMMAND REST`` checked by that command itself, opening nothing (``check_only``)."""
    args = parsers[command].parse_args(rest)  # a bad option: argparse's message, exit status 2
    args.command = command
    if command == "triage" and (args.summary or args.format is not None or args.export is not None
                                or args.records is not None):
        return error("inspector serve triage serves the inspector's overview: --summary, --format, --export and "
                     "--records are the headless command's")
    args.check_only = True
    return args.run(args)


def _address(host: str, port: int) -> str:
    import socket

    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def run(args: argparse.Namespace) -> int:
    try:
        import aiohttp  # noqa: F401
        import textual_serve.app_service  # noqa: F401
    except ImportError:
        return error(MISSING_EXTRA)
    if not 0 <= args.port <= 65535:
        return error(f"--port {args.port}: a port is 0 to 65535 (0: any free port)")
    if args.max_sessions < 1:
        return error(f"--max-sessions {args.max_sessions}: at least 1")
    command, rest = _served(list(args.served))
    # Neither open nor triage has these: given after what is served, they were meant for serve.
    misplaced = [word.split("=")[0] for word in rest if word.split("=")[0] in ("--host", "--port", "--max-sessions")]
    if misplaced:
        return error(f"{misplaced[0]}: serve's own options come before what is served "
                     f"(inspector serve {misplaced[0]} ... {command} ...)")
    status = _checked(args.parsers, command, rest)
    if status != EXIT_ACCEPT:
        return status

    from ..serve.server import ServeConfig, configure_logging, new_token, run_server

    configure_logging()
    config = ServeConfig(argv=(sys.executable, "-m", "inspector", command, *rest), token=new_token(),
                         host=args.host, port=args.port, max_sessions=args.max_sessions,
                         title=f"inspector {command}")
    if not is_loopback(args.host):
        print(visible(f"inspector: warning: --host {args.host} is reachable from other machines, in plain HTTP: "
                      "the token, every key and every screen can be read on the network (use 127.0.0.1 and an "
                      "SSH tunnel, or a TLS proxy in front)"), file=sys.stderr, flush=True)

    def ready(server: Any) -> None:
        served = " ".join(["inspector", command, *rest])
        print(visible(f"inspector serve: `{served}` for at most {config.max_sessions} browser session(s) at "
                      f"{_address(args.host, server.port)}{server.path}/?token={config.token}"), flush=True)
        print("Stop with Ctrl+C.", flush=True)

    import asyncio
    import signal

    async def serve() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # SIGHUP: its terminal closed
            loop.add_signal_handler(number, stop.set)
        await run_server(config, ready, stop)

    try:
        asyncio.run(serve())
    except OSError as exc:
        if exc.filename is None:
            return error(f"cannot listen on {args.host} port {args.port}: {exc.strerror or exc} "
                         "(--port N takes another; 0: any free port)")
        raise
    print("inspector serve: stopped, every session ended", flush=True)
    return EXIT_ACCEPT
