from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("", views.index, name="index"),
    path("c/<uuid:session_id>/", views.conversation, name="conversation"),
    # Source links open a document at a chunk: /documents/<document_id>/#chunk-<chunk_index>.
    path("documents/<uuid:document_id>/", views.document, name="document"),
    # The original file; a PDF opens at a page: /documents/<document_id>/file#page=<n>.
    path("documents/<uuid:document_id>/file", views.document_file, name="document_file"),
]
