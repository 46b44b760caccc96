"""A link to a table the rest of a reading cannot be joined to is more likely a stray
meaning of its words ("failed" as a sync log's status in a question about checklists) than
the question's point: the weakest such link is dropped and the question read again."""

from registries.services import SemanticLayer
from sqlagent.join_paths import NoJoinPath, plan_joins, unnamed_shared_parents
from sqlagent.linking.chosen import Choice, Chosen
from sqlagent.linking.intent import Intent
from sqlagent.linking.links import Link

STRAYS = 3  # links dropped at most, before the question is declined as unrelated


def stray_choice(chosen: Chosen, intent: Intent, layer: SemanticLayer) -> Choice | None:
    """The weakest link whose table, left out, lets the others join; None when no single
    one does or the one that would is the table the question is about."""
    for choice in sorted(chosen.choices, key=lambda c: (c.link.score, c.start)):
        if choice.table == intent.anchor:
            continue
        rest = [t for t in intent.tables if t != choice.table]
        if _others_need(choice, chosen):
            continue
        try:
            plan_joins(layer, rest)
        except NoJoinPath:
            continue
        return choice
    return None


def _others_need(choice: Choice, chosen: Chosen) -> bool:
    """Whether another link names the same table: then the table is no stray."""
    return any(c is not choice and c.table == choice.table for c in chosen.choices)


def table_said_as_column(chosen: Chosen, links: list[Link], intent: Intent) -> Link | None:
    """A table link whose words also name a column of another table the reading needs:
    "the players from college UCLA" are `match_season.Player`, not rows of `player` that
    meet the seasons only through their teams."""
    for choice in chosen.choices:
        if not choice.is_table:
            continue
        columns = [
            x
            for x in links
            if (x.start, x.end) == (choice.start, choice.end)
            and x.value is None
            and not x.element.is_table
            and x.element.table != choice.table
            and x.element.table in intent.tables
        ]
        if columns:
            return choice.link
    return None


def rival_meaning(
    chosen: Chosen, links: list[Link], intent: Intent, layer: SemanticLayer
) -> tuple[Choice, str] | None:
    """A table link whose words also name another table that the rest joins to as read, and
    that table: "parts that have more than 2 faults" are `Part_Faults` of the parts, not the
    `Fault_Log`, which meets the parts only through assets the question never names. The
    surest such link, and the rival that joins the rest with the fewest joins."""
    for choice in sorted(chosen.choices, key=lambda c: (-c.link.score, c.start)):
        if not choice.is_table or _others_need(choice, chosen):
            continue
        rest = [t for t in intent.tables if t != choice.table]
        rivals = sorted(
            (
                x
                for x in links
                if (x.start, x.end) == (choice.start, choice.end)
                and x.value is None
                and x.element.is_table
                and x.element.table not in intent.tables
            ),
            key=lambda x: (-x.score, x.element.table),
        )
        steps = {x.element.table: _joins_as_read([*rest, x.element.table], layer) for x in rivals}
        joining = [x.element.table for x in rivals if steps[x.element.table] is not None]
        if joining:  # the fewest joins, then the likeliest
            return choice, min(joining, key=lambda t: (steps[t], joining.index(t)))
    return None


def _joins_as_read(tables: list[str], layer: SemanticLayer) -> int | None:
    """How many joins the tables need, None when they meet only through unnamed rows."""
    try:
        joins = plan_joins(layer, tables)
    except NoJoinPath:
        return None
    return None if unnamed_shared_parents(joins, tables, layer) else len(joins.joins)
