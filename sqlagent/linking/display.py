"""Rows shown as a person configured them: where a table's display columns were
confirmed in the admin, a reading that lists its rows by their name shows those columns,
as every other answer from that registry does ("customers": their number, name and city,
not the name alone)."""

from registries.services import SemanticLayer
from sqlagent.linking.intent import Intent, Output
from sqlagent.linking.schema_words import Element, name_words


def as_configured(intent: Intent, layer: SemanticLayer) -> None:
    """Rows listed one by one only: a grouping, a count or another aggregate, or halves
    to intersect are shown as read (more columns would split their groups)."""
    if intent.group or intent.having or intent.both or intent.star or intent.distinct:
        return
    if any(o.aggregate or o.element is None for o in intent.outputs):
        return
    shown: list[Output] = []
    for output in intent.outputs:
        assert output.element is not None
        table = layer.tables.get(output.element.table)
        if table and table.display_confirmed and output.element.column in table.label_columns:
            shown += [
                Output(_element(table.name, column, table.columns[column].data_type))
                for column in table.display_columns
                if column in table.columns
            ]
        shown.append(output)
    seen: set[tuple[str, str | None]] = set()
    intent.outputs = []
    for output in shown:
        assert output.element is not None
        key = (output.element.table, output.element.column)
        if key not in seen:
            seen.add(key)
            intent.outputs.append(output)


def _element(table: str, column: str, data_type: str) -> Element:
    return Element(table, column, data_type, ((name_words(column), 1.0),))
