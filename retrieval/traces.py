"""A QueryTrace for every search. Only what the search could read goes in: candidates were
filtered by the user's collections before they got here."""

from typing import TYPE_CHECKING, Any

from .models import QueryTrace

if TYPE_CHECKING:
    from .search.outcome import SearchOutcome

# Candidates beyond the results kept in a trace (with their scores), so a reviewer sees
# what narrowly missed.
TRACE_EXTRA_CANDIDATES = 20


def _retrieved(outcome: "SearchOutcome") -> list[dict[str, Any]]:
    keep = outcome.candidates[: outcome.params.top_k + TRACE_EXTRA_CANDIDATES]
    return [
        {
            "rank": rank,
            "returned": rank <= outcome.params.top_k,
            "chunk_id": c.chunk_id,
            "file_id": str(c.row.get("document_id")),
            "file_name": c.row.get("file_name"),
            "chunk_index": c.row.get("index"),
            "section_path": c.row.get("section_path"),
            "source": c.source,
            "hop_count": c.hop,
            "relationship": c.relationship,
            "hybrid_score": round(c.hybrid_score, 4),
            "vector_similarity": round(c.vector_similarity or 0.0, 4),
            "keyword_score": round(c.keyword_score, 4),
            "keywords_matched": list(c.keywords_matched),
            "path_score": c.path_score,
            "signals": {k: round(v, 4) for k, v in c.signals.items()},
            "score_shares": {k: round(v, 4) for k, v in c.shares.items()},
        }
        for rank, c in enumerate(keep, start=1)
    ]


def _subgraph(outcome: "SearchOutcome") -> dict[str, list[dict[str, Any]]]:
    """The chunks kept and the edges that brought expanded ones in, between kept chunks."""
    shown = outcome.candidates[: outcome.params.top_k + TRACE_EXTRA_CANDIDATES]
    kept = {c.chunk_id: c for c in shown}
    nodes: list[dict[str, Any]] = [
        {
            "id": c.chunk_id,
            "label": "Chunk",
            "file_name": c.row.get("file_name"),
            "chunk_index": c.row.get("index"),
            "seed": c.is_seed,
        }
        for c in shown
    ]
    edges: list[dict[str, Any]] = []
    entities: dict[str, str] = {}
    documents: dict[str, str] = {}
    for step in outcome.expansion.edges:
        if step.chunk_id not in kept or step.reached_from not in kept:
            continue
        if step.document_id:  # the title bridge: seed -> the document it names -> chunk
            documents[step.document_id] = step.entity or ""
            edges.append(
                {"source": step.reached_from, "target": step.document_id, "type": step.relationship}
            )
            edges.append({"source": step.document_id, "target": step.chunk_id, "type": "HAS_CHUNK"})
        elif step.entity_id:
            entities[step.entity_id] = step.entity or ""
            edges.append(
                {"source": step.reached_from, "target": step.entity_id, "type": "MENTIONS"}
            )
            edges.append({"source": step.chunk_id, "target": step.entity_id, "type": "MENTIONS"})
        else:
            edges.append(
                {
                    "source": step.reached_from,
                    "target": step.chunk_id,
                    "type": step.relationship,
                    "score": step.edge_score,
                }
            )
    nodes += [{"id": i, "label": "Entity", "name": n} for i, n in entities.items()]
    nodes += [{"id": i, "label": "Document", "title": t} for i, t in documents.items()]
    return {"nodes": nodes, "edges": edges}


def record_search(outcome: "SearchOutcome", *, user: Any) -> int:
    timings = outcome.timings
    rewritten = []
    if outcome.keywords:
        rewritten.append({"kind": "keywords", "text": " ".join(outcome.keywords)})
    routing = outcome.routing
    if routing.analysis is not None and routing.analysis.attribute_phrase:
        rewritten.append({"kind": "section_query", "text": routing.analysis.attribute_phrase})
    trace = QueryTrace.objects.create(
        user=user if getattr(user, "is_authenticated", False) and user.pk else None,
        kind="search",
        question=outcome.query,
        rewritten_queries=rewritten,
        parameters={
            **outcome.params.as_dict(),
            "route": routing.route,
            "route_fell_back": routing.fell_back,
            "route_skipped": routing.skipped,
            "weights": outcome.weights,
            "counts": outcome.counts,
        },
        collection_ids=list(outcome.scope.collection_ids),
        retrieved=_retrieved(outcome),
        subgraph=_subgraph(outcome),
        keyword_ms=timings.get("keyword"),
        vector_ms=round(timings.get("embedding", 0.0) + timings.get("vector", 0.0), 2),
        graph_ms=timings.get("graph"),
        rerank_ms=timings.get("rerank"),
        total_ms=timings.get("total"),
        timings=timings,
        result_count=len(outcome.results),
    )
    return trace.pk
