"""Tool `document_search`: hybrid GraphRAG search over the documents the asking person may
read, and the one shape every answer uses for a source.

Input: {"query": str (default: the question), "top_k"?: int, "person"?: str (re-scope to
that person's documents), "collection"?: name or id, "use_graph": bool = true}.
Output: {"query", "results": [graphrag_search result dicts], "sources": [source dicts],
"degraded": str ("" when the search ran as asked), "notice": str (why nothing was searched,
e.g. no readable document is about that person), "trace_id": int | None}.

When the graph database cannot be reached, the search runs again without graph expansion
and says so in `degraded`; a breaker shared by every process ("graph_database") then skips
the graph for a while, so later questions do not wait on it too.
"""

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.text import slugify
from neo4j.exceptions import DriverError, Neo4jError

from chat.orchestrator.breaker import CircuitBreaker
from chat.orchestrator.context import RunContext
from chat.orchestrator.tools.registry import ToolError, register, whole_number
from ingestion.models import Chunk, Collection
from retrieval.services import (
    SearchError,
    SearchOutcome,
    graphrag_search,
    resolve_scope,
)

logger = logging.getLogger(__name__)

GRAPH_DOWN = "Documents were searched without graph expansion: the graph database is unavailable."
GRAPH_BREAKER = CircuitBreaker("graph_database")
SNIPPET_CHARS = 240
# What a graph outage looks like from the driver: refused or dropped connections, a server
# that answers with an error, or a socket that never connects.
GRAPH_ERRORS = (DriverError, Neo4jError, OSError)


def document_url(document_id: str, chunk_index: int | None) -> str:
    """The page that shows a document, scrolled to one chunk."""
    anchor = f"#chunk-{chunk_index}" if chunk_index is not None else ""
    return f"/documents/{document_id}/{anchor}"


@dataclass(frozen=True)
class Place:
    """Where a chunk is in its document, as a citation names it: its pages in a PDF
    (opened at the first: `#page=N`), its nearest heading elsewhere."""

    page: int | None = None
    page_end: int | None = None
    heading: str = ""
    format: str = ""

    def entry(self, document_id: str, chunk_index: int | None) -> dict[str, Any]:
        pdf = self.format == "pdf" and self.page is not None
        return {
            "page": self.page,
            "page_end": self.page_end if self.page_end is not None else self.page,
            "heading": self.heading,
            "anchor": slugify(self.heading) if self.heading and not pdf else "",
            "url": (
                f"/documents/{document_id}/file#page={self.page}"
                if pdf
                else document_url(document_id, chunk_index)
            ),
            "text_url": document_url(document_id, chunk_index),
        }


def snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return f"{cut}…"


def source_entry(
    n: int,
    *,
    file_name: str,
    file_path: str,
    directory_name: str,
    section_path: str,
    score: float | None,
    text: str,
    chunk_id: str,
    document_id: str,
    chunk_index: int | None,
    collection: str,
    place: Place = Place(),
) -> dict[str, Any]:
    """A source as every answer shows it (design: the `sources` event)."""
    return {
        "n": n,
        "file_name": file_name,
        "file_path": file_path,
        "directory_name": directory_name,
        "section_path": section_path or "",
        "score": round(score, 4) if score is not None else None,
        "snippet": snippet(text),
        "chunk_id": chunk_id,
        "document_id": document_id,
        "collection": collection,
        **place.entry(document_id, chunk_index),
    }


def collection_names(ids: Iterable[int]) -> dict[int, str]:
    return dict(Collection.objects.filter(pk__in=set(ids)).values_list("pk", "name"))


def sources_from_results(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sources numbered by rank, one per search result."""
    names = collection_names(r["metadata"]["collection_id"] for r in results)
    return [
        source_entry(
            n,
            file_name=r["file_name"],
            file_path=r["file_path"],
            directory_name=r["directory_name"],
            section_path=r["metadata"]["section_path"] or "",
            score=r["hybrid_score"],
            text=r["text"],
            chunk_id=r["metadata"]["chunk_id"],
            document_id=r["metadata"]["file_id"],
            chunk_index=r["metadata"]["chunk_index"],
            collection=names.get(r["metadata"]["collection_id"], ""),
            place=Place(
                r["metadata"]["page"],
                r["metadata"]["page_end"],
                r["metadata"]["heading"] or "",
                r["metadata"]["format"],
            ),
        )
        for n, r in enumerate(results, start=1)
    ]


def sources_from_chunks(
    chunk_ids: Sequence[str], *, collection_ids: Sequence[int], start: int = 1
) -> list[dict[str, Any]]:
    """Sources for chunks named by id (graph answers), in the order given, readable only."""
    chunks = {
        str(c.pk): c
        for c in Chunk.objects.filter(pk__in=list(chunk_ids), collection_id__in=collection_ids)
        .select_related("document", "collection", "section")
        .only(
            "id", "index", "text", "header_path", "header_text", "page", "page_end",
            "collection__name", "section__path", "document__id", "document__file_name",
            "document__file_path", "document__directory_name", "document__format",
        )
    }  # fmt: skip
    found = [chunks[i] for i in dict.fromkeys(chunk_ids) if i in chunks]
    return [
        source_entry(
            n,
            file_name=c.document.file_name,
            file_path=c.document.file_path,
            directory_name=c.document.directory_name,
            section_path=(c.section.path if c.section else "") or c.header_path,
            score=None,
            text=c.text,
            chunk_id=str(c.pk),
            document_id=str(c.document.id),
            chunk_index=c.index,
            collection=c.collection.name,
            place=Place(c.page, c.page_end, c.header_text, c.document.format),
        )
        for n, c in enumerate(found, start=start)
    ]


def person_documents(person: str, *, ctx: RunContext, collection: str | int | None) -> list[str]:
    """The readable documents about a person named in words ("Sarah", "Sarah Chen")."""
    scope = resolve_scope(ctx.user, collection=collection)
    if scope.empty:
        return []
    return list(ctx.analysis.query(person, scope.collection_ids).document_ids)


def _search(query: str, ctx: RunContext, *, use_graph: bool, **options: Any) -> SearchOutcome:
    read = ctx.analysis.query  # the router's reading of the question, when it is this one
    if not use_graph:
        return graphrag_search(query, user=ctx.user, max_hops=0, read=read, **options)
    return graphrag_search(query, user=ctx.user, read=read, **options)


def _found_nothing(query: str, person: str, notice: str) -> dict[str, Any]:
    return {
        "query": query,
        "person": person,
        "results": [],
        "sources": [],
        "keywords": [],
        "degraded": "",
        "notice": notice,
        "trace_id": None,
    }


def search_documents(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    query = str(inputs.get("query") or ctx.question or "").strip()
    if not query:
        raise ToolError("There is nothing to search for: the question is empty.")
    collection = inputs.get("collection") or None
    person = str(inputs.get("person") or "").strip()
    use_graph = inputs.get("use_graph", True) is not False
    options: dict[str, Any] = {
        "top_k": whole_number(inputs, "top_k"),
        "collection": collection,
        "use_section_routing": True,
    }
    try:
        if person:
            documents = person_documents(person, ctx=ctx, collection=collection)
            if not documents:
                # Nothing to search, which is an answer, not a failure of the tool.
                return _found_nothing(query, person, f"No document you can read is about {person}.")
            options["file_scope"] = documents
        degraded = ""
        if use_graph and GRAPH_BREAKER.is_open():
            use_graph, degraded = False, GRAPH_DOWN
        try:
            outcome = _search(query, ctx, use_graph=use_graph, **options)
            if outcome.expansion.counts:  # the graph answered (expansion ran)
                GRAPH_BREAKER.record_success()
        except GRAPH_ERRORS as error:
            if not use_graph:
                raise
            logger.warning("graph expansion failed, searching without it: %s", error)
            GRAPH_BREAKER.record_failure()
            outcome = _search(query, ctx, use_graph=False, **options)
            degraded = GRAPH_DOWN
    except SearchError as error:
        raise ToolError(str(error)) from error
    return {
        "query": outcome.query,
        "person": person,
        "results": outcome.results,
        "sources": sources_from_results(outcome.results),
        "keywords": outcome.keywords,
        "degraded": degraded,
        "notice": "",
        "trace_id": outcome.trace_id,
    }


@register(
    "document_search",
    "Hybrid search (keywords, vectors, graph expansion) over the documents the person may "
    "read; inputs: query, top_k, person, collection, use_graph.",
)
def run(inputs: dict[str, Any], ctx: RunContext) -> dict[str, Any]:
    return search_documents(inputs, ctx)
