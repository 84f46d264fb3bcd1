"""Helpers of the HTML report tests: a log whose records carry markup and script in
their metadata, id, and answer, and a reading of a page that lists what a browser
would act on (elements, attributes, script, external references)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

from support import FIXTURES

SAMPLE_LOG = FIXTURES / "logs" / "sample.jsonl"
SAMPLE_REGISTRY = FIXTURES / "logs" / "sample-registry.json"

SCRIPT = "<script>document.title='owned';fetch('http://127.0.0.1:9/x')</script>"
IMAGE = "<img src=x onerror=\"alert('owned')\">"
BREAKOUT = "\"'></code></table><svg onload=alert(1)>"
CONTROL = "\x1b]52;c;b3duZWQ=\x07\u202e"
HOSTILE = (SCRIPT, IMAGE, BREAKOUT)

# What a report page may contain: its own elements and attributes, nothing else.
ELEMENTS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "ul", "li", "b", "span", "code",
            "section", "table", "thead", "tbody", "tr", "th", "td", "svg", "rect", "text", "line", "g", "figure",
            "figcaption", "footer", "br", "div"}
ATTRIBUTES = {"charset", "http-equiv", "content", "name", "lang", "class", "width", "height", "viewbox", "role",
              "x", "y", "x1", "y1", "x2", "y2", "fill", "stroke", "text-anchor", "font-size"}


def hostile_log(directory: Path, lines: int = 60) -> Path:
    """The sample log's first ``lines``, the hostile strings in every record's model, id and
    prompt_version (and one answer): a report grouped --by model names them as groups."""
    path = directory / "hostile.jsonl"
    out = []
    for number, line in enumerate(SAMPLE_LOG.read_text("utf-8").splitlines()[:lines]):
        try:
            record = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        if not isinstance(record, dict):
            out.append(line)
            continue
        record["model"] = HOSTILE[number % len(HOSTILE)]
        record["id"] = HOSTILE[(number + 1) % len(HOSTILE)] + CONTROL
        record["prompt_version"] = SCRIPT
        if number == 3:
            record["raw"] = IMAGE + SCRIPT
        out.append(json.dumps(record, ensure_ascii=False))
    path.write_text("\n".join(out) + "\n", "utf-8")
    return path


class _Reading(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: set[str] = set()
        self.attributes: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.add(tag)
        self.attributes.update(name for name, _ in attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def read_page(page: str) -> tuple[set[str], set[str], str]:
    """The elements and attributes a page holds, and its text (what a reader sees, unescaped)."""
    reading = _Reading()
    reading.feed(page)
    reading.close()
    return reading.elements, reading.attributes, "".join(reading.text)


def assert_inert(page: str) -> str:
    """Only the report's own elements and attributes, no control character: the page's text."""
    elements, attributes, text = read_page(page)
    assert elements <= ELEMENTS, elements - ELEMENTS
    assert attributes <= ATTRIBUTES, attributes - ATTRIBUTES
    assert "\x1b" not in page and "\x07" not in page and "\u202e" not in page
    assert "http://" not in page.replace("http-equiv", "") or "http://127.0.0.1:9/x" in text
    return text
