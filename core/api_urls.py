from django.urls import path

from core.api import CurrentUserView, TokenView

urlpatterns = [
    path("token/", TokenView.as_view(), name="api-token"),
    path("me/", CurrentUserView.as_view(), name="api-me"),
]
