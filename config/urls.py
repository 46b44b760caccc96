from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from chat.sse import chat_stream
from core.views import healthz

urlpatterns = [
    path("", include("chat.urls")),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/auth/", include("core.api_urls")),
    path("api/", include("ingestion.urls")),
    path("api/", include("sqlagent.urls")),
    path("api/", include("retrieval.urls")),
    path("api/chat/", include("chat.api_urls")),
    path("internal/chat/stream", chat_stream, name="chat-stream"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]

# Django's own errors: JSON under /api/ and /internal/, the usual pages elsewhere.
handler400 = "core.api_errors.bad_request"
handler403 = "core.api_errors.permission_denied"
handler404 = "core.api_errors.page_not_found"
handler500 = "core.api_errors.server_error"
