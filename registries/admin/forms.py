"""Admin form fields a non-programmer can type into: name lists and plain values."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms

from ..models import (
    DisplayAttributes,
    Relationship,
    SecureView,
    TableMetadata,
    Term,
    TermResolution,
)
from ..models.tables import DISPLAY_FIELDS, METADATA_FIELDS, SECURE_VIEW_FIELDS


class NameListField(forms.CharField):
    """A JSON list of names, typed as "a, b, c" (commas or new lines)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", forms.TextInput(attrs={"size": 60}))
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return value

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        if isinstance(value, list):
            return [str(v) for v in value]
        text = super().to_python(value) or ""
        return [part.strip() for part in re.split(r"[,\n]", text) if part.strip()]


class ValueField(forms.CharField):
    """A filter value: true, false and numbers as such, anything else as text."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", "true / false for a boolean match; the value to match.")
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if value is None or isinstance(value, str):
            return value or ""
        return json.dumps(value)

    def to_python(self, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        text = value.strip()
        if not text:
            return None
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError:
            return text
        return parsed if isinstance(parsed, bool | int | float | str) else text


class TermForm(forms.ModelForm):
    synonyms = NameListField(help_text="Other words for it, separated by commas.")

    class Meta:
        model = Term
        fields = ["data_source", "name", "synonyms", "entity", "description", "suggested"]


class TermResolutionForm(forms.ModelForm):
    tables = NameListField(required=True, widget=forms.TextInput(attrs={"size": 30}))
    columns = NameListField(
        widget=forms.TextInput(attrs={"size": 40}),
        help_text="table.column, or just column when one table is named.",
    )
    value = ValueField(widget=forms.TextInput(attrs={"size": 10}))

    class Meta:
        model = TermResolution
        fields = ["rank", "tables", "columns", "match_type", "value", "confidence"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        tables = data.get("tables") or []
        if len(tables) == 1 and data.get("columns"):
            # A bare column name belongs to the only table named.
            data["columns"] = [c if "." in c else f"{tables[0]}.{c}" for c in data["columns"]]
        return data


class DisplayAttributesForm(forms.ModelForm):
    display_columns = NameListField(required=True)
    primary_label = NameListField(help_text="Columns that name a row: firstName, lastName.")

    class Meta:
        model = DisplayAttributes
        fields = ["data_source", "table", *DISPLAY_FIELDS]


class TableMetadataForm(forms.ModelForm):
    exclude_as_bridge_for = NameListField(
        label="Never a bridge for", help_text="Tables this one must never be used to connect."
    )

    class Meta:
        model = TableMetadata
        fields = ["data_source", "table", *METADATA_FIELDS]


class SecureViewForm(forms.ModelForm):
    sensitive_columns = NameListField()

    class Meta:
        model = SecureView
        fields = ["data_source", "table", *SECURE_VIEW_FIELDS]


class RelationshipForm(forms.ModelForm):
    class Meta:
        model = Relationship
        fields = [
            "data_source",
            "from_table",
            "from_column",
            "to_table",
            "to_column",
            "kind",
            "confidence",
            "cardinality",
            "validated",
            "enabled",
            "note",
        ]


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        files = data if isinstance(data, list | tuple) else [data]
        return [super(MultipleFileField, self).clean(item, initial) for item in files]


class ImportForm(forms.Form):
    upload = MultipleFileField(
        label="Files",
        widget=MultipleFileInput(attrs={"multiple": True, "accept": ".json"}),
        help_text="One or more registry files in the seed's JSON formats.",
    )
    replace = forms.BooleanField(
        required=False, help_text="Remove rows of the imported kinds that the files leave out."
    )
    overwrite_edits = forms.BooleanField(
        required=False, help_text="Also overwrite rows a person edited here (kept otherwise)."
    )
