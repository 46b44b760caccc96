"""The question's date range as filters on the date column it applies to ("completed in
2025": completedAt), and the date a verb names that no column answers."""

from registries.services import SemanticLayer
from sqlagent.dates import DATE_VERBS
from sqlagent.plan import DATES, CannotAnswer, ColumnRef, Filter, QueryPlan
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution import Resolved
from sqlagent.table_selection.understood import FILLER

AUDIT = {"createdAt", "updatedAt"}


def apply_date_range(
    plan: QueryPlan,
    terms: QuestionTerms,
    layer: SemanticLayer,
    resolved: Resolved,
    inside: list[Filter],
) -> None:
    """Filter by the range; decline a date verb ("hired", "completed") the range does not
    apply to."""
    dated_by = _date_filter(plan, terms, layer, resolved, inside)
    if dated_by:
        plan.filters = [f for f in plan.filters if not _said_by_date(f, dated_by)]
    for word in terms.unknown:
        stem = next((DATE_VERBS[v] for v in DATE_VERBS if word.startswith(v)), None)
        explained = word in FILLER or word in resolved.consumed
        if stem and not explained and (dated_by is None or stem not in dated_by.lower()):
            raise CannotAnswer(f"cannot tell which date {word!r} refers to")


def _said_by_date(found: Filter, date_column: str) -> bool:
    """ "scheduled in 2026" dates by scheduledStart; the status value "scheduled" (work not
    started yet) is not also meant."""
    if found.op != "=" or not isinstance(found.value, str) or not found.reason.startswith("value"):
        return False
    value = found.value.lower()
    stems = [stem for verb, stem in DATE_VERBS.items() if value.startswith(verb)]
    return any(stem in date_column.lower() for stem in stems if stem != "date")


def _date_filter(
    plan: QueryPlan,
    terms: QuestionTerms,
    layer: SemanticLayer,
    resolved: Resolved,
    inside: list[Filter],
) -> str | None:
    """Filter by the question's date range; returns the date column's name. A range said
    after rows that must not exist is theirs ("no work time in September")."""
    found = terms.date_range
    if found is None:
        return None
    target, dated = plan.filters, plan
    if resolved.absent:
        position, table = resolved.absent[0]
        if terms.question.lower().find(found.text) > terms.tokens[position].start:
            missing = [t for _, t in resolved.absent]
            target, dated = inside, QueryPlan(anchor=table, tables=missing)
    column = date_column(dated, terms, layer)
    if found.start:
        target.append(Filter((column,), ">=", found.start, f"from {found.text!r}"))
    if found.end:
        target.append(Filter((column,), "<", found.end, f"until {found.text!r}"))
    plan.notes.append(f"{found.text!r} -> {column} {found.describe()}")
    return column.column


def date_column(plan: QueryPlan, terms: QuestionTerms, layer: SemanticLayer) -> ColumnRef:
    """The date a range applies to: the column whose name shares a stem with the question's
    verbs ("completed" -> completedAt), else the table's own date, preferring the table the
    rows are measured in and tables that record events."""
    question = {t.norm for t in terms.tokens}
    stems = {
        stem for word in question for verb, stem in DATE_VERBS.items() if word.startswith(verb)
    }
    candidates: list[tuple[float, int, ColumnRef]] = []
    order = [plan.measure.table] if plan.measure else []
    order += [t for t in plan.tables if t not in order and t != plan.group_table]
    for rank, name in enumerate(order):
        table = layer.tables[name]
        for column in table.columns.values():
            if column.data_type not in DATES or column.name in AUDIT:
                continue
            lowered = column.name.lower()
            if "birth" in lowered and not question & {"born", "birth", "birthday"}:
                continue
            score = 3.0 * sum(1 for stem in stems if stem in lowered and stem != "date")
            score += 1.0 if lowered in ("date", f"{name.lower()}date") else 0.0
            score += 0.5 if table.role == "instance" else 0.0
            score -= 0.5 * rank
            candidates.append((score, -len(candidates), ColumnRef(name, column.name)))
    if not candidates:
        raise CannotAnswer("none of the tables involved has a date for the range")
    candidates.sort(reverse=True)
    return candidates[0][2]
