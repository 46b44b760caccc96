"""Role questions of the knowledge graph ("Who is the branch manager in Houston?"): the
answer is the people the documents record in that role, never everyone the place or
organisation is connected to. The graph has no relation for roles, so a person holds the
role when a passage that mentions them also names it."""

import re
from typing import Any

from retrieval.services import RELATION_WORDS

_ROLE_QUESTION = re.compile(
    r"^\s*who(?:'s|\s+is|\s+are|\s+was|\s+were)\s+(?:the|our|their|its)\s+"
    r"(?P<role>[a-z][a-z\s-]{2,40}?)(?:\s+(?:in|at|of|for|on|from)\s+.+?)?\s*[?.!]*\s*$",
    re.IGNORECASE,
)
# Words that ask for everyone connected, not for a role.
_NOT_ROLES = frozenset({"people", "persons", "person", "ones", "colleagues", "coworkers",
                        "co-workers", "teammates", "team", "others", "members"})  # fmt: skip


def role_asked(question: str) -> str:
    """The role a "who is the <role> ..." question asks for, or ""."""
    match = _ROLE_QUESTION.match(question)
    if match is None:
        return ""
    role = " ".join(match["role"].lower().split())
    if role in _NOT_ROLES or any(word in role for word in RELATION_WORDS):
        return ""
    return role


def holders(role: str, relations: dict[str, Any]) -> set[str]:
    """Names of the people whose passages name the role."""
    pattern = re.compile(r"\b" + r"\s+".join(map(re.escape, role.split())) + r"s?\b", re.I)
    people = {e["name"] for e in relations.get("entities") or [] if e.get("type") == "Person"}
    found: set[str] = set()
    for chunk in relations.get("chunks") or []:
        if pattern.search(str(chunk.get("text") or "")):
            found |= people & set(chunk.get("entities") or [])
    return found


def only_holders(
    role: str, relations: dict[str, Any], facts: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The relations and facts narrowed to the role's holders (empty when no one is)."""
    names = holders(role, relations)
    kept = [e for e in relations.get("entities") or [] if e.get("name") in names]
    related = [r for r in facts.get("related") or [] if r.get("name") in names]
    narrowed_facts = {**facts, "related": related, "facts": [], "paths": []}
    return {**relations, "entities": kept, "found": bool(kept)}, narrowed_facts
