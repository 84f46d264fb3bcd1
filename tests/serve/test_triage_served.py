"""``inspector serve triage LOG --registry G``: the triage's overview served, as
``inspector triage`` shows it (the groups counted and drawn), its arguments
checked by triage itself before anything listens."""

from __future__ import annotations

import aiohttp
import pytest

from support.serve import read_until, start_server

pytestmark = pytest.mark.xdist_group("browser")


async def test_the_overview_of_a_log_is_served() -> None:
    served = start_server("triage", "fixtures/logs/sample.jsonl", "--registry", "fixtures/logs/sample-registry.json",
                          "--by", "model")
    try:
        async with aiohttp.ClientSession(cookies=served.cookie) as client:
            async with client.ws_connect(f"{served.websocket}?width=160&height=40") as socket:
                drawn = await read_until(socket, "reason:NO_CITATION/QUOTE_NOT_FOUND")
                assert "VALUE_MISMATCH" in drawn
    finally:
        status, said = served.stop()
    assert status == 0, said
