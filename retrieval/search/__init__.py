"""Hybrid GraphRAG search: keyword and vector search in parallel, graph expansion,
re-ranking into one hybrid score; see docs/retrieval.md."""

from .outcome import SearchOutcome
from .params import ScopeNotFound, SearchError, SearchParams
from .pipeline import graphrag_search

__all__ = ["ScopeNotFound", "SearchError", "SearchOutcome", "SearchParams", "graphrag_search"]
