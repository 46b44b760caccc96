"""POST /internal/chat/stream: a turn streamed as Server-Sent Events for a backend-for-
frontend (seed 003). The caller authenticates as a service (`Authorization: Bearer
<CHAT_SERVICE_TOKEN>`) and names the person it speaks for; the events are the websocket's,
one `data: {json}` line each.

`conversation.user_id` names an active user by id (digits) or else by username.
`conversation.id` names a session of that user and creates it when missing: a UUID is the
session's own id (the same session the chat UI shows); any other string maps to a stable
UUID of its own per user. A UUID of another person's session is refused as unknown.
`conversation.company_id` is accepted and not used: a person's data scope decides which
rows they see.
"""

import hmac
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from rest_framework.exceptions import ValidationError

from chat.conversations import run_turn
from chat.models import ChatSession
from chat.serializers import StreamRequestSerializer
from core.api_errors import validation_error_body

# Namespace of the session ids made from a caller's own conversation ids.
CONVERSATION_NAMESPACE = uuid.UUID("6f1d2c1e-5b0a-4c57-9b52-2f8a3f0c9d41")


def _refuse(status: int, detail: str, code: str) -> JsonResponse:
    response = JsonResponse({"detail": detail, "code": code}, status=status)
    if status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="internal"'
    return response


def _token_refusal(request: HttpRequest) -> JsonResponse | None:
    expected = settings.CHAT_SERVICE_TOKEN
    if not expected:
        return _refuse(403, "The internal stream is off: CHAT_SERVICE_TOKEN is not set.", "off")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        given.strip().encode(), expected.encode()
    ):
        return _refuse(401, "A valid service token is required.", "unauthorized")
    return None


def session_uuid(user_pk: Any, conversation_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(conversation_id)
    except ValueError:
        return uuid.uuid5(CONVERSATION_NAMESPACE, f"{user_pk}:{conversation_id}")


@sync_to_async
def _find_user(user_id: str) -> Any:
    users = get_user_model().objects.filter(is_active=True)
    user = users.filter(pk=int(user_id)).first() if user_id.isdigit() else None
    return user or users.filter(username=user_id).first()


@sync_to_async
def _session_of(user: Any, conversation_id: str) -> ChatSession | None:
    session, _ = ChatSession.objects.get_or_create(
        pk=session_uuid(user.pk, conversation_id), defaults={"owner": user}
    )
    return session if session.owner_id == user.pk else None


async def _event_stream(events: AsyncIterator[dict[str, Any]]) -> AsyncIterator[bytes]:
    async for event in events:
        data = json.dumps(event, cls=DjangoJSONEncoder, separators=(",", ":"))
        yield f"data: {data}\n\n".encode()


@csrf_exempt
@require_POST
async def chat_stream(request: HttpRequest) -> HttpResponseBase:
    refusal = _token_refusal(request)
    if refusal is not None:
        return refusal
    try:
        serializer = StreamRequestSerializer(data=json.loads(request.body or b"null"))
        serializer.is_valid(raise_exception=True)
    except ValidationError as error:
        return JsonResponse(validation_error_body(error), status=400)
    except ValueError:
        return _refuse(400, "The body is not JSON.", "bad_request")
    body = serializer.validated_data
    user = await _find_user(body["conversation"]["user_id"])
    if user is None:
        return _refuse(404, "No active user with that id or username.", "not_found")
    session = await _session_of(user, body["conversation"]["id"])
    if session is None:
        return _refuse(404, "No conversation with that id.", "not_found")
    events = run_turn(session, user, body["input"]["message"])
    return StreamingHttpResponse(
        _event_stream(events),
        content_type="text/event-stream",
        # Proxies must pass each event on at once, not buffer the stream.
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
