"""Text fields of request bodies checked as the client sent them, which is what the API
schema describes: lengths count every character, and a field that may not be blank must
hold a character other than white space. The value the view gets is then trimmed.

(DRF's CharField trims first and checks after, so "   " failed as blank although the schema
allowed it, and padded text over the limit passed although the schema refused it.)"""

from collections.abc import Mapping
from typing import Any

from django.core.validators import RegexValidator
from django.http import QueryDict
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.utils import html

# Anything but the characters Python's str.strip() removes; spelled out, because Python's
# and JavaScript's \s (the schema's regex dialect) differ.
SPACE = r"\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# No NUL anywhere (PostgreSQL's text cannot hold it); with words, a character not a space.
ANY_TEXT = r"^[^\x00]*$"
SOME_WORDS = rf"^[^\x00]*[^\x00{SPACE}][^\x00]*$"


class TextField(serializers.CharField):
    def __init__(self, *, pattern: RegexValidator | None = None, **kwargs: Any) -> None:
        trim = kwargs.pop("trim_whitespace", True)
        super().__init__(trim_whitespace=False, **kwargs)
        self.trim = trim
        # A blank-allowed field gets no validator here: DRF refuses NUL already, and a
        # pattern validator would make drf-spectacular write a blank-or-pattern oneOf
        # (core.api_schema writes the NUL-free pattern into the schema instead).
        if pattern is not None:
            self.validators.append(pattern)
        elif not self.allow_blank:
            self.validators.append(RegexValidator(SOME_WORDS, "This field may not be blank."))

    def get_value(self, dictionary: Any) -> Any:
        # DRF reads an empty form field of an optional field as left out; it was sent, so
        # it gets the blank check like any other value.
        if html.is_html_input(dictionary) and dictionary.get(self.field_name) == "":
            return ""
        return super().get_value(dictionary)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):  # the schema says string: 7 or true is not one
            self.fail("invalid")
        return super().to_internal_value(data)

    def run_validation(self, data: Any = empty) -> Any:
        value = super().run_validation(data)
        return value.strip() if self.trim and isinstance(value, str) else value


def _json_type_error(field: serializers.Field[Any, Any, Any, Any], value: Any) -> str | None:
    """Why a JSON value does not have the type the schema gives the field (DRF would turn
    "7" into 7 and "yes" into True), or None."""
    if value is None:
        return None  # allow_null is DRF's own check
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Must be true or false."
    if isinstance(field, serializers.CharField):
        return None if isinstance(value, str) else "Must be text."
    if isinstance(field, serializers.ChoiceField):
        types = {type(key) for key in field.choices}
        return None if type(value) in types else "Must be one of the listed values."
    if isinstance(field, serializers.IntegerField):
        whole = isinstance(value, int) and not isinstance(value, bool)
        return None if whole else "Must be a whole number."
    if isinstance(field, serializers.FloatField):
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return None if number else "Must be a number."
    if isinstance(field, serializers.ListField):
        return None if isinstance(value, list) else "Must be a list."
    return None


class StrictInput:
    # A request body read as the schema states it: only the serializer's fields (the schema
    # says `additionalProperties: false`), and in JSON each of the type it declares. A
    # misspelt name or a "7" for 7 is refused instead of silently ignored or converted.
    # (A comment, not a docstring: the schema would take it for each serializer's.)

    IGNORED = frozenset({"csrfmiddlewaretoken"})

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            fields = self.fields  # type: ignore[attr-defined]
            errors = {
                str(name): ["Unknown field."]
                for name in data
                if name not in fields and name not in self.IGNORED
            }
            if not isinstance(data, QueryDict):  # JSON; a form's values are all text
                for name, value in data.items():
                    problem = name in fields and _json_type_error(fields[name], value)
                    if problem:
                        errors[name] = [problem]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)  # type: ignore[misc]
