"""One error body for the whole API: `{"detail", "code", "errors"?}`, whatever went wrong and
wherever (a view, DRF's parsing, Django's own 404 or 500). `code` is one word per status so
that a client can branch on it; `errors` lists each refused field with why, as
`{"field", "message"}` objects (a list rather than DRF's `{field: [messages]}`, which API
tools read as if the error body's own keys were request fields)."""

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler

logger = logging.getLogger(__name__)

CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    429: "throttled",
    500: "internal",
    503: "unavailable",
}
UNAVAILABLE = "A service this needs is down. Try again later."
FAILED = "Something went wrong on our side. Try again."
TOO_LARGE = "The request is too large."


class FieldErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField(
        help_text='The field: "title", "history.0.question" inside a list, '
        '"non_field_errors" for the whole body.'
    )
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer[Any]):
    """Every error the API answers with."""

    detail = serializers.CharField(help_text="What went wrong, in words.")
    code = serializers.ChoiceField(choices=sorted(set(CODES.values())))
    errors = FieldErrorSerializer(  # type: ignore[assignment]  # a field named like .errors
        many=True, required=False, help_text="Each refused field and why."
    )


def error_body(
    status_code: int, detail: str, errors: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"detail": detail, "code": CODES.get(status_code, "bad_request")}
    if errors:
        body["errors"] = [
            {"field": field, "message": message}
            for field, messages in errors.items()
            for message in messages
        ]
    return body


def _field_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error detail flattened to `{"field.sub": [messages]}`."""
    if isinstance(detail, dict):
        flat: dict[str, list[str]] = {}
        for key, value in detail.items():
            flat.update(_field_errors(value, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    if isinstance(detail, list) and detail and not all(isinstance(d, str) for d in detail):
        flat = {}
        for index, value in enumerate(detail):
            flat.update(_field_errors(value, f"{prefix}.{index}" if prefix else str(index)))
        return flat
    messages = [str(d) for d in detail] if isinstance(detail, list) else [str(detail)]
    return {prefix or "non_field_errors": messages} if messages else {}


def validation_error_body(exc: exceptions.ValidationError) -> dict[str, Any]:
    """The 400 body of a refused request: the first problem in words, all of them by field."""
    errors = _field_errors(exc.detail)
    first_field, messages = next(iter(errors.items()), ("", ["Invalid input."]))
    words = messages[0] if first_field == "non_field_errors" else f"{first_field}: {messages[0]}"
    return error_body(400, words, errors)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, OperationalError | InterfaceError):
        logger.warning("API: a database is unreachable: %s", exc)
        return Response(error_body(503, UNAVAILABLE), status=503)
    if isinstance(exc, RequestDataTooBig | TooManyFieldsSent):
        return Response(error_body(413, TOO_LARGE), status=413)
    if isinstance(exc, SuspiciousOperation):
        logger.warning("API: a suspicious request: %s", exc)
        return Response(error_body(400, "The request is malformed."), status=400)
    if isinstance(exc, DataError):
        # The database refused a value the checks let through (out of range, bad text).
        logger.warning("API: the database refused a value: %s", exc)
        return Response(error_body(400, "A value is out of range or not valid."), status=400)
    if isinstance(exc, exceptions.ValidationError):
        return Response(validation_error_body(exc), status=400)
    response = exception_handler(exc, context)
    if response is None:
        logger.exception("API request failed", exc_info=exc)
        return Response(error_body(500, FAILED), status=500)
    detail = getattr(exc, "detail", None) if not isinstance(exc, Http404) else None
    words = str(detail) if detail else _default_words(exc, response.status_code)
    response.data = error_body(response.status_code, words)
    return response


def _default_words(exc: Exception, status_code: int) -> str:
    if isinstance(exc, Http404):
        return "Not found."
    if isinstance(exc, DjangoPermissionDenied):
        return "You do not have permission to do this."
    return "The request was refused." if status_code < 500 else FAILED


# Django's own error views: JSON under /api/ and /internal/, the HTML pages elsewhere.
def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(("/api/", "/internal/"))


def _json(status_code: int, words: str) -> JsonResponse:
    return JsonResponse(error_body(status_code, words), status=status_code)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent):
        return _json(413, TOO_LARGE)
    return _json(400, "The request is malformed.")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.permission_denied(request, exception)
    return _json(403, "You do not have permission to do this.")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return _json(404, "Not found.")


def server_error(request: HttpRequest) -> HttpResponse:
    return _json(500, FAILED) if _is_api(request) else defaults.server_error(request)
