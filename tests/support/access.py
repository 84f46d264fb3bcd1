"""Builders for the tests of access control, the label lens, conflicts, recall and
blame: sources with access metadata, scoped requests, and hypothesis strategies
for whole registries, requests and answers.

Kept apart from the support package's core; the answer and claim
builders there are reused.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from inspector import Registry, Request
from inspector.contract.models import coerce_request

from support import RETRY, TIMEOUT, claim

__all__ = [
    "LIVE",
    "NOW",
    "answer_of",
    "answers",
    "failing_conditions",
    "registries",
    "registry_of",
    "request_of",
    "requests_for",
    "scope",
    "source",
]

NOW = 1500
# Access metadata under which alice (and bob) of tenant-a may read a source at NOW.
LIVE: dict[str, Any] = {"tenant": "tenant-a", "readers": ["alice", "bob"], "approved": True, "deleted": False,
                        "expires_at": 2000}


def source(id: str, *, service: str = "payments", environment: str = "prod", revision: str = "v2",
           facts: dict[str, str] | None = None, text: str | None = None, **access: Any) -> dict[str, Any]:
    """A source as written in a registry file; its text holds the canonical line
    ``field=value`` of every fact unless ``text`` is given."""
    facts = {TIMEOUT: "5000", RETRY: "false"} if facts is None else facts
    if text is None:
        text = f"# {service} {environment} {revision} ({id})\n" + "".join(f"{k}={v}\n" for k, v in facts.items())
    return {"id": id, "service": service, "environment": environment, "revision": revision,
            "facts": facts, "text": text, **access}


def registry_of(*sources: dict[str, Any]) -> Registry:
    return Registry.coerce({"sources": list(sources)})


def scope(tenant: str = "tenant-a", user: str = "alice", now: float = NOW) -> dict[str, Any]:
    return {"tenant": tenant, "user": user, "now": now}


def request_of(*, fields: tuple[str, ...] = (TIMEOUT, RETRY), supplied: tuple[str, ...] = (),
               scope: dict[str, Any] | None = None, service: str = "payments", environment: str = "prod",
               revision: str = "v2") -> Request:
    value: dict[str, Any] = {"service": service, "environment": environment, "revision": revision,
                             "fields": list(fields), "supplied": list(supplied)}
    if scope is not None:
        value["scope"] = scope
    return coerce_request(value)


def answer_of(doc: str, facts: dict[str, str] | None = None) -> str:
    """An answer claiming every fact, with canonical quotes, from one document."""
    facts = {TIMEOUT: "5000", RETRY: "false"} if facts is None else facts
    return json.dumps({"claims": [claim(field, value, doc) for field, value in facts.items()]})


def failing_conditions(source: Any, scope: Any) -> list[str]:
    """The access conditions a source fails for a scope, in the issue's words and
    order (tenant equals, approved is true, not deleted, expires after now, user
    among readers; missing metadata fails).  Written from the issue, not from
    inspector.contract.access, to check that module against."""
    failing = []
    if source.tenant is None or source.tenant != scope.tenant:
        failing.append("tenant")
    if source.approved is not True:
        failing.append("approved")
    if source.deleted is not False:
        failing.append("deleted")
    if source.expires_at is None or not source.expires_at > scope.now:
        failing.append("expires_at")
    if source.readers is None or scope.user not in source.readers:
        failing.append("readers")
    return failing


# -- hypothesis strategies ---------------------------------------------------------

FIELDS = (TIMEOUT, RETRY, "max_connections")
VALUES = ("5000", "false", "50")
IDS = ("s0", "s1", "s2", "s3", "s4")
GHOST = "ghost-doc"
SERVICES = ("payments", "billing")
ENVIRONMENTS = ("prod", "dev")
REVISIONS = ("v1", "v2")
TENANTS = ("tenant-a", "tenant-b")
USERS = ("alice", "bob")
TIMES = (1000, 1500, 2000)


# The strategies that depend on nothing drawn, built once: hypothesis checks a
# strategy object the first time it draws from it, and a composite building
# them anew paid that on every draw.
_FACTS = st.dictionaries(st.sampled_from(FIELDS), st.sampled_from(VALUES), max_size=3)
_ACCESS = (("tenant", st.sampled_from(TENANTS)), ("readers", st.lists(st.sampled_from(USERS), max_size=2, unique=True)),
           ("approved", st.booleans()), ("deleted", st.booleans()), ("expires_at", st.sampled_from(TIMES)))
_FIELD_LISTS = st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3, unique=True)


@st.composite
def _source(draw: st.DrawFn, id: str) -> dict[str, Any]:
    facts = draw(_FACTS)
    # Usually every fact's canonical line is in the text; sometimes one is left out
    # or another line (a wrong value for a real field) is added.
    lines = [f"{k}={v}" for k, v in facts.items() if draw(st.integers(0, 5))]
    if draw(st.booleans()):
        lines.append(f"{draw(st.sampled_from(FIELDS))}={draw(st.sampled_from(VALUES))}")
    access: dict[str, Any] = {}
    for key, values in _ACCESS:
        # Mostly present (and mostly permissive), sometimes missing.
        if draw(st.integers(0, 5)):
            access[key] = draw(values)
    return source(id, service=draw(st.sampled_from(SERVICES)), environment=draw(st.sampled_from(ENVIRONMENTS)),
                  revision=draw(st.sampled_from(REVISIONS)), facts=facts,
                  text="# header\n" + "\n".join(lines) + "\n", **access)


@st.composite
def registries(draw: st.DrawFn) -> dict[str, Any]:
    ids = draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=len(IDS), unique=True))
    return {"sources": [draw(_source(id)) for id in ids]}


@st.composite
def requests_for(draw: st.DrawFn, registry: dict[str, Any], scoped: bool | None = None) -> dict[str, Any]:
    ids = [s["id"] for s in registry["sources"]]
    value: dict[str, Any] = {
        "service": draw(st.sampled_from(SERVICES)),
        "environment": draw(st.sampled_from(ENVIRONMENTS)),
        "revision": draw(st.sampled_from(REVISIONS)),
        "fields": draw(_FIELD_LISTS),
        "supplied": draw(st.lists(st.sampled_from((*ids, GHOST)), max_size=len(ids) + 1, unique=True)),
    }
    if scoped if scoped is not None else draw(st.booleans()):
        value["scope"] = {"tenant": draw(st.sampled_from(TENANTS)), "user": draw(st.sampled_from(USERS)),
                          "now": draw(st.sampled_from(TIMES))}
    return value


@st.composite
def answers(draw: st.DrawFn, registry: dict[str, Any], max_claims: int = 4) -> str:
    """An answer's JSON text: claims citing registry ids or an unknown one, with
    right or wrong values and canonical quotes, other genuine lines or made-up ones."""
    sources = registry["sources"]
    ids = [s["id"] for s in sources]
    lines = [line for s in sources for line in s["text"].splitlines() if line]
    claims = []
    for _ in range(draw(st.integers(0, max_claims))):
        doc = draw(st.sampled_from((*ids, GHOST)))
        field = draw(st.sampled_from((*FIELDS, "colour")))
        facts = next((s["facts"] for s in sources if s["id"] == doc), {})
        value = draw(st.sampled_from(VALUES)) if field not in facts or draw(st.booleans()) else facts[field]
        quote = draw(st.one_of(st.just(f"{field}={value}"), st.sampled_from(lines or ["x=y"]),
                               st.just("not in any text")))
        claims.append(claim(field, value, doc, quote))
    return json.dumps({"claims": claims})
