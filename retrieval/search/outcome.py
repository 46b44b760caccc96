"""What a search answers: the results as the API returns them, and everything behind them
that the trace records."""

from dataclasses import dataclass, field
from typing import Any

from .candidates import Candidate
from .graph_expansion import Expansion
from .params import SearchParams
from .routing import Routing
from .scope import Scope


@dataclass
class SearchOutcome:
    query: str
    params: SearchParams
    results: list[dict[str, Any]]
    candidates: list[Candidate]  # every candidate, best first (results are the top ones)
    keywords: list[str]
    scope: Scope
    timings: dict[str, float]  # milliseconds per stage
    weights: dict[str, float]
    expansion: Expansion = field(default_factory=Expansion)
    routing: Routing = field(default_factory=Routing)
    counts: dict[str, int] = field(default_factory=dict)
    trace_id: int | None = None


def result_row(c: Candidate, rank: int) -> dict[str, Any]:
    row = c.row
    return {
        "text": row["text"],
        "file_name": row["file_name"],
        "file_path": row["file_path"],
        "directory_name": row["directory_name"],
        "similarity": round(c.vector_similarity or 0.0, 4),
        "hybrid_score": round(c.hybrid_score, 4),
        "keywords_matched": len(c.keywords_matched),
        "source": c.source,
        "metadata": {
            "rank": rank,
            "chunk_id": c.chunk_id,
            "chunk_index": row["index"],
            "file_id": str(row["document_id"]),
            "collection_id": row["collection_id"],
            "page": row["page"],
            "page_end": row["page_end"],
            "heading": row["header_text"],
            "format": row["format"],
            "section_name": row["section_name"],
            "section_path": row["section_path"] or row["header_path"],
            "hop_count": c.hop,
            "relationship": c.relationship,
            "reached_from": c.reached_from,
            "via_entity": c.via_entity,
            "edge_score": c.edge_score,
            "path_score": c.path_score,
            "keyword_score": round(c.keyword_score, 4),
            "matched_keywords": list(c.keywords_matched),
            "section_similarity": c.section_similarity,
            "routing": "hard_section" if c.routed else ("soft" if c.section_boost else None),
            "signals": {k: round(v, 4) for k, v in c.signals.items()},
            "score_shares": {k: round(v, 4) for k, v in c.shares.items()},
        },
    }
