"""A chunk on its way through the stages, with every signal that may rank it."""

from dataclasses import dataclass, field
from typing import Any

SEED = "seed"


@dataclass
class Candidate:
    chunk_id: str
    vector_similarity: float | None = None  # cosine to the question (every candidate)
    keyword_score: float = 0.0  # weighted share of the query terms it holds, 0..1
    keyword_bm25: float = 0.0  # its BM25 score, what the keyword signal ranks by
    keywords_matched: tuple[str, ...] = ()
    vector_rank: int | None = None  # rank among the vector hits, when it is one
    keyword_rank: int | None = None  # rank among the keyword hits, when it is one
    hop: int = 0
    path_score: float = 1.0
    # How strongly the graph leads here, 0..1: path scores weighted by the relevance of the
    # seeds the paths start from (graph_expansion.path_signals); what re-ranking uses.
    path_signal: float = 1.0
    relationship: str = SEED  # what brought it: seed, NEXT_CHUNK, SEMANTICALLY_SIMILAR...
    reached_from: str | None = None  # the chunk it was reached from
    via_entity: str | None = None  # the entity both chunks mention (MENTIONS paths)
    edge_score: float | None = None  # SEMANTICALLY_SIMILAR score of the last edge
    section_similarity: float | None = None  # hard section routing
    section_boost: float = 0.0  # soft section routing, 0..1
    routed: bool = False  # came from hard section routing
    row: dict[str, Any] = field(default_factory=dict)  # text, file and section, from SQL
    signals: dict[str, float] = field(default_factory=dict)  # normalized, set by re-ranking
    shares: dict[str, float] = field(default_factory=dict)
    hybrid_score: float = 0.0

    @property
    def is_seed(self) -> bool:
        return self.hop == 0

    @property
    def source(self) -> str:
        if self.routed:
            return "section_routing"
        if self.hop:
            return "graph"
        if self.vector_rank is not None and self.keyword_rank is not None:
            return "hybrid"
        return "vector" if self.vector_rank is not None else "keyword"
