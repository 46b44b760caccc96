"""Rows shown as a person configured them: where a table's display columns were
confirmed in the admin, a reading that lists its rows by their name shows those columns,
as every other answer from that registry does ("customers": their number, name and city,
not the name alone)."""

from registries.services import SemanticLayer
from sqlagent.linking.intent import Intent, Output
from sqlagent.linking.schema_words import Element, name_words


def as_configured(intent: Intent, layer: SemanticLayer) -> bool:
    """Whether the outputs were widened. Rows listed one by one only: a grouping, a count
    or another aggregate, or halves to intersect are shown as read (more columns would
    split their groups)."""
    if intent.group or intent.having or intent.both or intent.star or intent.distinct:
        return False
    if any(o.aggregate or o.element is None for o in intent.outputs):
        return False
    shown: dict[tuple[str, str | None], Output] = {}
    widened = False
    for output in intent.outputs:
        assert output.element is not None
        table = layer.tables.get(output.element.table)
        if table and table.display_confirmed and output.element.column in table.label_columns:
            widened = True
            for column in table.display_columns:
                if column in table.columns:
                    element = _element(table.name, column, table.columns[column].data_type)
                    shown.setdefault((table.name, column), Output(element))
        shown.setdefault((output.element.table, output.element.column), output)
    if widened:
        intent.outputs = list(shown.values())
    return widened


def _element(table: str, column: str, data_type: str) -> Element:
    return Element(table, column, data_type, ((name_words(column), 1.0),))
