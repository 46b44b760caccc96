"""Characters no store takes, refused at the door: PostgreSQL's text cannot hold NUL, so a
query string carrying one would fail deep in a view as a server error."""

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_to_bytes

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, JsonResponse
from django.utils.decorators import sync_and_async_middleware

from core.api_errors import error_body

REFUSED = "Null characters are not allowed in the address."


def _refusal(request: HttpRequest) -> JsonResponse | None:
    raw = request.META.get("QUERY_STRING", "")
    if "\x00" in request.path or b"\x00" in unquote_to_bytes(raw):
        return JsonResponse(error_body(400, REFUSED), status=400)
    return None


@sync_and_async_middleware
def reject_null_characters(get_response: Callable[[HttpRequest], Any]) -> Callable[..., Any]:
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> Any:
            return _refusal(request) or await get_response(request)

        return async_middleware

    def middleware(request: HttpRequest) -> Any:
        return _refusal(request) or get_response(request)

    return middleware
