from django.urls import URLPattern, URLResolver, path

from .api_graph import GraphQueryView, RetrieveByRelationshipView
from .api_search import GraphRAGQueryView

urlpatterns: list[URLPattern | URLResolver] = [
    # search: /api/graphrag/query (retrieval.api_search)
    path("graphrag/query", GraphRAGQueryView.as_view(), name="graphrag-query"),
    # graph: /api/graph/... (retrieval.api_graph)
    path(
        "graph/retrieve-by-relationship",
        RetrieveByRelationshipView.as_view(),
        name="graph-retrieve-by-relationship",
    ),
    path("graph/query", GraphQueryView.as_view(), name="graph-query"),
]
