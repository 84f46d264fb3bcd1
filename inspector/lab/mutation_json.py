"""``inspector mutate --format json`` (schema inspector.mutate/2), written as the mutants come.

The figures head the document, and the mutants it lists (survivors, harmless
mutants rejected, slipped mutants) follow them: while the run verifies its
mutants those wait in a ``Spool`` each, and the document is written once the
counts are known, its lists item by item (``io.json_stream``).  Memory holds the
counts and the spools' few MiB, whatever the number of mutants.
"""

from __future__ import annotations

from ..io.json_stream import Items, Write, write_json
from .mutation_testing import MutationRun, Spool

__all__ = ["write_mutate_json"]


def write_mutate_json(run: MutationRun, write: Write, version: str) -> None:
    """Verify every mutant of ``run`` and write its JSON document with ``write``."""
    with Spool(run.parents) as survivors, Spool(run.parents) as rejected, Spool(run.parents) as slipped:
        for result in run.stream():
            if not result.killed:
                survivors.add(result)
            elif result.mutant.harmless:
                rejected.add(result)
            elif result.slipped:
                slipped.add(result)
        document = run.figures(version)
        document["survivors"] = Items(r.to_dict() | {"harmless": r.mutant.harmless} for r in survivors)
        document["harmless"]["rejected"] = Items(r.to_dict() for r in rejected)
        document["slipped"] = Items(r.to_dict() for r in slipped)
        write_json(write, document)
        write("\n")
