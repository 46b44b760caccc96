"""Which tables a prompt shows: the plan's, else the ones the question resolved to, else
the best matches for its words; for a correction, the ones the failing SQL names."""

import contextlib
import difflib

from django.conf import settings
from sqlglot import exp

from registries.services import SemanticLayer
from sqlagent.join_paths import NoJoinPath, plan_joins
from sqlagent.plan import QueryPlan
from sqlagent.resolution import Resolved
from sqlagent.sql_generation.prompt_parts import logical_names
from sqlagent.vocabulary import words

# Question words that say nothing about which table is meant.
_QUESTION_WORDS = frozenset(
    """the a an of for to in on at and or with by is are was were be do does did have has
    had there what which who whom whose how many much list show me give all our we their
    its that this these those each per every most least top total number count sum average
    than more less ignore rule drop delete table select from where""".split()  # noqa: SIM905
)


def tables_in_context(
    plan: QueryPlan | None, resolved: Resolved, layer: SemanticLayer, *, question: str = ""
) -> list[str]:
    """The plan's tables with their bridges; else the resolved tables joined up; else the
    tables whose names and terms best match the question's words."""
    limit = settings.SQL_MAX_TABLES_IN_CONTEXT
    if plan is not None:
        return _plan_tables(plan)[:limit]
    named = [*resolved.tables(), *(ref.table for _, ref in resolved.columns)]
    named = [t for t in dict.fromkeys(named) if t in layer.tables]
    if not named:
        asked = question or " ".join(resolved.unresolved)
        return _best_matching(asked, layer, min(limit, settings.SQL_MAX_FALLBACK_TABLES))
    if len(named) > 1:
        # Without a path the LLM still sees each table, and no invented join.
        with contextlib.suppress(NoJoinPath):
            named = list(plan_joins(layer, named).tables)
    return named[:limit]


def tables_for_correction(
    statement: exp.Expression, plan: QueryPlan | None, layer: SemanticLayer
) -> list[str]:
    """The tables the failing SQL names (secure views mapped back to their logical names,
    a misspelt name to its one near match) and the plan's tables."""
    logical = logical_names(layer)
    ctes = {cte.alias_or_name for cte in statement.find_all(exp.CTE)}
    named: list[str] = []
    for table in statement.find_all(exp.Table):
        name = logical.get(table.name, table.name)
        if name in layer.tables:
            named.append(name)
        elif name and name not in ctes:
            named += difflib.get_close_matches(name, list(layer.tables), n=1, cutoff=0.8)
    if plan is not None:
        named += _plan_tables(plan)
    return list(dict.fromkeys(named))[: settings.SQL_MAX_TABLES_IN_CONTEXT]


def _plan_tables(plan: QueryPlan) -> list[str]:
    joined = list(plan.joins.tables) if plan.joins else []
    return list(dict.fromkeys([*joined, *plan.tables]))


def _best_matching(question: str, layer: SemanticLayer, limit: int) -> list[str]:
    asked = set(words(question)) - _QUESTION_WORDS
    if not asked:
        return []
    scores: dict[str, float] = {}
    for name, table in layer.tables.items():
        score = 3.0 * len(asked & set(words(name)))
        column_words = {w for c in table.columns for w in words(c)} - {"id"}
        score += min(2.0, 0.5 * len(asked & column_words))
        if score:
            scores[name] = score
    for term in layer.terms:
        said = asked & {w for text in (term.name, *term.synonyms) for w in words(text)}
        for resolution in term.resolutions[:1]:  # the primary reading only
            for name in resolution.tables:
                if said and name in layer.tables:
                    scores[name] = scores.get(name, 0.0) + 2.0 * len(said)
    ranked = sorted(scores, key=lambda n: (-scores[n], layer.tables[n].role != "instance", n))
    return ranked[:limit]
