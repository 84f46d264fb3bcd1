"""What changed in how the answers were generated: two runs' generation settings side by side (``--against``).

The count keeps each run's records per combination of the settings they carry
(``tally.SETTINGS``: model, provider, prompt name and version, temperature,
top_p, the token limits, seed, service tier, output schema digest, verifier
version: the canonical record's top-level members, which the formats' presets
fill from the tools' own names).  ``compare_settings(after, before)`` says per
setting the values each run had and how many records had each: the settings
whose values differ first, then those the runs share; a setting no record of
either run carries is left out.  Only when some setting's values differ between
the runs is anything said (two runs generated alike need no such section: their
comparison reads as it did).  Beside them, what verified both runs now: the
verifier's version (``contract.version.VERIFIER``) and the registry's digest.

Pure: no textual, no rich.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .groups import meta_text
from .tally import SETTINGS, Tally

__all__ = ["Setting", "SettingsComparison", "compare_settings", "settings_of"]

SHOWN_VALUES = 20  # values of a setting listed per run, the most records first (the rest summed)


def settings_of(tally: Tally) -> dict[str, dict[str | None, int]]:
    """Per setting, the records per value as shown (``groups.meta_text``; None: the record has none)."""
    found: dict[str, dict[str | None, int]] = {name: {} for name in SETTINGS}
    for joined, count in tally.settings.items():
        for name, member in zip(SETTINGS, joined.split(b"\x00"), strict=True):
            value = meta_text(member) if member else None
            values = found[name]
            values[value] = values.get(value, 0) + count
    return found


@dataclass(frozen=True)
class Setting:
    """One setting in both runs: records per value (None: without it), before and after."""

    name: str
    before: dict[str | None, int]
    after: dict[str | None, int]

    @property
    def differs(self) -> bool:
        """Whether the runs had different values (which values, not how many records each)."""
        return set(self.before) != set(self.after)

    @property
    def mixed(self) -> bool:
        """Whether a run had more than one value (a record without it counts as one)."""
        return len(self.before) > 1 or len(self.after) > 1

    def to_dict(self) -> dict[str, Any]:
        return {"setting": self.name, "differs": self.differs, "mixed": self.mixed,
                "before": _listed(self.before), "after": _listed(self.after)}


def _listed(values: dict[str | None, int]) -> list[dict[str, Any]]:
    ordered = sorted(values.items(), key=lambda item: (-item[1], item[0] is None, item[0] or ""))
    listed: list[dict[str, Any]] = [{"value": value, "records": count} for value, count in ordered[:SHOWN_VALUES]]
    if len(ordered) > SHOWN_VALUES:
        listed.append({"value": None, "other_values": len(ordered) - SHOWN_VALUES,
                       "records": sum(count for _, count in ordered[SHOWN_VALUES:])})
    return listed


@dataclass(frozen=True)
class SettingsComparison:
    """Every setting either run carries, those that differ first; what verified both; the records of
    combinations past ``tally.SETTINGS_KEPT`` (after, before), not in the values."""

    settings: list[Setting]
    verifier: str
    registry_digest: str | None
    other: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {"settings": [setting.to_dict() for setting in self.settings],
                "verified_with": {"verifier": self.verifier, "registry_sha256": self.registry_digest},
                "records_past_bound": {"after": self.other[0], "before": self.other[1]}}


def compare_settings(after: Tally, before: Tally, registry_path: str | None = None) -> SettingsComparison | None:
    """The two runs' settings side by side, or None when neither run counted them (``Options.settings``) or
    no setting's values differ."""
    if not (after.settings or before.settings):
        return None
    from ..contract.version import VERIFIER

    mine, theirs = settings_of(after), settings_of(before)
    found = [Setting(name, theirs[name], mine[name]) for name in SETTINGS
             if set(mine[name]) - {None} or set(theirs[name]) - {None}]
    if not any(setting.differs for setting in found):
        return None
    found.sort(key=lambda setting: not setting.differs)  # stable: SETTINGS' order within each
    return SettingsComparison(found, VERIFIER, _digest(registry_path), (after.settings_other, before.settings_other))


def _digest(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        return None
