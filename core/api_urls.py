from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from core.api import CurrentUserView

urlpatterns = [
    path("token/", obtain_auth_token, name="api-token"),
    path("me/", CurrentUserView.as_view(), name="api-me"),
]
