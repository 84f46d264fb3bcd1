"""Logs as the tools teams already use write them: OpenAI, Langfuse, Phoenix,
OpenTelemetry, Inspect, promptfoo, LangSmith (``--log-format NAME``), and a team's
own mapping (``--log-format FILE.toml``).

``paths``: where a member is (dotted paths and pointers, ``|json``, ``[key=value]``,
``[*]``); ``spec``: a format and the conversion of one foreign record into the
canonical record the triage counts; ``reading``: lines read through a format;
``sources``: documents and zips read record by record in bounded memory;
``stage``: formats whose records are not one a line, turned into canonical lines
before counting.  Pure: no textual, no rich.
"""
