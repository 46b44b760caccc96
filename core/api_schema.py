"""The OpenAPI schema states every error an operation can answer with, in the one error body
of `core.api_errors`, so that a generated client knows them all. Which errors apply follows
from the operation itself: who may call it, whether it takes a body, parameters or a path."""

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework.permissions import AllowAny

from core.api_errors import ErrorSerializer
from core.api_fields import ANY_TEXT, StrictInput, TextField

ALWAYS = {
    401: "Not logged in, or the credentials are not valid.",
    406: "No response type the client accepts.",
    500: "The request failed on the server (the log has the cause).",
    503: "A service the request needs is down; try again later.",
}
WITH_BODY = {
    400: "The request is not valid: `errors` names each refused field.",
    413: "The request is too large.",
    415: "The body is not of a type the operation reads.",
}


class SwitchboardSchema(AutoSchema):
    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, StrictInput):
            schema["additionalProperties"] = False
        return schema

    def _insert_field_validators(self, field: Any, schema: dict[str, Any]) -> None:
        super()._insert_field_validators(field, schema)
        if isinstance(field, TextField) and field.allow_blank:
            # Blank text needs no alternative of its own: the pattern allows it (and no NUL).
            schema.update(schema.pop("oneOf", [{}])[0])
            schema.setdefault("pattern", ANY_TEXT.replace(r"\x", r"\u00"))

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation["responses"]
        error = self._get_response_for_code(ErrorSerializer, "400")
        for code, description in self._error_statuses(operation).items():
            known = responses.get(str(code))
            if known is None:
                responses[str(code)] = {**error, "description": description}
            elif not known.get("content"):
                responses[str(code)] = {**error, "description": known.get("description", "")}
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _error_statuses(self, operation: dict[str, Any]) -> dict[int, str]:
        statuses = dict(ALWAYS)
        if not all(isinstance(p, AllowAny) for p in self.view.get_permissions()):
            statuses[403] = "Not allowed to do this."
        if "requestBody" in operation:
            statuses.update(WITH_BODY)
        places = {p.get("in") for p in operation.get("parameters", [])}
        if "query" in places:
            statuses.setdefault(400, WITH_BODY[400])
        if "path" in places or (self.method == "GET" and self._is_list_view()):
            statuses[404] = "Not found (another person's is not found either)."
        if getattr(self.view, "throttle_classes", None):
            statuses[429] = "Too many requests; `Retry-After` says when to try again."
        return statuses
