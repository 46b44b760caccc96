"""Entities and relations from the configured LLM, following the admin-edited schema."""

import json
import logging
import re
from typing import Any

from core.providers import llm

from .offline import extract_offline
from .schema import active_schema
from .types import ChunkInput, ExtractedRelation, Extraction

log = logging.getLogger(__name__)

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)

SYSTEM = (
    "You extract a knowledge graph from document text. Answer with one JSON object and "
    "nothing else."
)


def build_prompt(
    *,
    title: str,
    chunk: ChunkInput,
    entity_types: list[dict[str, Any]],
    relation_types: list[dict[str, Any]],
    instructions: str,
) -> str:
    entity_lines = "\n".join(f"- {t['label']}: {t.get('description', '')}" for t in entity_types)
    relation_lines = "\n".join(
        f"- {t['type']} ({t.get('source', 'any')} -> {t.get('target', 'any')}): "
        f"{t.get('description', '')} properties: {', '.join(t.get('properties', [])) or 'none'}"
        for t in relation_types
    )
    return (
        f"Entity types:\n{entity_lines}\n\nRelation types:\n{relation_lines}\n\n"
        f"{instructions}\n\n"
        'Return {"entities": [{"name": str, "type": str, "aliases": [str], '
        '"confidence": float}], "relations": [{"source": str, "type": str, "target": str, '
        '"properties": {}, "confidence": float}]} using only the types above.\n\n'
        f"Document: {title}\nSection: {chunk.header_path or '(none)'}\n"
        f"Text:\n{chunk.text}"
    )


def parse_answer(text: str) -> dict[str, Any]:
    body = _FENCE.sub("", text.strip())
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end < start:
        raise ValueError("no JSON object in the answer")
    data = json.loads(body[start : end + 1])
    if not isinstance(data, dict):
        raise ValueError("the answer is not a JSON object")
    return data


def _confidence(value: Any, default: float) -> float:
    try:
        return max(0.0, min(1.0, float(value)))
    except (TypeError, ValueError):
        return default


def extract_llm(*, title: str, chunks: list[ChunkInput], file_name: str = "") -> Extraction:
    entity_types, relation_types, instructions = active_schema()
    labels = {str(t["label"]) for t in entity_types}
    relation_names = {str(t["type"]) for t in relation_types}
    result = Extraction(source="llm")
    names: dict[str, str] = {}  # any spelling -> entity key, across the document
    pending: list[tuple[int, dict[str, Any]]] = []
    for chunk in chunks:
        prompt = build_prompt(
            title=title,
            chunk=chunk,
            entity_types=entity_types,
            relation_types=relation_types,
            instructions=instructions,
        )
        answer = llm.complete(
            [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
        )
        try:
            data = parse_answer(answer.text)
        except (ValueError, json.JSONDecodeError) as exc:
            # One unreadable answer should not lose the chunk's entities.
            log.warning("LLM extraction answer unreadable (%s); offline extractor used", exc)
            fallback = extract_offline(title=title, chunks=[chunk], file_name=file_name)
            _keep_offline(result, fallback, labels, names)
            continue
        _add_entities(result, chunk.index, data.get("entities") or [], labels, names)
        pending.extend((chunk.index, r) for r in data.get("relations") or [] if isinstance(r, dict))

    _merge_short_person_names(result, names)
    for chunk_index, item in pending:
        relation = _relation(chunk_index, item, relation_names, names)
        if relation is not None:
            result.relate(relation)
    result.relations = [
        r for r in result.relations if r.source in result.entities and r.target in result.entities
    ]
    return result


def _keep_offline(
    result: Extraction, fallback: Extraction, labels: set[str], names: dict[str, str]
) -> None:
    """The offline extractor's entities of the schema's types, in place of the answer."""
    for entity in fallback.entities.values():
        if entity.type in labels:
            kept = result.add(entity.type, entity.name)
            for mention in entity.mentions:
                kept.mention(mention.chunk_index, mention.surface, mention.confidence)
            names.setdefault(entity.name.lower(), kept.key)


def _add_entities(
    result: Extraction,
    chunk_index: int,
    items: list[Any],
    labels: set[str],
    names: dict[str, str],
) -> None:
    for item in items:
        if not isinstance(item, dict) or str(item.get("type")) not in labels:
            continue
        name = str(item.get("name") or "").strip()
        if not name:
            continue
        entity = result.add(str(item["type"]), name)
        entity.mention(chunk_index, name, _confidence(item.get("confidence"), 0.9))
        for alias in item.get("aliases") or []:
            if isinstance(alias, str) and alias.strip():
                entity.aliases.add(alias.strip())
                names.setdefault(alias.strip().lower(), entity.key)
        names.setdefault(name.lower(), entity.key)


def _relation(
    chunk_index: int, item: dict[str, Any], relation_names: set[str], names: dict[str, str]
) -> ExtractedRelation | None:
    """A relation of the answer between entities it named, if its type is in the schema."""
    kind = str(item.get("type"))
    source = names.get(str(item.get("source", "")).strip().lower())
    target = names.get(str(item.get("target", "")).strip().lower())
    if kind not in relation_names or not source or not target:
        return None
    raw = item.get("properties")
    props = {
        str(k): v
        for k, v in (raw.items() if isinstance(raw, dict) else [])
        if isinstance(v, str | int | float)
    }
    return ExtractedRelation(
        source, target, kind, _confidence(item.get("confidence"), 0.8), chunk_index, props
    )


def _merge_short_person_names(result: Extraction, names: dict[str, str]) -> None:
    """ "Alexis" and "Torres" fold into "Alexis Torres" when only one full name fits."""
    people = [e for e in result.entities.values() if e.type == "Person"]
    full = [e for e in people if " " in e.name]
    for short in [e for e in people if " " not in e.name]:
        owners = [f for f in full if short.name in (f.name.split()[0], f.name.split()[-1])]
        if len(owners) != 1:
            continue
        owner = owners[0]
        for mention in short.mentions:
            owner.mention(mention.chunk_index, mention.surface, mention.confidence)
        owner.aliases |= short.aliases | {short.name}
        del result.entities[short.key]
        for spelling, key in list(names.items()):
            if key == short.key:
                names[spelling] = owner.key
