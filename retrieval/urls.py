from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = [
    # search: /api/graphrag/query (retrieval.api_search)
    # graph: /api/graph/... (retrieval.api_graph)
]
