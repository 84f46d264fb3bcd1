"""The answer re-indented for the pretty view (``presentation.pretty``): the same
characters, spans mapped into the new text, lenient on broken JSON."""

from __future__ import annotations

from inspector.presentation.pretty import reindent


class TestPretty:
    def test_reindents_keeping_every_token(self):
        raw = '{"claims":[{"field":"a","value":"b\\u0041"}]}'
        pretty = reindent(raw)
        assert pretty is not None
        assert pretty.text == '{\n  "claims": [\n    {\n      "field": "a",\n      "value": "b\\u0041"\n    }\n  ]\n}'
        assert "".join(pretty.text.split()) == raw

    def test_span_maps_into_the_pretty_text(self):
        raw = '{"claims":[{"field":"a"}]}'
        pretty = reindent(raw)
        assert pretty is not None
        start = raw.index('"field"')
        a, b = pretty.span(start, start + len('"field"'))
        assert pretty.text[a:b] == '"field"'

    def test_empty_containers_stay_on_one_line(self):
        pretty = reindent('{"claims": []}')
        assert pretty is not None and pretty.text == '{\n  "claims": []\n}'

    def test_prose_is_left_alone(self):
        assert reindent("The timeout is 5000 ms, retries off.") is None

    def test_trailing_data_is_copied_verbatim(self):
        raw = '{"claims": []} and then, some prose'
        pretty = reindent(raw)
        assert pretty is not None
        assert pretty.text == '{\n  "claims": []\n} and then, some prose'
        start = raw.index("and")
        a, b = pretty.span(start, start + 3)
        assert pretty.text[a:b] == "and"

    def test_broken_json_is_reindented_leniently(self):
        pretty = reindent('{"claims": [{"field": "a",}]')
        assert pretty is not None
        assert pretty.text == '{\n  "claims": [\n    {\n      "field": "a",\n    }\n  ]'

    def test_deep_nesting_stops_indenting(self):
        pretty = reindent("[" * 4000 + "]" * 4000)
        assert pretty is not None
        assert max(len(line) for line in pretty.text.splitlines()) <= 2 * 24 + 2  # the innermost []

    def test_too_long_is_refused(self):
        assert reindent("x" * 11, limit=10) is None
