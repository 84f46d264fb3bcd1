"""The pages ``inspector serve`` sends: the terminal's page and the one-message pages
(a refusal, a missing token).

textual-serve's own template links a web font from a public host (which fails
offline and tells a third party who opened the tool) and is rendered without
escaping; these pages name only the server's own assets, every value put in
them is escaped, and they hold no inline script (the terminal is
textual-serve's ``textual.js``, served locally).

Every address in the page is relative to it: served under its random path, or
behind a proxy, the page finds its assets, its websocket and its downloads
beside itself.  The websocket's address is made by ``SCRIPT`` from the page's
own: ``wss://`` under ``https://`` (a TLS proxy in front), ``ws://`` under
``http://``.
"""

from __future__ import annotations

from html import escape

__all__ = ["ASSETS", "CONTENT_SECURITY_POLICY", "SCRIPT", "SCRIPT_NAME", "message_page", "terminal_page"]

# The static files the page uses, by their path under /static/: (the file under
# textual-serve's static folder, its content type).  Nothing else is served.
ASSETS: dict[str, tuple[str, str]] = {
    "js/textual.js": ("js/textual.js", "text/javascript; charset=utf-8"),
    "css/xterm.css": ("css/xterm.css", "text/css; charset=utf-8"),
    "fonts/RobotoMono.ttf": ("fonts/RobotoMono-VariableFont_wght.ttf", "font/ttf"),
    "fonts/RobotoMono-Italic.ttf": ("fonts/RobotoMono-Italic-VariableFont_wght.ttf", "font/ttf"),
}

# The page's own script, under /static/ too: the websocket's address, from the page's (textual.js reads
# the terminal's data-session-websocket-url when the page has loaded, after this has run).
SCRIPT_NAME = "js/websocket.js"
SCRIPT = """\
(function () {
  var terminal = document.getElementById("terminal");
  var url = new URL(terminal.dataset.sessionWebsocketUrl, window.location.href);
  url.protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  terminal.dataset.sessionWebsocketUrl = url.href;
})();
"""

# Scripts only from the server itself (textual.js), no inline script, no frame, no
# form, connections (the websocket) only back to the server.  xterm.js sets inline styles.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "font-src 'self'; img-src 'self' data:; connect-src 'self'; "
                           "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")

_STYLE = """
@font-face { font-family: "Roboto Mono"; font-style: normal; font-weight: 100 700;
  src: url("static/fonts/RobotoMono.ttf") format("truetype"); }
@font-face { font-family: "Roboto Mono"; font-style: italic; font-weight: 100 700;
  src: url("static/fonts/RobotoMono-Italic.ttf") format("truetype"); }
html, body { margin: 0; height: 100%; background: #0c181f; color: rgba(255, 255, 255, 0.95);
  font-family: "Roboto Mono", menlo, monospace; }
.textual-terminal { width: 100vw; height: 100vh; opacity: 0; transition: opacity 0.3s ease-out; }
body.-first-byte .textual-terminal { opacity: 1; }
.dialog { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; z-index: 10; }
.box { max-width: 640px; padding: 32px; background: #12232d; text-align: center; line-height: 1.5; }
.box a { color: #ac5af4; }
body.-first-byte .starting { display: none; }
.ended { display: none; }
body.-closed .ended { display: flex; }
body.-closed .starting { display: none; }
"""


def _page(title: str, body: str, extra_head: str = "") -> str:
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{escape(title)}</title>\n"
            '<link rel="icon" href="data:,">\n'  # no request for /favicon.ico
            f"{extra_head}<style>{_STYLE}</style>\n</head>\n{body}\n</html>\n")


def terminal_page(title: str, font_size: int) -> str:
    """The page holding the terminal: textual.js connects to the websocket beside the page (``ws``,
    made absolute in the page's scheme by ``SCRIPT``) and draws the app."""
    head = ('<link rel="stylesheet" href="static/css/xterm.css">\n'
            '<script src="static/js/textual.js"></script>\n')
    body = (f'<body>\n<div class="dialog starting"><div class="box">{escape(title)}: starting…</div></div>\n'
            '<div class="dialog ended"><div class="box">The session ended. '
            '<a href="./">Start a new one</a>.</div></div>\n'
            '<div id="terminal" class="textual-terminal" data-session-websocket-url="ws" '
            f'data-font-size="{int(font_size)}"></div>\n'
            f'<script src="static/{SCRIPT_NAME}"></script>\n</body>')
    return _page(title, body, head)


def message_page(title: str, message: str) -> str:
    """A page saying one thing (a refusal), with no script."""
    return _page(title, f'<body>\n<div class="dialog"><div class="box"><p>{escape(message)}</p></div></div>\n</body>')
