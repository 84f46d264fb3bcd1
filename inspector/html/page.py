"""One self-contained HTML page: the skeleton, the escaping, and the figures as inline SVG.

Every string that goes into a page goes through ``text`` (or ``attribute``):
HTML-escaped, and its control and invisible characters shown as a marked
``\\uXXXX`` (``contract.text.is_invisible``, the definition the TUI and the
CLI use), so a fixture's, registry's, log's or answer's text is shown, never
interpreted.  The pages hold no script and fetch nothing: their style is inline,
their figures inline SVG; the Content-Security-Policy meta says so to the
browser as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from ..contract.text import escape_char, is_invisible

__all__ = ["Cell", "attribute", "bar", "document", "figure_bars", "section", "table", "text"]

# What a page may load: nothing (its style and images are inline), and no script at all.
_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

_STYLE = """
:root { --ink: #1d2430; --muted: #5b6473; --line: #d8dde5; --good: #1a7f37; --bad: #c62828; --warn: #9a6700;
  --bar: #2f81c7; --back: #ffffff; --band: #f4f6f9; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--back);
  margin: 0 auto; padding: 24px 32px 64px; max-width: 1200px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 32px 0 8px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; } h3 { font-size: 15px; margin: 20px 0 6px; }
p.sub, .muted { color: var(--muted); } .facts { margin: 8px 0; padding: 0; list-style: none; }
.facts li { margin: 2px 0; } .facts b { display: inline-block; min-width: 120px; color: var(--muted); font-weight: 600; }
table { border-collapse: collapse; margin: 6px 0 12px; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--band); font-weight: 600; white-space: nowrap; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code.id { white-space: nowrap; overflow-wrap: normal; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px;
  overflow-wrap: anywhere; }
.good { color: var(--good); } .bad { color: var(--bad); } .warn { color: var(--warn); }
.esc { background: #fff3bf; color: #8a4b00; border-radius: 3px; padding: 0 2px; font-family: ui-monospace, monospace; }
svg { display: block; } svg.bar { display: inline-block; vertical-align: middle; }
.record { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.record p { margin: 4px 0; } footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
@media print { body { padding: 0; } h2 { break-after: avoid; } .record { break-inside: avoid; } }
"""

Cell = str  # a cell's HTML, already escaped (``text``) or built here


def text(value: object) -> str:
    """``value`` as HTML text: escaped, every invisible character a marked ``\\uXXXX``."""
    found = str(value)
    if found.isascii() and found.isprintable():
        return escape(found)
    return "".join(f'<span class="esc">{escape_char(ch)}</span>' if is_invisible(ch) else escape(ch)
                   for ch in found)


def attribute(value: object) -> str:
    """``value`` inside a quoted attribute (a title): escaped, quotes included, invisible characters escaped."""
    found = str(value)
    return escape("".join(escape_char(ch) if is_invisible(ch) else ch for ch in found), quote=True)


def document(title: str, subtitle: str, body: Iterable[str], generator: str) -> str:
    """The whole page: ``title`` and ``subtitle`` are text (escaped here), ``body`` HTML."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{_POLICY}\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{text(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
            f"<h1>{text(title)}</h1>\n<p class=\"sub\">{text(subtitle)}</p>\n"
            + "\n".join(body)
            + f"\n<footer>{text(generator)}</footer>\n</body>\n</html>\n")


def section(title: str, *parts: str, level: int = 2) -> str:
    return f"<section>\n<h{level}>{text(title)}</h{level}>\n" + "\n".join(part for part in parts if part) + \
        "\n</section>"


def table(headers: Sequence[str], rows: Iterable[Sequence[Cell]], numeric: Sequence[int] = ()) -> str:
    """A table of already-escaped cells; ``numeric``: the columns aligned right."""
    def cell(tag: str, number: int, html: str) -> str:
        return f'<{tag} class="n">{html}</{tag}>' if number in numeric else f"<{tag}>{html}</{tag}>"

    head = "".join(cell("th", number, text(header)) for number, header in enumerate(headers))
    body = "\n".join("<tr>" + "".join(cell("td", number, html) for number, html in enumerate(row)) + "</tr>"
                     for row in rows)
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def bar(value: int, total: int, width: int = 180, part: int = 0, label: str = "") -> str:
    """A horizontal bar, ``value`` of ``total`` drawn ``width`` pixels long at most; ``part`` of
    it (the rejected) drawn red at its end."""
    drawn = 0.0 if total <= 0 else width * max(0, min(value, total)) / total
    red = 0.0 if value <= 0 else drawn * max(0, min(part, value)) / value
    title = f"<title>{text(label)}</title>" if label else ""
    return (f'<svg class="bar" width="{width}" height="12" viewBox="0 0 {width} 12" role="img">{title}'
            f'<rect x="0" y="1" width="{width}" height="10" fill="#eef1f5"/>'
            f'<rect x="0" y="1" width="{drawn - red:.1f}" height="10" fill="#2f81c7"/>'
            + (f'<rect x="{drawn - red:.1f}" y="1" width="{red:.1f}" height="10" fill="#c62828"/>' if red else "")
            + "</svg>")


def figure_bars(rows: Sequence[tuple[str, int, int]], total: int, caption: str, width: int = 640) -> str:
    """A figure of labelled horizontal bars (the article's ladder): each row (label, value, rejected part)."""
    row_height, label_width = 26, 200
    height = row_height * len(rows) + 8
    parts = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">'
             f"<title>{text(caption)}</title>"]
    span = width - label_width - 90
    for number, (label, value, part) in enumerate(rows):
        y = 4 + number * row_height
        drawn = 0.0 if total <= 0 else span * value / total
        red = 0.0 if value <= 0 else drawn * part / value
        parts.append(f'<text x="{label_width - 8}" y="{y + 15}" text-anchor="end" font-size="13" '
                     f'fill="#1d2430">{text(label)}</text>'
                     f'<rect x="{label_width}" y="{y + 3}" width="{span}" height="16" fill="#eef1f5"/>'
                     f'<rect x="{label_width}" y="{y + 3}" width="{drawn - red:.1f}" height="16" fill="#2f81c7"/>'
                     + (f'<rect x="{label_width + drawn - red:.1f}" y="{y + 3}" width="{red:.1f}" height="16" '
                        'fill="#c62828"/>' if red else "")
                     + f'<text x="{label_width + span + 8}" y="{y + 15}" font-size="13" fill="#1d2430">'
                       f"{value:,}/{total:,}</text>")
    parts.append("</svg>")
    return f'<figure>{"".join(parts)}<figcaption class="muted">{text(caption)}</figcaption></figure>'
