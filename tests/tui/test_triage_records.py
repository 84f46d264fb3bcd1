"""The triage overview on a hostile log (issue 17, items 4, 12 and 14): answers
that are not UTF-8 or escape a lone surrogate, timestamps at the years 1 and
9999 and one far from the rest, a BOM, NFC and NFD metadata.  Before, the
overview crashed (a 630-line traceback; "year 0 is out of range"); now it
counts them, says where the outliers are, and opens their records."""

from __future__ import annotations

import json

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST
from support.tui import SIZE, counted, hidden_characters, screen_text_and_styles, select_group, time_of

from inspector.presentation.overview import triage_run
from inspector.suites.load import load_registry
from inspector.tui.app import make_triage_app
from inspector.tui.screens.records import RecordsScreen
from inspector.tui.widgets.group_table import GroupTable

REQUEST = json.dumps(json.loads(PAYMENTS_REQUEST.read_text())).encode()
ACCEPT = json.dumps((ANSWERS / "accept.json").read_text()).encode()
DAY = 1796083200


def line(raw: bytes = ACCEPT, **meta: bytes) -> bytes:
    extra = b"".join(b", " + json.dumps(key).encode() + b": " + value for key, value in meta.items())
    return b'{"raw": ' + raw + b', "request": ' + REQUEST + extra + b"}"



async def test_the_overview_counts_a_hostile_log_and_opens_its_records(tmp_path):
    log = tmp_path / "hostile.jsonl"
    lines = [line(b'"{\\"claims\\": []}\xff"', ts=b'"0001-01-01T00:00:00+01:00"'),
             line(b'"\\ud800"', ts=b'"9999-12-31T23:59:59-01:00"'),
             line(ts=b"0", region='"re\u0301gion"'.encode()),
             b"\xef\xbb\xbf" + line(ts=b'"0001-01-01T00:00:00Z"', region='"r\u00e9gion"'.encode()),
             *(line(ts=str(DAY + 60 * n).encode()) for n in range(40))]
    log.write_bytes(b"\n".join(lines) + b"\n")
    app = make_triage_app(triage_run([str(log)], load_registry(PAYMENTS_REGISTRY), str(PAYMENTS_REGISTRY),
                                     ("region",)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await counted(pilot)
        assert screen.counted.failed is None
        summary = screen.counted.summary
        assert (summary.records, summary.tally.bad_lines) == (44, 0)
        names = {group.name: group.records for group in screen.query_one(GroupTable).groups}
        assert names["reason:INVALID_JSON/NOT_UTF8"] == 2
        assert names["region=re\\u0301gion"] == 1 and names["region=r\u00e9gion"] == 1
        every = next(group for group in screen.query_one(GroupTable).groups if group.kind == "scope")
        assert every.records == summary.records  # one request: its scope's records are every record
        select_group(screen, every.name)
        await time_of(pilot, screen, every.name)
        title = " ".join(screen.query_one("#time-title").render().plain.split())
        assert "per minute" in title and "12-01 – 12-01" in title
        assert "2 record(s) before the range shown (the earliest 0001-01-01T00:00:00Z)" in title
        text, _ = screen_text_and_styles(pilot.app)
        assert hidden_characters(text) == [] and "\u0301" not in text
        table = screen.query_one(GroupTable)
        table.move_cursor(next(row for row, group in enumerate(table.groups)
                               if group.name == "reason:INVALID_JSON/NOT_UTF8"))
        await pilot.press("enter")
        records = pilot.app.screen
        assert isinstance(records, RecordsScreen)
        first = records.selection.report
        assert first.actual == first.expected == "INVALID_JSON/NOT_UTF8" and first.id == "hostile.jsonl:1"
        await pilot.press("j")
        assert records.selection.report.id == "hostile.jsonl:2"
        assert records.selection.report.actual == "INVALID_JSON/NOT_UTF8"
        text, _ = screen_text_and_styles(pilot.app)
        assert hidden_characters(text) == []
        await pilot.press("escape")
        assert pilot.app.screen is screen


async def test_a_records_place_metadata_and_whole_line_in_view_and_the_bad_lines_starts(tmp_path):
    """Issue 18: at 80x24 the record's place and metadata are in view without
    scrolling (bounded, escaped), l shows its whole line re-indented (a repeated
    key kept, an escape shown) or as written, a log changed since is said; the
    bad lines' list shows each line's start, escaped and cut."""
    from inspector.tui.screens.bad_lines import BadLinesScreen
    from inspector.tui.screens.log_line import LogLineScreen
    from inspector.tui.widgets.bad_lines_table import BadLinesTable
    from inspector.tui.widgets.record_strip import RecordStrip
    from inspector.tui.widgets.text_view import SafeTextView
    from support.tui import row_text, select_group

    log = tmp_path / "app.jsonl"
    first = line(id=b'"r-1"', model='"evil\\u001b[31m\u202ex"'.encode(), ts=b'"2026-12-01T10:00:00Z"',
                 extra=b'{"k": 1, "k": 2}', note=b'"' + b"n" * 300 + b'"')
    lines = [first, b"{" + b"a" * 10_000, b"\x1b[2J\xff not json", b"", line(id=b'"r-2"')]
    log.write_bytes(b"\n".join(lines) + b"\n")
    app = make_triage_app(triage_run([str(log)], load_registry(PAYMENTS_REGISTRY), str(PAYMENTS_REGISTRY)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await counted(pilot)
        select_group(screen, "bad")
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, BadLinesScreen)
        table = pilot.app.screen.query_one(BadLinesTable)
        long, hostile, empty = (row_text(table, row) for row in range(3))
        assert " {aaaaaaaaaaaa" in long and long.rstrip().endswith("a…")  # cut to the column
        assert "\\u001b[2J\\xff not json" in hostile and "(empty)" in empty
        text, _ = screen_text_and_styles(pilot.app)
        assert hidden_characters(text) == []
        await pilot.press("escape")
        select_group(screen, "ACCEPT")
        await pilot.press("enter")
        records = pilot.app.screen
        assert isinstance(records, RecordsScreen)
        strip = records.query_one(RecordStrip)
        drawn = [strip.render_line(y).text for y in range(strip.size.height)]
        place = drawn[0].strip()  # a long path cut from the left: its name, line and offset stay
        assert strip.size.height == 2 and place.startswith("…") and f"{log}:1 · offset 0".endswith(place[1:])
        assert "id r-1" in drawn[1] and "model evil\\u001b[31m\\u202ex" in " ".join(drawn) and "more" in drawn[-1]
        text, _ = screen_text_and_styles(pilot.app)
        assert "app.jsonl:1 · offset 0" in text and hidden_characters(text) == []  # in view: no scrolling
        assert "log_line" in {binding.action for _, binding in records._bindings}  # declared: footer, help, docs
        await pilot.press("l")
        shown = pilot.app.screen
        assert isinstance(shown, LogLineScreen)
        view = shown.query_one(SafeTextView)
        rows = [view.render_line(y).text for y in range(view.virtual_size.height)]
        assert '"k": 1,' in " ".join(rows) and '"k": 2' in " ".join(rows)  # the repeated key kept
        assert '"model": "evil\\u001b[31m\\u202ex"' in " ".join(rows)  # the escape as written, U+202E shown so
        text, _ = screen_text_and_styles(pilot.app)
        assert hidden_characters(text) == []
        assert f"{len(first):,} bytes" in text and "re-indented" in text
        await pilot.press("r")
        assert not shown.line.pretty and shown.line.text.encode() == first
        await pilot.press("escape")
        assert pilot.app.screen is records
        await pilot.press("j")
        log.write_bytes(b"")  # rotated away
        await pilot.press("l")
        assert pilot.app.screen is records  # not shown: said
        assert any("the log changed since it was counted" in str(note.message) for note in pilot.app._notifications)


async def test_a_bad_lines_whole_reason_and_whole_line_escaped_and_bounded(tmp_path):
    """Issue 34: the bad lines' view cut reasons, and Enter and l did nothing.  The selected line's
    whole reason is under the list; l (and Enter) show the whole line as l on a record does: escaped,
    the first 64 KiB of a longer one (said), its reason whole above it."""
    from inspector.presentation.records import LINE_BYTES
    from inspector.tui.screens.bad_lines import BadLinesScreen
    from inspector.tui.screens.log_line import LogLineScreen
    from inspector.tui.widgets.bad_lines_table import BadLinesTable
    from inspector.tui.widgets.text_view import SafeTextView

    log = tmp_path / "app.jsonl"
    long = b'{"raw": "' + b"x" * (2 * LINE_BYTES) + b'"}'  # a JSON object without a request
    hostile = b"\x1b]0;owned\x07 \x1b[2J not json" + b" y" * 60
    log.write_bytes(b"\n".join([line(), long, hostile]) + b"\n")
    app = make_triage_app(triage_run([str(log)], load_registry(PAYMENTS_REGISTRY), str(PAYMENTS_REGISTRY)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await counted(pilot)
        select_group(screen, "bad")
        await pilot.press("enter")
        bad = pilot.app.screen
        assert isinstance(bad, BadLinesScreen)
        table = bad.query_one(BadLinesTable)
        reason = table.bad[0][2]
        assert len(reason) > table._widths[2]  # cut in its column...
        assert reason in bad.query_one("#bad-reason").render().plain  # ...whole under the list
        await pilot.press("l")
        shown = pilot.app.screen
        assert isinstance(shown, LogLineScreen)
        assert shown.line.shown == LINE_BYTES and not shown.line.whole  # bounded, and said
        text, _ = screen_text_and_styles(pilot.app)
        assert "the line goes on" in text and "more than 65,536 bytes" in text and reason in text
        await pilot.press("escape")
        assert pilot.app.screen is bad
        await pilot.press("j")
        assert table.bad[1][2] in bad.query_one("#bad-reason").render().plain
        await pilot.press("enter")
        shown = pilot.app.screen
        assert isinstance(shown, LogLineScreen)
        view = shown.query_one(SafeTextView)
        rows = " ".join(view.render_line(y).text for y in range(view.virtual_size.height))
        assert "\\u001b]0;owned\\u0007 \\u001b[2J not json" in rows  # escaped, never acted on
        text, _ = screen_text_and_styles(pilot.app)
        assert hidden_characters(text) == [] and f"{len(hostile):,} bytes" in text
