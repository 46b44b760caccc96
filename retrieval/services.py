"""The retrieval app's front door: what other apps may call. Everything else in retrieval
is private to it (import-linter keeps it so); its models may be read directly.

- searching documents: `graphrag_search` within a `resolve_scope`d set of collections;
- reading a question: `analyze_query` (people, attribute, section asked for),
  `query_keywords`;
- the knowledge graph: `answer_graph_question`, `answer_relationship_question`,
  `retrieve_by_relationship`, `graph_summary`;
- evidence for the chat's router: `keyword_evidence`, `known_entities`.
"""

from .assessment import (
    GRAPH_TYPES,
    KeywordEvidence,
    keyword_evidence,
    known_entities,
    readable_collection_ids,
)
from .entity_retrieval import (
    RELATION_WORDS,
    EntityQueryError,
    answer_relationship_question,
    relationship_types_in,
    retrieve_by_relationship,
)
from .graph_summary import graph_summary
from .knowledge_graph import answer_graph_question
from .query_understanding import QueryAnalysis, QueryReader, analyze_query
from .search import SearchError, SearchOutcome, graphrag_search
from .search.query_terms import query_keywords
from .search.scope import Scope, resolve_scope

__all__ = [
    "GRAPH_TYPES",
    "RELATION_WORDS",
    "EntityQueryError",
    "KeywordEvidence",
    "QueryAnalysis",
    "QueryReader",
    "Scope",
    "SearchError",
    "SearchOutcome",
    "analyze_query",
    "answer_graph_question",
    "answer_relationship_question",
    "graph_summary",
    "graphrag_search",
    "keyword_evidence",
    "known_entities",
    "query_keywords",
    "readable_collection_ids",
    "relationship_types_in",
    "resolve_scope",
    "retrieve_by_relationship",
]
