"""Steps 3 and 4: choose the table the question is about, the tables its filters need, the
shape (count, sum, group, top-N, order) and the join paths that connect them.

When the words do not settle a choice (which date column "in 2025" means, what to group
by) the step raises CannotAnswer with the reason instead of guessing.
"""

import re
from functools import lru_cache

from registries.semantic_layer import NEVER_BRIDGE_ROLES, SemanticLayer, Table
from sqlagent.dates import DATE_VERBS
from sqlagent.join_paths import NoJoinPath, plan_joins
from sqlagent.plan import Absence, CannotAnswer, ColumnRef, Filter, QueryPlan
from sqlagent.question_terms import QuestionTerms
from sqlagent.resolution import Resolved
from sqlagent.vocabulary import phrase

NUMERIC = ("integer", "decimal")
DATES = ("date", "datetime")
AUDIT = {"createdAt", "updatedAt"}


# Words a question may hold that change nothing in the SQL: question and helper words,
# the shape's own words, and verbs that only link the things the question names.
FILLER = frozenset(
    """many much were was is are be been have has had doe do did there their our we us them
    it its they all any currently still one as most least top often best worst average
    number three five ten different distinct unique logged log done performed issued
    received invoiced raised identified flagged used own hold carry produce appear book
    led signed oversaw made make show give list name names count total sum each per
    recent latest oldest newest earliest alphabetically order ordered sorted entry record
    percent percentage share proportion ratio month year amount yet that maximum
    minimum""".split()  # noqa: SIM905
)


_AGGREGATE_WORDS = {"maximum": "max", "max": "max", "minimum": "min", "min": "min",
                    "average": "avg", "avg": "avg", "mean": "avg"}  # fmt: skip


def _qualifiers(resolved: Resolved, layer: SemanticLayer) -> set[str]:
    """Words of the column names of the tables involved: "billing" in "the billing e-mail
    address" of a customer whose columns say billing qualifies and changes nothing."""
    tables = set(resolved.tables()) | {ref.table for _, ref in resolved.columns}
    return {w for t in tables for c in layer.tables[t].columns for w in phrase(c).split()}


def check_understood(terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer) -> None:
    """Decline rather than drop a word or a shape the SQL would have to honour."""
    question = terms.question.lower()
    if re.search(r"\band (who|which|what|how|when|where)\b", question) and not resolved.flags_shown:
        raise CannotAnswer("this is two questions in one; ask them one at a time")
    spoken = terms.text
    for name, _ in terms.names:
        spoken = spoken.replace(name.lower(), " ")
    if re.search(r"\bor\b", spoken):  # the compiler joins every condition with AND
        raise CannotAnswer("conditions joined by 'or' are not compiled without an LLM yet")
    if re.search(r"\btheir (most recent|latest|last|first|earliest)\b", question):
        raise CannotAnswer("a latest row per group is not compiled without an LLM yet")
    kinds = {_AGGREGATE_WORDS[w] for w in re.findall(r"\b\w+\b", question) if w in _AGGREGATE_WORDS}
    if len(kinds) > 1:  # "the maximum, minimum and average price"
        raise CannotAnswer("several aggregates at once are not compiled without an LLM yet")
    if terms.shape.ratio and (terms.shape.group_by or not resolved.filters):
        raise CannotAnswer("a share needs one condition over the rows, not groups of them")
    # "at least one action item": the joins already keep only rows that have one.
    compared = re.sub(r"\bat least (one|1|a|an)\b", "", terms.text)
    unplaced = [c for c in terms.comparisons if c.position not in resolved.compared]
    if unplaced or re.search(r"\b(more|fewer|less) than\b|\bat (least|most)\b", compared):
        raise CannotAnswer("this comparison is not compiled without an LLM yet")
    for value, position in terms.numbers:
        digits = terms.tokens[position].text.replace(",", "").replace(".", "").isdigit()
        if digits and value != terms.shape.top_n and position not in resolved.compared:
            raise CannotAnswer(f"I do not know what {terms.tokens[position].text} refers to")
    dated = terms.date_range is not None
    unknown = [
        w
        for w in terms.unknown
        if w not in FILLER and w not in resolved.consumed and not (dated and _date_verb(w))
    ] + resolved.unresolved
    qualifiers = _qualifiers(resolved, layer)
    filtered = {
        _stem(w) for _, f in resolved.filters for c in f.columns for w in phrase(c.column).split()
    }
    # "billed in Texas": the verb says which state column the filter reads (billingState).
    unknown = [w for w in unknown if w not in qualifiers and _stem(w) not in filtered]
    if unknown:
        listed = ", ".join(repr(w) for w in dict.fromkeys(unknown))
        raise CannotAnswer(f"I do not know what {listed} means in this database")


def _stem(word: str) -> str:
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def _said_by_date(found: Filter, date_column: str) -> bool:
    """ "scheduled in 2026" dates by scheduledStart; the status value "scheduled" (work not
    started yet) is not also meant."""
    if found.op != "=" or not isinstance(found.value, str) or not found.reason.startswith("value"):
        return False
    value = found.value.lower()
    stems = [stem for verb, stem in DATE_VERBS.items() if value.startswith(verb)]
    return any(stem in date_column.lower() for stem in stems if stem != "date")


def _date_verb(word: str) -> bool:
    """ "hired in 2025": the verb says which date the range applies to (see _date_column)."""
    return any(word.startswith(verb) for verb in DATE_VERBS)


def select_tables(terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer) -> QueryPlan:
    check_understood(terms, resolved, layer)
    absent = {table for _, table in resolved.absent}
    entities = [(pos, table) for pos, table, _ in sorted(resolved.entities) if table not in absent]
    group_table, group_column = _group(terms, resolved, layer, entities)
    anchor, anchor_at = _anchor(resolved, entities, group_table)
    plan = QueryPlan(anchor=anchor)
    plan.require(anchor, "the rows the question is about")
    plan.notes.extend(resolved.notes)
    for _, table, why in resolved.entities:
        if table not in absent:
            plan.require(table, why)
    inside: list[Filter] = []  # conditions on the rows that must not exist
    for _, found in resolved.filters:
        if found.columns[0].table in absent:
            inside.append(found)
            continue
        plan.filters.append(found)
        plan.require(found.columns[0].table, found.reason)
    for table, why in resolved.bridges:
        plan.require(table, why)
    if group_table and terms.shape.top_n:
        group_table, group_column = _ranked_column(terms, resolved, group_table)
    plan.group_table, plan.group_column = group_table, group_column
    period = re.search(r"\b(?:which|each|per|by|every) (month|year)\b", terms.text)
    if period and not (group_table or group_column):
        # "in which month of 2025 were the most work orders scheduled"
        plan.group_period = period.group(1)
        plan.group_column = _date_column(plan, terms, layer)
    if group_table:
        plan.require(group_table, "grouped by")
    if terms.shape.ratio:
        # "what percentage of completed inspections passed": the last condition named is
        # the share's; the others choose the rows it is a share of.
        plan.aggregate = "ratio"
        plan.share_of = max(resolved.filters, key=lambda f: f[0])[1]
        plan.filters.remove(plan.share_of)
    else:
        _measure(plan, terms, resolved, layer)
    if not plan.aggregate:
        for position, ref in resolved.columns:
            for asked in _asked(ref, position < anchor_at, plan.anchor, layer):
                plan.columns.append(asked)
                plan.require(asked.table, f"holds {asked}, which the question asks for")
    elif plan.group_table:  # "Show the part name and id": columns of the groups
        plan.columns += [ref for _, ref in resolved.columns if ref.table == plan.group_table]
    _asked_key(plan, terms, layer)
    _bound(plan, terms, resolved, entities)
    dated_by = _date_filter(plan, terms, layer, resolved, inside)
    if dated_by:
        plan.filters = [f for f in plan.filters if not _said_by_date(f, dated_by)]
    for word in terms.unknown:
        stem = next((DATE_VERBS[v] for v in DATE_VERBS if word.startswith(v)), None)
        explained = word in FILLER or word in resolved.consumed
        if stem and not explained and (dated_by is None or stem not in dated_by.lower()):
            raise CannotAnswer(f"cannot tell which date {word!r} refers to")
    _order(plan, terms, resolved, layer)
    try:
        plan.via = list(resolved.via)
        plan.joins = plan_joins(layer, plan.tables, via=plan.via)
        if resolved.absent:
            plan.absent = [_absence(plan.anchor, [t for _, t in resolved.absent], inside, layer)]
    except NoJoinPath as error:
        raise CannotAnswer(str(error)) from error
    for table, why in plan.joins.reasons.items():
        plan.reasons.setdefault(table, why)
    return plan


def _anchor(
    resolved: Resolved, entities: list[tuple[int, str]], group_table: str | None
) -> tuple[str, int]:
    """The rows the question is about and where it names them: the first thing it names
    that is not the groups, and not a name or owner that only qualifies another thing."""
    involved = sorted(entities + _filter_tables(resolved))
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


def _absence(anchor: str, tables: list[str], inside: list[Filter], layer: SemanticLayer) -> Absence:
    """The joins from the anchor out to the rows that must not exist."""
    if anchor in tables:
        raise CannotAnswer(f"cannot tell which {anchor} rows must be missing")
    link, *joins = plan_joins(layer, [anchor, *tables]).joins
    if any(step.left_table == anchor for step in joins):
        raise CannotAnswer(f"cannot tell how the missing {', '.join(tables)} rows meet {anchor}")
    return Absence(link, tuple(joins), tuple(inside))


def _asked(
    ref: ColumnRef, before_anchor: bool, anchor: str, layer: SemanticLayer
) -> list[ColumnRef]:
    """A column the question asks for, with the columns that complete it (an address with
    its city and state). "The names and e-mail addresses of Sterling Power Holdings'
    contacts": columns asked before the rows they belong to are those rows' columns."""
    if before_anchor and ref.table != anchor:
        table = layer.tables[anchor]
        said = phrase(ref.column)
        own = [c for c in table.columns if not c.endswith("Id") and phrase(c) == said]
        own = own or [
            c for c in table.columns if not c.endswith("Id") and phrase(c).startswith(f"{said} ")
        ]
        if len(own) == 1:
            ref = ColumnRef(anchor, own[0])
        elif said == "name" and table.label_columns:
            return []  # a person's name: the labels every list shows
    return [ref, *_address_parts(ref, layer)]


def _asked_key(plan: QueryPlan, terms: QuestionTerms, layer: SemanticLayer) -> None:
    """ "the name and id": the key of the rows listed, or of the groups."""
    if "id" not in terms.unknown:
        return
    owner = plan.group_table or (None if plan.aggregate else plan.anchor)
    key = layer.tables[owner].primary_key if owner else None
    if owner and key:
        plan.columns.append(ColumnRef(owner, key))


def _address_parts(ref: ColumnRef, layer: SemanticLayer) -> list[ColumnRef]:
    """ "address" is the street line; city, state and postal code complete it."""
    if not ref.column.lower().endswith("address") or "mail" in ref.column.lower():
        return []
    prefix = ref.column[: -len("address")].lower()
    parts = {f"{prefix}{p}" for p in ("city", "state", "postalcode", "zip", "zipcode", "country")}
    return [ColumnRef(ref.table, c) for c in layer.tables[ref.table].columns if c.lower() in parts]


def _ranked_column(
    terms: QuestionTerms, resolved: Resolved, group_table: str
) -> tuple[str | None, ColumnRef | None]:
    """ "Show the top 5 question texts": the values of that column are what is ranked, not
    the rows that hold them."""
    tokens = terms.tokens
    top = [i for v, i in terms.numbers if v == terms.shape.top_n and tokens[i - 1].norm == "top"]
    if not top:
        return group_table, None
    named = [
        ref
        for pos, ref in resolved.columns
        if ref.table == group_table and top[0] < pos <= top[0] + 3
    ]
    if len(named) != 1:
        return group_table, None
    return None, named[0]


def _bound(
    plan: QueryPlan, terms: QuestionTerms, resolved: Resolved, entities: list[tuple[int, str]]
) -> None:
    """ "customers ... with more than 40 work orders": a bound on each group's count."""
    if not resolved.bounds:
        return
    position, table, op, value = resolved.bounds[0]
    grouped = plan.group_table or plan.group_column
    if len(resolved.bounds) > 1 or table != plan.anchor or not grouped:
        raise CannotAnswer("cannot tell which rows the comparison counts")
    if plan.aggregate != "count":
        raise CannotAnswer("a bound on a count is compiled only over counted rows")
    plan.having = (op, value)
    # "How many customers have more than 40 work orders": the groups are counted.
    named_at = [pos for pos, t in entities + _filter_tables(resolved) if t == plan.group_table]
    plan.count_groups = terms.shape.aggregate == "count" and min(named_at, default=99) < position


def _group(
    terms: QuestionTerms,
    resolved: Resolved,
    layer: SemanticLayer,
    entities: list[tuple[int, str]],
) -> tuple[str | None, ColumnRef | None]:
    shape = terms.shape
    q = terms.text
    superlative = re.match(r"^(which|what|who)\b", q) and re.search(
        r"\b(most|least|highest|lowest|best|worst|fewest|top)\b", q
    )
    amounts = _amount_columns(terms, resolved, layer)
    by_amount = superlative or re.search(r"\b(most|least)\b", q)
    if shape.group_by and not (
        by_amount and phrase(shape.group_by) in {phrase(c.column) for c in amounts}
    ):
        target = _group_target(shape.group_by, layer, entities)
        for term in layer.terms:  # "per application role": a term naming a table
            if target in {phrase(n) for n in (term.name, *term.synonyms)}:
                structural = [r for r in term.resolutions if r.match_type == "structural"]
                if structural and structural[0].tables[0] in layer.tables:
                    return structural[0].tables[0], None
        qualified = _qualified_columns(layer).get(target)  # "per payment method"
        if qualified is not None:
            return None, qualified
        for _, name in entities:
            named = phrase(name) == target or phrase(name).endswith(target)
            if named and (len(entities) > 1 or shape.aggregate):
                return name, None
        for _, ref in resolved.columns:
            if phrase(ref.column) == target:
                return None, ref
        for name in [t for _, t in entities]:
            for column in layer.tables[name].columns:
                if phrase(column) == target and not column.endswith("Id"):
                    return None, ColumnRef(name, column)
                if column.endswith("Id") and target in phrase(column[:-2]):
                    referenced = _referenced(layer, name, column)
                    if referenced:
                        return referenced, None
        raise CannotAnswer(f"cannot tell what to group by: {shape.group_by!r}")
    mentioned = entities + _filter_tables(resolved) + [(p, c.table) for p, c in resolved.columns]
    heads = [(p, t) for p, t in mentioned if p not in resolved.modifiers] or mentioned
    involved = list(dict.fromkeys(t for _, t in sorted(heads)))
    if resolved.bounds:  # "customers with more than 40 work orders": each customer's count
        counted = resolved.bounds[0][1]
        return next((t for t in involved if t != counted), None), None
    if by_amount and amounts and len(involved) >= 2:
        return involved[0], None  # "which parts were used most, by quantity"
    if superlative and len(involved) >= 2:
        return involved[0], None
    return None, None


def _filter_tables(resolved: Resolved) -> list[tuple[int, str]]:
    """The tables the filters read, but for the rows that must not exist."""
    absent = {table for _, table in resolved.absent}
    return [
        (p, f.columns[0].table) for p, f in resolved.filters if f.columns[0].table not in absent
    ]


@lru_cache(maxsize=16)
def _qualified_columns(layer: SemanticLayer) -> dict[str, ColumnRef]:
    """ "payment method" -> payment.method, for every column but keys; once per layer."""
    return {
        f"{phrase(name)} {phrase(column)}": ColumnRef(name, column)
        for name, table in layer.tables.items()
        for column in table.columns
        if not column.endswith("Id")
    }


def _group_target(words_after: str, layer: SemanticLayer, entities: list[tuple[int, str]]) -> str:
    """The longest start of the words after "per"/"each" that names a table or column."""
    tokens = phrase(words_after).split()
    names = {phrase(t) for t in layer.tables} | {
        phrase(c) for _, t in entities for c in layer.tables[t].columns
    }
    names |= set(_qualified_columns(layer))
    for n in range(len(tokens), 0, -1):
        candidate = " ".join(tokens[:n])
        if candidate in names:
            return candidate
    return " ".join(tokens)


def _referenced(layer: SemanticLayer, table: str, column: str) -> str | None:
    for rel in layer.relationships:
        if rel.from_table == table and rel.from_column == column:
            return rel.to_table
    return None


AGGREGATE_WORDS = frozenset({"total", "sum", "average", "count", "number", "mean", "amount"})


def _amount_columns(
    terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer
) -> list[ColumnRef]:
    """Numeric columns the question names; "total" names invoice.total only when no other
    amount is named ("total overtime hours" sums hours)."""
    found = [
        (terms.tokens[pos].norm in AGGREGATE_WORDS, ref)
        for pos, ref in resolved.columns
        if layer.tables[ref.table].columns[ref.column].data_type in NUMERIC
    ]
    named = [ref for generic, ref in found if not generic]
    return named or [ref for _, ref in found]


def _columns_named(
    tables: list[str], question_words: set[str], layer: SemanticLayer
) -> list[ColumnRef]:
    return [
        ColumnRef(name, column.name)
        for name in tables
        for column in layer.tables[name].columns.values()
        if column.data_type in NUMERIC
        and not column.primary_key
        and not column.name.endswith("Id")
        and phrase(column.name) in question_words
    ]


def _neighbours(tables: list[str], layer: SemanticLayer) -> list[str]:
    """The tables one relationship away from the most of `tables` (workTime touches both
    employee and workTimeType), among those that may stand between them."""
    touching: dict[str, set[str]] = {}
    for rel in layer.relationships:
        for table, other in ((rel.from_table, rel.to_table), (rel.to_table, rel.from_table)):
            near = table in tables and other not in tables and other in layer.tables
            if near and layer.tables[other].role not in NEVER_BRIDGE_ROLES:
                touching.setdefault(other, set()).add(table)
    most = max((len(v) for v in touching.values()), default=0)
    return sorted(t for t, v in touching.items() if len(v) == most)


def _measure(
    plan: QueryPlan, terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer
) -> None:
    shape = terms.shape
    if resolved.span:  # "on average, how many days between ...": the days are the measure
        plan.span = resolved.span
        plan.require(plan.span[0].table, f"holds {plan.span[0]} and {plan.span[1]}")
        if shape.aggregate in ("sum", "avg", "min", "max"):
            plan.aggregate = shape.aggregate
        return
    numeric = _amount_columns(terms, resolved, layer)
    # "total overtime hours": "overtime hours" was read as a term, yet the hours column of
    # a table involved, named by a question word, is the measure, before any "total".
    question_words = {t.norm for t in terms.tokens} - AGGREGATE_WORDS
    named = _columns_named(plan.tables, question_words, layer)
    if not named:
        nearby = _columns_named(_neighbours(plan.tables, layer), question_words, layer)
        named = nearby if len(nearby) == 1 else []
    generic = [ref for pos, ref in resolved.columns if terms.tokens[pos].norm in AGGREGATE_WORDS]
    # "total reimbursable expenses": the one amount of the rows totalled, before invoice.total.
    own = [
        ColumnRef(plan.anchor, c.name)
        for c in layer.tables[plan.anchor].columns.values()
        if c.data_type == "decimal"
    ]
    # "how much was received": the one amount of the rows asked about.
    own = own if len(own) == 1 and (generic or "how much" in terms.text) else []
    numeric = (
        [r for r in numeric if r not in generic]
        + named
        + own
        + [r for r in numeric if r in generic]
    )
    q = terms.text
    ranked = plan.group_table and re.search(r"\b(most|least)\b", q)
    wants_amount = (
        shape.aggregate in ("sum", "avg", "min", "max")
        or "how much" in q
        or (
            numeric
            and (
                ranked or re.search(r"\bhow (many|much) \w+ (were|was|did)\b|\bhours\b", terms.text)
            )
        )
    )
    if wants_amount and numeric:
        plan.aggregate = (
            shape.aggregate if shape.aggregate in ("sum", "avg", "min", "max") else "sum"
        )
        plan.measure = numeric[0]
        plan.require(numeric[0].table, f"holds {numeric[0]}")
    elif shape.aggregate in ("sum", "avg", "min", "max") or "how much" in q:
        raise CannotAnswer(f"found nothing to {shape.aggregate or 'sum'} in the question")
    elif shape.aggregate == "count" or plan.group_table or plan.group_column:
        plan.aggregate = "count"


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
    column = _date_column(dated, terms, layer)
    if found.start:
        target.append(Filter((column,), ">=", found.start, f"from {found.text!r}"))
    if found.end:
        target.append(Filter((column,), "<", found.end, f"until {found.text!r}"))
    plan.notes.append(f"{found.text!r} -> {column} {found.describe()}")
    return column.column


def _date_column(plan: QueryPlan, terms: QuestionTerms, layer: SemanticLayer) -> ColumnRef:
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


def _label_columns(table: Table) -> tuple[str, ...]:
    if table.label_columns:
        return table.label_columns
    return tuple(c for c in table.columns if c.lower() in ("name", "title", "code")) or ("id",)


def _order(plan: QueryPlan, terms: QuestionTerms, resolved: Resolved, layer: SemanticLayer) -> None:
    shape = terms.shape
    q = terms.text
    if plan.aggregate and (plan.group_table or plan.group_column):
        superlative = re.search(r"\b(most|least|fewest)\b", q)
        if shape.descending is not None or shape.top_n or superlative:
            least = superlative and superlative.group(1) != "most"
            plan.descending = shape.descending is not False and not least
            plan.limit = shape.top_n or (1 if re.search(r"\b(most|least)\b", q) else None)
        return
    if plan.aggregate:
        return
    if re.search(r"\b(most|least|fewest|highest|lowest)\b", q) and not re.search(
        r"\bmost recent\b", q
    ):
        # "Which templates were used most?" with nothing to count: no guess at an order.
        raise CannotAnswer("cannot tell what the rows are ranked by")
    if re.search(r"\b(oldest|earliest|newest|latest|most recent)\b", q):
        plan.descending = bool(re.search(r"\b(newest|latest|most recent)\b", q))
        table = layer.tables[plan.anchor]
        dated = [c for c in table.columns.values() if c.data_type in DATES and c.name not in AUDIT]
        years = [c for c in table.columns.values() if "year" in c.name.lower()]
        if not (years or dated):
            raise CannotAnswer("cannot tell what makes one row older than another")
        plan.order_by = ColumnRef(plan.anchor, (years or dated)[0].name)
        plan.limit = shape.top_n or 1
        return
    if shape.alphabetical:
        plan.order_by = ColumnRef(plan.anchor, _label_columns(layer.tables[plan.anchor])[0])
    if shape.top_n:
        plan.limit = shape.top_n
    del resolved
