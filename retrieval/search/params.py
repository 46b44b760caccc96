"""What a search asks for, with the defaults from settings and clear errors for bad values."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from django.conf import settings

from ..fusion import FUSIONS

MatchType = Literal["any", "all"]
Fusion = Literal["learned", "weighted", "rrf"]
MAX_TOP_K = 100
MAX_EXPANSION = 1000


class SearchError(ValueError):
    """A search that cannot run as asked (bad parameter, unknown collection...)."""


class ScopeNotFound(SearchError):
    """A collection or file the search is limited to that the caller cannot read."""


@dataclass(frozen=True)
class SearchParams:
    query: str
    top_k: int = field(default_factory=lambda: settings.RETRIEVAL_TOP_K)
    similarity_threshold: float = field(
        default_factory=lambda: settings.RETRIEVAL_SIMILARITY_THRESHOLD
    )
    use_keyword_search: bool = True
    use_vector_search: bool = True
    keywords: tuple[str, ...] | None = None
    keyword_match_type: MatchType = "any"
    keyword_boost: float = field(default_factory=lambda: settings.RETRIEVAL_KEYWORD_BOOST)
    # 0 turns graph expansion off (evaluation baselines); the API accepts 1 or 2.
    max_hops: int = field(default_factory=lambda: settings.RETRIEVAL_MAX_HOPS)
    semantic_expansion_limit: int = field(
        default_factory=lambda: settings.RETRIEVAL_SEMANTIC_EXPANSION_LIMIT
    )
    hierarchical_expansion_limit: int = field(
        default_factory=lambda: settings.RETRIEVAL_HIERARCHICAL_EXPANSION_LIMIT
    )
    entity_expansion_limit: int = field(
        default_factory=lambda: settings.RETRIEVAL_ENTITY_EXPANSION_LIMIT
    )
    title_expansion_limit: int = field(
        default_factory=lambda: settings.RETRIEVAL_TITLE_EXPANSION_LIMIT
    )
    section_query: str | None = None
    use_section_routing: bool = False
    file_scope: tuple[str, ...] = ()
    collection: str | int | None = None
    fusion: Fusion = field(default_factory=lambda: settings.RETRIEVAL_FUSION)

    def __post_init__(self) -> None:
        if not self.query or not self.query.strip():
            raise SearchError("query: a question or search text is required")
        if not 1 <= self.top_k <= MAX_TOP_K:
            raise SearchError(f"top_k: between 1 and {MAX_TOP_K}, not {self.top_k}")
        for name in ("similarity_threshold", "keyword_boost"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise SearchError(f"{name}: between 0 and 1, not {value}")
        if self.keyword_match_type not in ("any", "all"):
            raise SearchError(
                f"keyword_match_type: 'any' or 'all', not {self.keyword_match_type!r}"
            )
        if self.max_hops not in (0, 1, 2):
            raise SearchError(f"max_hops: 1 or 2 (0 turns expansion off), not {self.max_hops}")
        for name in (
            "semantic_expansion_limit",
            "hierarchical_expansion_limit",
            "entity_expansion_limit",
            "title_expansion_limit",
        ):
            value = getattr(self, name)
            if not 0 <= value <= MAX_EXPANSION:
                raise SearchError(f"{name}: between 0 and {MAX_EXPANSION}, not {value}")
        if self.fusion not in FUSIONS:
            raise SearchError(f"fusion: one of {', '.join(FUSIONS)}, not {self.fusion!r}")
        if not (self.use_keyword_search or self.use_vector_search):
            raise SearchError("at least one of keyword and vector search must be on")

    @classmethod
    def build(
        cls,
        query: str,
        *,
        keywords: Sequence[str] | None = None,
        file_scope: Sequence[str] | None = None,
        **options: Any,
    ) -> "SearchParams":
        """From keyword arguments as callers pass them (lists, None for defaults)."""
        given = {key: value for key, value in options.items() if value is not None}
        if "keyword_boost" in given and "fusion" not in given:
            given["fusion"] = "weighted"  # the boost is a weight of that fusion
        return cls(
            query=query,
            keywords=tuple(keywords) if keywords is not None else None,
            file_scope=tuple(file_scope or ()),
            **given,
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "top_k": self.top_k,
            "similarity_threshold": self.similarity_threshold,
            "use_keyword_search": self.use_keyword_search,
            "use_vector_search": self.use_vector_search,
            "keywords": list(self.keywords) if self.keywords is not None else None,
            "keyword_match_type": self.keyword_match_type,
            "keyword_boost": self.keyword_boost,
            "max_hops": self.max_hops,
            "semantic_expansion_limit": self.semantic_expansion_limit,
            "hierarchical_expansion_limit": self.hierarchical_expansion_limit,
            "entity_expansion_limit": self.entity_expansion_limit,
            "title_expansion_limit": self.title_expansion_limit,
            "section_query": self.section_query,
            "use_section_routing": self.use_section_routing,
            "file_scope": list(self.file_scope),
            "collection": self.collection,
            "fusion": self.fusion,
        }
