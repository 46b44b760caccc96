from django.urls import URLPattern, URLResolver, path

from . import api

app_name = "sqlagent"

urlpatterns: list[URLPattern | URLResolver] = [
    path("sql/ask", api.AskView.as_view(), name="ask"),
]
