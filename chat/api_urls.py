from django.urls import URLPattern, URLResolver, path

from chat import api

app_name = "chat-api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("sessions", api.SessionList.as_view(), name="sessions"),
    path("sessions/<uuid:pk>", api.SessionDetail.as_view(), name="session"),
    path("sessions/<uuid:session_id>/messages", api.MessageList.as_view(), name="messages"),
    path("messages/<int:message_id>/feedback", api.FeedbackView.as_view(), name="feedback"),
    path("messages/<int:message_id>/verify", api.VerifyView.as_view(), name="verify"),
    path("uploads", api.AttachmentUpload.as_view(), name="uploads"),
]
