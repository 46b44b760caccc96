"""The anchor, the table whose rows the question is about, and the tables its filters read."""

from sqlagent.plan import CannotAnswer
from sqlagent.resolution import Resolved
from sqlagent.resolution.resolved import by_position


def find_anchor(
    resolved: Resolved, entities: list[tuple[int, str]], group_table: str | None
) -> tuple[str, int]:
    """The rows the question is about and where it names them: the first thing it names
    that is not the groups, and not a name or owner that only qualifies another thing."""
    involved = by_position(entities + filter_tables(resolved))
    candidates = [(pos, table) for pos, table in involved if table != group_table]
    heads = [(pos, table) for pos, table in candidates if pos not in resolved.modifiers]
    # "Which customers have the most work orders": customers are the groups, work orders
    # the rows counted.
    if heads or candidates:
        pos, table = (heads or candidates)[0]
        return table, pos
    if group_table:
        return group_table, len(resolved.entities)
    raise CannotAnswer("the question names nothing the warehouse holds")


def filter_tables(resolved: Resolved) -> list[tuple[int, str]]:
    """The tables the filters read, but for the rows that must not exist."""
    absent = {table for _, table in resolved.absent}
    return [
        (p, f.columns[0].table) for p, f in resolved.filters if f.columns[0].table not in absent
    ]
