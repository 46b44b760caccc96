"""The schema-linked planner: for databases and phrasings no ontology was written for.

Question words are linked to tables, columns and stored values by evidence (`links`; words
nothing names are linked by meaning with the embedding model, `similar`), one
reading is chosen (`chosen`), its parts are read (`reader`) and composed into SQL
(`compose`). The plan carries a confidence from its evidence (`confidence`): the agent runs
it only above the threshold fitted on development data, and declines with the reason below.
"""

from dataclasses import dataclass, field

from django.conf import settings
from sqlglot import exp

from registries.services import SemanticLayer
from sqlagent.dates import DateRange
from sqlagent.linking.chosen import Chosen, Preferred, choose, possessed
from sqlagent.linking.compose import Unrelated, UnsaidParent, compose
from sqlagent.linking.confidence import Evidence, weigh
from sqlagent.linking.full_names import split_full_names
from sqlagent.linking.intent import Intent
from sqlagent.linking.links import Link, name_links, value_links
from sqlagent.linking.periods import period_words
from sqlagent.linking.question import Word, read_words
from sqlagent.linking.reader import Reader, Unreadable
from sqlagent.linking.schema_words import KIND_WORDS
from sqlagent.linking.signals import SHAPE_WORDS
from sqlagent.linking.similar import similar_links
from sqlagent.linking.strays import STRAYS as _STRAYS
from sqlagent.linking.strays import rival_meaning, stray_choice, table_said_as_column
from sqlagent.linking.terms import linking_words
from sqlagent.linking.values import StoredValues

__all__ = ["LinkedPlan", "Preferred", "Unreadable", "links_text", "plan_linked"]


@dataclass(frozen=True)
class LinkedPlan:
    statement: exp.Expression
    intent: Intent
    confidence: float
    evidence: Evidence
    links: list[str] = field(default_factory=list)  # "words -> table.column", for the trace
    named: list[tuple[str, str, bool]] = field(default_factory=list)  # (words, element, value?)


def plan_linked(
    question: str,
    layer: SemanticLayer,
    values: StoredValues,
    preferred: Preferred = frozenset(),
    period: DateRange | None = None,
) -> LinkedPlan:
    """The best linked reading of `question` as SQL; Unreadable says why there is none.
    `preferred`: the tables and columns related verified queries use (ties go to them);
    `period`: the date range the question states, read against today."""
    words = split_full_names(read_words(question), values)
    schema = linking_words(layer)
    links = name_links(words, schema) + value_links(words, values, schema)
    span = period_words(words, period)
    if span is not None and any(_names_column(x, span) for x in links):
        span = None  # "the first year and last year": a column, not last year
    # The period's words name no table, column or value.
    links = [x for x in links if span is None or not set(x.span) & set(span)]
    covered = {i for link in links for i in link.span} | set(span or ())
    surely = frozenset(x.element.table for x in links if x.element.is_table and x.score >= 0.9)
    everything = settings.SQL_LINK_BY_MEANING  # else only what a grouping is by
    links += similar_links(words, covered, layer, schema, surely, groups_only=not everything)
    said_as_rows: set[tuple[int, int]] = set()
    ands = frozenset(i for i, w in enumerate(words) if w.lower == "and")
    for _ in range(_STRAYS + 1):
        chosen: Chosen = choose(links, preferred, schema.refers, possessed(words, links), ands)
        if not chosen.choices:
            raise Unreadable("no word of the question names a table, column or value I know")
        intent = Reader(
            words, chosen, schema, values.numbers, period, span, values.flags,
            values.number_columns,
        ).read()  # fmt: skip
        _rows_not_shown(intent, chosen, said_as_rows)
        try:
            statement = compose(intent, layer)
            break
        except (UnsaidParent, Unrelated) as error:
            links = _read_again(error, chosen, links, intent, layer, said_as_rows)
    else:
        raise Unreadable("the tables it names are not related")
    if _only_echoes(intent):
        raise Unreadable("its answer would only repeat the value the question names")
    if (asked := _asked_unknown(words, chosen, intent)) is not None:
        raise Unreadable(f"I do not know what '{asked}' is in this database")
    evidence = Evidence.of(words, chosen, intent)
    unplaced = evidence.unplaced_literals
    if unplaced:
        raise Unreadable(f"I could not place {', '.join(repr(w) for w in unplaced)}")
    readable = [
        f"{' '.join(w.text for w in words[c.start : c.end])} -> {c.link.element}"
        + (f" = {c.link.value!r}" if c.is_value else "")
        for c in chosen.choices
    ]
    named = [
        (" ".join(w.text for w in words[c.start : c.end]), str(c.link.element), c.is_value)
        for c in chosen.choices
    ]
    return LinkedPlan(statement, intent, weigh(evidence), evidence, readable, named)


def _read_again(
    error: UnsaidParent | Unrelated,
    chosen: Chosen,
    links: list[Link],
    intent: Intent,
    layer: SemanticLayer,
    said_as_rows: set[tuple[int, int]],
) -> list[Link]:
    """The links to read the question with again when its tables cannot be joined as read;
    the error when nothing is left to try."""
    if isinstance(error, UnsaidParent) and (said := table_said_as_column(chosen, links, intent)):
        said_as_rows.add((said.start, said.end))
        return [x for x in links if x != said]
    if isinstance(error, Unrelated) and (stray := stray_choice(chosen, intent, layer)):
        # Its words are left unexplained (the confidence sees them) or mean another
        # element, one the rest can be joined to ("active" of the employees, not assets).
        return [x for x in links if x != stray.link]
    if (rival := rival_meaning(chosen, links, intent, layer)) is not None:
        choice, table = rival  # the words now mean that table alone
        span = (choice.start, choice.end)
        return [x for x in links if (x.start, x.end) != span or x.element.table == table]
    raise error


def _rows_not_shown(intent: Intent, chosen: Chosen, spans: set[tuple[int, int]]) -> None:
    """A table's words read as a column ("the positions of players": match_season.Player)
    still name the rows: the column is shown only when nothing else is asked."""
    elements = {c.link.element for c in chosen.choices if (c.start, c.end) in spans}
    kept = [o for o in intent.outputs if o.element not in elements]
    if kept and len(kept) < len(intent.outputs):
        intent.outputs = kept


def _only_echoes(intent: Intent) -> bool:
    """Whether every column shown is one the question sets equal to a value ("the tower
    crane checklist": `assetType.name = 'Tower Crane'`, shown): rows that say nothing
    the question did not."""
    equal = {c.element for c in intent.conditions if c.op == "="}
    shown = [o for o in intent.outputs if not intent.group or o.element != intent.group]
    return bool(shown) and all(o.element in equal and o.aggregate is None for o in shown)


_COPULAS = frozenset({"is", "are", "was", "were"})


def _asked_unknown(words: tuple[Word, ...], chosen: Chosen, intent: Intent) -> str | None:
    """ "What's the population of Phoenix?", "the difference between a Conditional and a
    Fail": the thing asked of the rows, when nothing explains it. Rows that only match the
    rest (the Phoenix branch) do not answer it."""
    lows = [w.lower for w in words]
    at = 2 if lows[1:2] and lows[1] in _COPULAS else 1
    if lows[:1] not in (["what"], ["which"]) or lows[at : at + 1] != ["the"]:
        return None
    asked = at + 1
    if lows[asked + 1 : asked + 2] not in (["of"], ["between"]) or not _a_thing_asked(words[asked]):
        return None
    covered = {i for c in chosen.choices for i in range(c.start, c.end)} | intent.used
    return words[asked].text if asked not in covered else None


def _a_thing_asked(word: Word) -> bool:
    """A word that says what is asked: not "the names of", "the number of" (the shape and
    the rows' own labels say those), nor a column's name as written (`city_code`)."""
    return (
        word.content
        and word.lower.isalpha()
        and word.lemma not in KIND_WORDS
        and word.lower not in SHAPE_WORDS
    )


def _names_column(link: Link, span: range) -> bool:
    """Whether a link surely names a column by the period's words ("last year")."""
    return (
        bool(link.element.column)
        and link.value is None
        and link.score >= 0.9
        and span.start <= link.start
        and link.end == span.stop
        and link.end - link.start >= 2
    )


def links_text(plan: LinkedPlan) -> str:
    """The reading for an LLM prompt: which words name which table or column, and the
    tables to join; stored values are said to be values, never quoted from the data."""
    lines = [
        f'- "{words}" -> {element}' + (" (a value stored in this column)" if value else "")
        for words, element, value in plan.named
    ]
    tables = ", ".join(plan.intent.tables)
    return (
        "Words of the question found in the schema:\n" + "\n".join(lines) + "\n"
        f"Tables they need, joined: {tables}\n"
    )
