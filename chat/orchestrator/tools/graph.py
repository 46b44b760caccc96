"""Tools over the knowledge graph, each limited to what the asking person may read.

`entity_query`: who or what is related to an entity.
  Input: {"entity"?: name or graph id, "question"?: str (default: the question asked; names
  the entity when none is given, else narrows the relations followed: "worked with", "who"),
  "relationship_types"?: [str], "context"?: [names],
  "max_hops"?: 1..3 (2), "max_chunks"?: int (15), "collection"?}.
  Output: {"found": bool, "source", "context", "entities": [{id, name, type, hops, path,
  statements}], "chunks": [{chunk_id, document_id, file_name, file_path, chunk_index, text,
  entities, states_relation}]}.
`knowledge_graph`: a question answered from the entity graph (a checked, read-only query
  written by the LLM when one is configured; evidence queries otherwise).
  Input: {"question"?: str, "collection"?}.
  Output: GraphAnswer.as_dict(): {question, entities, method, cypher, cypher_error, facts,
  paths, related, chunks, images, token_usage}.
`graph_schema`: the labels and relationship types of the reader's part of the graph.
  Input: {"collection"?}. Output: {"nodes": {label: count}, "entity_types": {type: count},
  "relationships": {type: count}}.
"""

import re
from typing import Any

from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.documents import GRAPH_ERRORS
from chat.orchestrator.tools.registry import ToolError, ToolUnavailable, register, whole_number
from retrieval.services import (
    EntityQueryError,
    SearchError,
    answer_graph_question,
    answer_relationship_question,
    graph_summary,
    relationship_types_in,
    resolve_scope,
    retrieve_by_relationship,
)

_ASKS_FOR_PEOPLE = re.compile(r"\s*(who|whom|which (people|person|colleagues))\b", re.IGNORECASE)
GRAPH_UNAVAILABLE = "The knowledge graph cannot be reached right now; try again in a moment."


def readable_collections(ctx: RunContext, inputs: dict[str, Any]) -> tuple[int, ...]:
    try:
        scope = resolve_scope(ctx.user, collection=inputs.get("collection") or None)
    except SearchError as error:
        raise ToolError(str(error)) from error
    return scope.collection_ids


def _names(value: Any, key: str) -> list[str]:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ToolError(f"{key}: a name or a list of names")


@register(
    "entity_query",
    "Entities related to a named entity in the knowledge graph (who worked with whom, "
    "where, on what); inputs: entity or question, relationship_types, context, max_hops.",
)
def entity_relations(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    collections = readable_collections(ctx, inputs)
    entity = str(inputs.get("entity") or "").strip()
    question = str(inputs.get("question") or ctx.question or "").strip()
    hops, chunks = whole_number(inputs, "max_hops"), whole_number(inputs, "max_chunks")
    max_hops = 2 if hops is None else hops
    max_chunks = 15 if chunks is None else chunks
    empty: dict[str, Any] = {"found": False, "source": None, "context": [], "entities": [],
                             "chunks": []}  # fmt: skip
    if not collections:
        return empty
    try:
        if entity:
            # The question's words narrow what is followed: "worked with" -> WORKED_WITH,
            # and "who" asks for people.
            types = _names(inputs.get("relationship_types"), "relationship_types")
            result = retrieve_by_relationship(
                entity,
                collection_ids=collections,
                relationship_types=types or relationship_types_in(question) or None,
                max_hops=max_hops,
                max_chunks=max_chunks,
                context=_names(inputs.get("context"), "context"),
                target_types=["Person"] if _ASKS_FOR_PEOPLE.match(question) else None,
            )
        elif question:
            found = answer_relationship_question(
                question,
                collection_ids=collections,
                max_hops=max_hops,
                max_chunks=max_chunks,
                read=ctx.analysis.query,
            )
            if found is None:
                return empty
            result = found
        else:
            raise ToolError("Name an entity or ask a question about one.")
    except EntityQueryError as error:
        raise ToolError(str(error)) from error
    except GRAPH_ERRORS as error:
        raise ToolUnavailable(GRAPH_UNAVAILABLE) from error
    return {"found": True, **result.as_dict()}


@register(
    "knowledge_graph",
    "Answers a question from the entity graph: facts, paths and neighbours of the entities "
    "it names, with the chunks that state them; inputs: question, collection.",
)
def graph_question(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    question = str(inputs.get("question") or ctx.question or "").strip()
    if not question:
        raise ToolError("There is no question to ask the knowledge graph.")
    collections = readable_collections(ctx, inputs)
    try:
        return answer_graph_question(
            question, collection_ids=collections, read=ctx.analysis.query
        ).as_dict()
    except GRAPH_ERRORS as error:
        raise ToolUnavailable(GRAPH_UNAVAILABLE) from error


@register(
    "graph_schema",
    "The node labels, entity types and relationship types of the readable graph, with "
    "counts; inputs: collection.",
)
def schema_summary(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    collections = readable_collections(ctx, inputs)
    try:
        return graph_summary(collections)
    except GRAPH_ERRORS as error:
        raise ToolUnavailable(GRAPH_UNAVAILABLE) from error
