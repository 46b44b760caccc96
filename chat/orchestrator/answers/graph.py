"""The answer to a knowledge-graph question, from `entity_query` (relations of one entity)
and/or `knowledge_graph` (facts, paths and neighbours). Without an LLM it lists what the
graph states, each statement cited to a chunk that says it; with one, the model writes a
grounded answer from those facts and chunks."""

import re
from collections.abc import Sequence
from typing import Any

from chat.models import Route
from chat.orchestrator.answers import elsewhere, roles
from chat.orchestrator.answers.common import ModelUnavailable, answer, send_lines, send_text
from chat.orchestrator.answers.documents import model_text
from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.documents import sources_from_chunks
from chat.orchestrator.tools.graph import readable_collections
from core.providers import llm
from retrieval.services import KeywordEvidence

NOTHING_FOUND = "The knowledge graph you can read names nothing this question asks about."
MAX_LISTED = 12


def relation_words(kind: str) -> str:
    """WORKED_WITH -> "worked with"."""
    return kind.replace("_", " ").lower()


def _chunk_ids(relations: dict[str, Any], facts: dict[str, Any]) -> list[str]:
    ids = [c["chunk_id"] for c in relations.get("chunks") or []]
    ids += [c["chunk_id"] for c in facts.get("chunks") or []]
    return list(dict.fromkeys(ids))


class Citations:
    """Finds the source that states something: a chunk whose text names all the names."""

    def __init__(self, sources: Sequence[dict[str, Any]], texts: dict[str, str]) -> None:
        self.sources = sources
        self.texts = {k: v.lower() for k, v in texts.items()}
        self.used: list[int] = []

    def __call__(self, *names: str) -> str:
        wanted = [n.lower() for n in names if n]
        for source in self.sources:
            text = self.texts.get(source["chunk_id"], "")
            if wanted and all(n in text for n in wanted):
                if source["n"] not in self.used:
                    self.used.append(source["n"])
                return f" [{source['n']}]"
        return ""


def _chain(start: str, path: Sequence[dict[str, Any]], names: dict[str, str]) -> str:
    """Alexis Torres — works for → TechCorp ← works for — Will Patterson (as stated)."""
    current = start
    text = names.get(start, start)
    for step in path:
        forward = step["source_id"] == current
        current = step["target_id"] if forward else step["source_id"]
        name = names.get(current, current.rsplit(":", 1)[-1])
        words = relation_words(step["type"])
        text += f" — {words} → {name}" if forward else f" ← {words} — {name}"
    return text


def _relation_lines(relations: dict[str, Any], cite: Citations) -> list[str]:
    source = relations.get("source") or {}
    entities = relations.get("entities") or []
    names = {e["id"]: e["name"] for e in entities}
    names[source.get("id", "")] = source.get("name", "")
    lines = []
    for entity in entities[:MAX_LISTED]:
        chain = _chain(source.get("id", ""), entity.get("path") or [], names)
        citation = cite(source.get("name", ""), entity["name"]) or cite(entity["name"])
        lines.append(f"- **{entity['name']}** ({entity['type']}): {chain}{citation}")
    return lines


def _fact_line(fact: dict[str, Any], cite: Citations) -> str:
    return (
        f"- {fact['source_name']} — {relation_words(fact['type'])} → {fact['target_name']}"
        + cite(fact["source_name"], fact["target_name"])
    )


def _graph_lines(facts: dict[str, Any], cite: Citations) -> list[str]:
    lines = [_fact_line(f, cite) for f in (facts.get("facts") or [])[:MAX_LISTED]]
    for path in facts.get("paths") or []:
        if path:
            hops = [path[0]["source_name"]]
            hops += [f"{relation_words(s['type'])} {s['target_name']}" for s in path]
            lines.append("- Path: " + " → ".join(hops))
    related = [r["name"] for r in (facts.get("related") or [])[:MAX_LISTED]]
    if related:
        lines.append("- Mentioned together with: " + ", ".join(related))
    return lines


def _facts_text(relations: dict[str, Any], facts: dict[str, Any]) -> str:
    """The graph's statements as plain lines, for the model's prompt."""
    cite = Citations([], {})
    lines = _relation_lines(relations, cite) if relations.get("found") else []
    lines += _graph_lines(facts, cite)
    return "Facts from the knowledge graph:\n" + "\n".join(lines) if lines else ""


def write_graph_answer(
    question: str,
    ctx: RunContext,
    *,
    relations: dict[str, Any] | None = None,
    facts: dict[str, Any] | None = None,
    tried: dict[str, Any] | None = None,
    routed: str = "",
) -> dict[str, Any]:
    relations, facts = relations or {}, facts or {}
    role = roles.role_asked(question)
    if role:
        relations, facts = roles.only_holders(role, relations, facts)
    collections = readable_collections(ctx, {})
    sources = sources_from_chunks(_chunk_ids(relations, facts), collection_ids=collections)
    texts = {
        s["chunk_id"]: t for s, t in zip(sources, _texts(relations, facts, sources), strict=True)
    }
    data: dict[str, Any] = {
        "source": relations.get("source"),
        "entities": facts.get("entities") or [],
        "facts": facts.get("facts") or [],
        "paths": facts.get("paths") or [],
        "related": facts.get("related") or [],
        "relations": relations.get("entities") or [],
        "cypher": facts.get("cypher"),
        "method": facts.get("method"),
    }
    found = bool(relations.get("entities") or facts.get("facts") or facts.get("paths")
                 or facts.get("related"))  # fmt: skip
    if role:
        data["role"] = role
    # Words no readable document holds ("unicorns") are nothing the graph can speak to:
    # the neighbours of the other words it names would not answer the question.
    data["unknown_words"] = (
        unknown_words(ctx.analysis.keywords(question, collections)) if found else []
    )
    if not found or data["unknown_words"]:
        return _nothing(ctx, data, role=role, tried=tried or {}, routed=routed)
    if unlinked := _unlinked(question, relations, facts):
        data["unlinked"] = list(unlinked)
        return _nothing(ctx, data, role=role, tried=tried or {}, routed=routed)
    declined = elsewhere.database_declined(tried or {})
    prefix = send_text(ctx, [f"{declined} The knowledge graph says:\n\n"]) if declined else ""
    cited: list[dict[str, Any]] = []
    text = ""
    if llm.llm_configured() and sources:
        results = [{"text": texts[s["chunk_id"]]} for s in sources]
        try:
            text, cited, _ = model_text(
                ctx, question, results, sources, extra=_facts_text(relations, facts)
            )
            data["writer"] = "llm"
        except ModelUnavailable as error:
            data["llm_error"] = str(error)
    if not text:
        cite = Citations(sources, texts)
        lines: list[str] = []
        if relations.get("found") and relations.get("entities"):
            source = relations["source"]
            lines.append(f"**{source['name']}** ({source['type']}) is connected to:")
            lines += _relation_lines(relations, cite)
        graph_lines = _graph_lines(facts, cite)
        if graph_lines:
            named = ", ".join(e["name"] for e in facts.get("entities") or [])
            lines += [""] if lines else []
            lines += [f"What the graph states about {named}:", *graph_lines]
        text = send_lines(ctx, lines)
        cited = [s for s in sources if s["n"] in cite.used]
        data["writer"] = "extractive"
    if cited:
        ctx.send("sources", sources=cited)
    return answer(route=Route.GRAPH, content=prefix + text, sources=cited, data=data)


def _nothing(
    ctx: RunContext, data: dict[str, Any], *, role: str, tried: dict[str, Any], routed: str
) -> dict[str, Any]:
    """Says the graph does not answer, and why when it can: no one holds the role asked
    for, or the question names something no readable document mentions."""
    said = NOTHING_FOUND
    if data["unknown_words"]:
        words = ", ".join(repr(w) for w in data["unknown_words"][:3])
        said = f"None of the documents you can read mentions {words}."
    elif data.get("unlinked"):
        first, second = data["unlinked"]
        said = (
            f"The knowledge graph you can read records nothing that links {first} to "
            f"{second} directly, so it does not answer this. Ask about {first} or "
            f"{second} alone to see what it records about each."
        )
    elif role:
        said = f"The knowledge graph you can read records no one as {role}."
    notes = elsewhere.notes(tried, answering=Route.GRAPH)
    text = send_text(ctx, [said, *(f" {note}" for note in notes)])
    outcome = elsewhere.unanswered(routed or Route.GRAPH)
    return answer(route=Route.GRAPH, content=text, data=data, outcome=outcome)


# Named in the same passage, which may be about something else: no statement of a link.
CO_MENTION = "MENTIONED_WITH"
# A question about how two things are connected asks for the paths between them.
_HOW_CONNECTED = re.compile(
    r"\b(?:connect\w*|relat\w*|link\w*|in common|each other|between|path)\b", re.IGNORECASE
)


def _unlinked(
    question: str, relations: dict[str, Any], facts: dict[str, Any]
) -> tuple[str, str] | None:
    """Two things the question names ("What did Sarah Chen work on in Project Kestrel?")
    that no statement links directly: the first one's neighbourhood, a path through others
    or a passage that names both does not answer a question about both."""
    named = _named_in(question, facts.get("entities") or [])
    if len(named) < 2 or _HOW_CONNECTED.search(question):
        return None
    ids = {named[0]["id"], named[1]["id"]}
    if any(
        {f["source"], f["target"]} == ids and f["type"] != CO_MENTION
        for f in facts.get("facts") or []
    ):
        return None
    if (relations.get("source") or {}).get("id") in ids and any(
        e["id"] in ids
        and [step["type"] for step in e.get("path") or []] not in ([], [CO_MENTION])
        and len(e.get("path") or []) == 1
        for e in relations.get("entities") or []
    ):
        return None
    return named[0]["name"], named[1]["name"]


def _named_in(question: str, entities: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entities whose names the question writes out, in its order; a name inside
    another one's ("Kestrel" in "Project Kestrel") is that one."""
    text = question.lower()
    written = [e for e in entities if e.get("name") and e["name"].lower() in text]
    names = [e["name"].lower() for e in written]
    kept = [
        e
        for e in written
        if not any(e["name"].lower() in other and e["name"].lower() != other for other in names)
    ]
    unique = {e["id"]: e for e in kept}.values()
    return sorted(unique, key=lambda e: text.index(e["name"].lower()))


def unknown_words(keywords: KeywordEvidence | None) -> list[str]:
    """The question's keywords no readable chunk holds."""
    if keywords is None:
        return []
    return [term for term in keywords.terms if not keywords.frequencies.get(term)]


def _texts(
    relations: dict[str, Any], facts: dict[str, Any], sources: Sequence[dict[str, Any]]
) -> list[str]:
    full = {c["chunk_id"]: c["text"] for c in relations.get("chunks") or []}
    full.update({c["chunk_id"]: c["text"] for c in facts.get("chunks") or []})
    return [full.get(s["chunk_id"], s["snippet"]) for s in sources]
