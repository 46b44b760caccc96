from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "ingestion"

urlpatterns: list[URLPattern | URLResolver] = [
    path("ingestion/collections/", views.CollectionList.as_view(), name="collections"),
    path("ingestion/uploads/", views.UploadView.as_view(), name="upload"),
    path("ingestion/jobs/", views.JobList.as_view(), name="jobs"),
    path("ingestion/jobs/<uuid:pk>/", views.JobDetail.as_view(), name="job"),
    path("ingestion/documents/", views.DocumentList.as_view(), name="documents"),
    path("ingestion/documents/<uuid:pk>/", views.DocumentDetail.as_view(), name="document"),
]
