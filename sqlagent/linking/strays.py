"""A link to a table the rest of a reading cannot be joined to is more likely a stray
meaning of its words ("failed" as a sync log's status in a question about checklists) than
the question's point: the weakest such link is dropped and the question read again."""

from registries.services import SemanticLayer
from sqlagent.join_paths import NoJoinPath, plan_joins
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
