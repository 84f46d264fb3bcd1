"""The triage's HTML report on items and trials (inspector.html.triage): the items' stability, and with
--against how the answers were generated and the items paired, drawn from the figures the JSON of the same
run has (not hard-coded here); an item id holding markup and control characters shown, not interpreted; a
run naming no item has none of these sections."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from inspector.contract.text import visible

from support import run_main
from support.hostile_html import CONTROL, SCRIPT, assert_inert

ITEMS, TRIALS = 12, 4
HOSTILE_ITEM = SCRIPT + CONTROL


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``inspector synth --items --trials``: before (seed 1), after (seed 2, llama-z worse); their copies
    generated otherwise (temperature, one in four at 0.7 after) and with one item renamed to markup and
    control characters; and two logs naming no item."""
    folder = tmp_path_factory.mktemp("items-html")
    found = {"registry": folder / "registry.json", "before": folder / "before.jsonl", "after": folder / "after.jsonl",
             "plain_before": folder / "plain-before.jsonl", "plain_after": folder / "plain-after.jsonl"}
    for args in ((found["before"], "--items", ITEMS, "--trials", TRIALS, "--seed", 1,
                  "--registry", found["registry"]),
                 (found["after"], "--items", ITEMS, "--trials", TRIALS, "--seed", 2, "--worse", "llama-z:0.5"),
                 (found["plain_before"], "--lines", 200, "--seed", 1),
                 (found["plain_after"], "--lines", 200, "--seed", 2)):
        status, _, err = run_main(None, "synth", *args)
        assert status == 0, err
    for side, temperature in (("before", lambda n: 0.0), ("after", lambda n: 0.7 if n % 4 else 0.0)):
        records = [json.loads(line) for line in found[side].read_text("utf-8").splitlines()]
        for number, record in enumerate(records):
            record["temperature"] = temperature(number)
            if record["item"] == "item-000002":
                record["item"] = HOSTILE_ITEM
        found[f"{side}_changed"] = path = folder / f"{side}-changed.jsonl"
        path.write_text("".join(json.dumps(record) + "\n" for record in records), "utf-8")
    return found


def triage(runs: dict[str, Path], log: str, *args: Any, form: str = "html") -> Any:
    status, out, err = run_main(None, "triage", runs[log], "--registry", runs["registry"], "--format", form, *args)
    assert status in (0, 1), err
    return json.loads(out) if form == "json" else out


class _Tables(HTMLParser):
    """Each table's rows (of cells' text), under the heading last seen before it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[str]]] = {}
        self.heading = ""
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.in_heading = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("h2", "h3"):
            self.heading, self.in_heading = "", True
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h2", "h3"):
            self.in_heading = False
        elif tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append("".join(self.cell))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.tables.setdefault(self.heading, []).append(self.row)
            self.row = None

    def handle_data(self, data: str) -> None:
        if self.in_heading:
            self.heading += data
        if self.cell is not None:
            self.cell.append(data)


def tables(page: str) -> dict[str, list[list[str]]]:
    """The page's tables by their section's heading (two tables under one heading: their rows one after the
    other, each with its header row)."""
    reading = _Tables()
    reading.feed(page)
    return reading.tables


def share(rate: float) -> str:
    return f"{rate:.1%}"


def test_the_items_and_their_trials_are_the_json_s(runs: dict[str, Path]) -> None:
    document = triage(runs, "after", "--by", "model", form="json")["stability"]
    page = triage(runs, "after", "--by", "model")
    shown = assert_inert(page)
    assert f"an item: {document['item']}" in shown
    rows = tables(page)["Items and their trials"]
    ks = sorted(document["groups"][0]["pass_at_k"], key=int)
    assert rows[0] == ["group", "items", "trials", "accepted", "unstable items", "distinct verdicts",
                       *(f"pass@{k}" for k in ks), *(f"pass^{k}" for k in ks if k != "1")]
    assert ks == ["1", "2", "4"]  # every k up to the trials
    assert len(rows) == 1 + 1 + 3  # all, then each model
    for row, group in zip(rows[1:], document["groups"], strict=True):
        assert row == [group["group"], f"{group['items']:,}", f"{group['trials']:,}", share(group["accepted_rate"]),
                       f"{group['unstable_items']:,} ({share(group['unstable_rate'])})",
                       " · ".join(f"{seen}: {count:,}" for seen, count in group["distinct_verdicts"].items()),
                       *(share(group["pass_at_k"][k]) for k in ks),
                       *(share(group["pass_hat_k"][k]) for k in ks if k != "1")], group["group"]
        assert share(group["pass_at_1"]) == row[6]


def test_against_the_settings_then_the_items_paired_are_the_json_s(runs: dict[str, Path]) -> None:
    args = ("--by", "model", "--against", runs["before_changed"])
    document = triage(runs, "after_changed", *args, form="json")["comparison"]
    page = triage(runs, "after_changed", *args)
    shown = assert_inert(page)
    found = tables(page)
    # how the answers were generated: first in the comparison, the settings that differ with their records
    assert shown.index("How the answers were generated") < shown.index("Item by item") < shown.index("Group by group")
    assert shown.index("Against ") < shown.index("How the answers were generated")

    def values(listed: list[dict[str, Any]]) -> str:
        return ", ".join(f"{'(none)' if entry['value'] is None else entry['value']} ({entry['records']:,})"
                         for entry in listed)

    differing = [setting for setting in document["settings"]["settings"] if setting["differs"]]
    assert [setting["setting"] for setting in differing] == ["temperature"]
    assert found["How the answers were generated"] == [
        ["setting (differs)", "before", "after"],
        *([setting["setting"], values(setting["before"]), values(setting["after"])] for setting in differing)]
    the_same = [setting for setting in document["settings"]["settings"] if not setting["differs"]]
    assert the_same  # model and prompt_version: said in one muted line, after
    muted = page[page.index("<h3>How the answers were generated"):page.index("<h3>Item by item")]
    line = muted[muted.index('<p class="muted">the same in both'):]
    for setting in the_same:
        assert setting["setting"] in line
    assert f"verified now by {document['settings']['verified_with']['verifier']}" in shown

    # item by item: per population the paired outcomes and McNemar's p, as the JSON has them
    items = document["items"]
    rows = found["Item by item"]
    header = rows.index(["before", "after", "kind", "items", "first items"])
    populations, flips = rows[1:header], rows[header + 1:]
    assert len(populations) == len(items["populations"]) == 4  # all, then each model
    for row, population in zip(populations, items["populations"], strict=True):
        p = population["p"]
        assert row == [population["group"], f"{population['paired']:,}", f"{population['accepted_both']:,}",
                       f"{population['accepted_before_only']:,}", f"{population['accepted_after_only']:,}",
                       f"{population['accepted_neither']:,}",
                       f"{share(population['accepted_rate_before'])} → {share(population['accepted_rate_after'])}",
                       f"{p:.4f}" if p >= 0.0001 else "<0.0001",
                       f"{population['only_before']:,} before, {population['only_after']:,} after"]
    # the flip table: the overall population's, regressions first and marked as worse changes are
    overall = items["populations"][0]["flips"]
    assert [row[:4] for row in flips] == [[flip["before"], flip["after"], flip["kind"], f"{flip['items']:,}"]
                                          for flip in overall]
    assert overall[0]["kind"] == "regressed"
    for row, flip in zip(flips, overall, strict=True):
        assert row[4].startswith(visible(", ".join(flip["first_items"][:5])))  # as shown: invisibles escaped
    regressions = sum(1 for flip in overall if flip["kind"] == "regressed")
    assert page.count('<b class="bad">regressed</b>') == regressions > 0
    changed = sum(flip["items"] for flip in overall if flip["kind"] != "same")
    assert f"{changed:,} of {items['populations'][0]['paired']:,} paired item(s) flipped" in shown

    # group by group: a --by value's rate change with its own paired items beside it, as the JSON's group says
    groups = found["Group by group"]
    column = groups[0].index("items lost, gained")
    listed = {group["group"]: group for group in document["groups"]}
    for row in groups[1:]:
        if row[0] not in listed:  # "… N more"
            continue
        paired = listed[row[0]].get("paired_items")
        if paired is None:
            assert row[column] == ""
        else:
            p = paired["p"]
            assert row[column] == (f"-{paired['accepted_before_only']:,} +{paired['accepted_after_only']:,} of "
                                   f"{paired['paired']:,}, p {f'{p:.4f}' if p >= 0.0001 else '<0.0001'}")
    assert any(row[0] == "model=llama-z" and row[column] for row in groups[1:])  # the model made worse has it


def test_an_item_id_holding_markup_and_control_characters_is_shown_escaped(runs: dict[str, Path]) -> None:
    page = triage(runs, "after_changed", "--against", runs["before_changed"])
    shown = assert_inert(page)  # no element or attribute of the id's, no control character
    assert "\\u001b]52;c;b3duZWQ=\\u0007\\u202e" in shown  # its control characters made visible
    flips = json.loads(run_main(None, "triage", runs["after_changed"], "--registry", runs["registry"], "--format",
                                "json", "--against", runs["before_changed"])[1])["comparison"]["items"]
    named = [flip for flip in flips["populations"][0]["flips"] if HOSTILE_ITEM in flip["first_items"][:5]]
    assert named  # the item is in a flip's first items: shown there, as text
    assert SCRIPT in shown and "<script>" not in page


@pytest.mark.parametrize(("log", "against"), [("plain_after", "plain_before"), ("after", None)],
                         ids=["no-item", "items-no-against"])
def test_no_empty_sections(runs: dict[str, Path], log: str, against: str | None) -> None:
    """Logs naming no item: none of the sections; a run of items without --against: its trials only."""
    page = triage(runs, log, *(("--against", runs[against]) if against else ()))
    shown = assert_inert(page)
    for title in ("How the answers were generated", "Item by item", "Group by group"):
        assert title not in shown
    assert ("Items and their trials" in shown) is (against is None)
    if against:
        assert "significant change(s) first" in shown  # the comparison as it was


def test_runs_generated_alike_say_no_settings(runs: dict[str, Path]) -> None:
    shown = assert_inert(triage(runs, "after", "--against", runs["before"]))
    assert "Item by item" in shown and "How the answers were generated" not in shown
