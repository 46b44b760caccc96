"""Step 6, second half: aggregates over joins that repeat rows are made safe.

A join fans out when it meets a column that is not unique on the far side (`workOrder`
joined to its `invoice` rows): every work-order row then appears once per invoice, and
COUNT(*) or SUM(workOrder.x) would silently count it several times. The guard reads the
join conditions against the semantic layer's keys and:
- turns COUNT(*) / COUNT(col) into COUNT(DISTINCT key of the counted table);
- takes SUM and AVG over each measured row once per group, by aggregating a subquery that
  keeps one row per (measured row, group) pair.
MIN and MAX are not changed by repetition. A query it cannot read (set operations, nested
aggregates, tables it does not know) is left as it is and said so.
"""

from collections import defaultdict, deque
from dataclasses import dataclass

from sqlglot import exp

from registries.services import SemanticLayer

_SOURCES = ("from_", "joins", "where")  # what moves into the once-per-row subquery
Edges = dict[str, list[tuple[str, bool]]]  # alias -> [(neighbour alias, whether it fans out)]


@dataclass(frozen=True)
class _Joined:
    """The statement's tables by alias, and how its joins link them."""

    tables: dict[str, str]  # alias -> table
    edges: Edges
    layer: SemanticLayer

    def repeats(self, alias: str) -> bool:
        return repeats(alias, self.edges)

    def key(self, alias: str) -> str | None:
        """The key column of the table behind `alias`; None when it has none to count by."""
        table = self.layer.tables[self.tables[alias]]
        return table.primary_key or ("id" if "id" in table.columns else None)


def guard_fan_out(
    statement: exp.Expression, layer: SemanticLayer
) -> tuple[exp.Expression, list[str]]:
    if not isinstance(statement, exp.Select) or not statement.args.get("joins"):
        return statement, []
    aggregates = [a for e in statement.expressions for a in e.find_all(exp.AggFunc)]
    if not aggregates:
        return statement, []
    tables = _aliases(statement)
    if tables is None or any(t not in layer.tables for t in tables.values()):
        return statement, ["fan-out not checked: a table the registry does not describe"]
    edges = _join_edges(statement, tables, layer)
    if edges is None:
        return statement, ["fan-out not checked: a join condition it cannot read"]
    statement = statement.copy()
    notes: list[str] = []
    joined = _Joined(tables, edges, layer)
    fixed = _distinct_counts(statement, joined, notes)
    if _fix_sums(fixed, joined):
        return _pre_aggregated(fixed, joined, notes), notes
    return fixed, notes


def _aliases(select: exp.Select) -> dict[str, str] | None:
    """alias -> table for FROM and JOINs; None when a source is not a plain table."""
    found: dict[str, str] = {}
    sources = [select.args.get("from_"), *list(select.args["joins"])]
    for source in sources:
        node = source.this if source is not None else None
        if not isinstance(node, exp.Table):
            return None
        found[node.alias_or_name] = node.name
    return found


def unique(layer: SemanticLayer, table: str, column: str) -> bool:
    found = layer.tables[table].columns.get(column)
    return bool(found and (found.primary_key or found.unique))


def _join_edges(select: exp.Select, tables: dict[str, str], layer: SemanticLayer) -> Edges | None:
    """alias -> [(neighbour alias, whether stepping to it repeats this side's rows)]."""
    edges: Edges = defaultdict(list)
    for join in select.args["joins"]:
        on = join.args.get("on")
        equalities = list(on.find_all(exp.EQ)) if on is not None else []
        linked = False
        for eq in equalities:
            left, right = eq.this, eq.expression
            if not (isinstance(left, exp.Column) and isinstance(right, exp.Column)):
                continue
            if left.table not in tables or right.table not in tables:
                continue
            a, b = left.table, right.table
            edges[a].append((b, not unique(layer, tables[b], right.name)))
            edges[b].append((a, not unique(layer, tables[a], left.name)))
            linked = True
        if not linked:
            return None
    return edges


def repeats(alias: str, edges: Edges) -> bool:
    """Whether some join, walking away from `alias`, meets many rows per row."""
    seen, queue = {alias}, deque([alias])
    while queue:
        node = queue.popleft()
        for neighbour, fans in edges[node]:
            if neighbour in seen:
                continue
            if fans:
                return True
            seen.add(neighbour)
            queue.append(neighbour)
    return False


def _distinct_counts(select: exp.Select, joined: _Joined, notes: list[str]) -> exp.Select:
    tables = joined.tables
    anchor = select.args["from_"].this.alias_or_name
    for count in list(select.find_all(exp.Count)):
        inner = count.this
        if isinstance(inner, exp.Distinct):
            continue
        if isinstance(inner, exp.Star) or inner is None:
            alias = anchor
        elif isinstance(inner, exp.Column) and inner.table in tables:
            alias = inner.table
        else:
            continue
        if not joined.repeats(alias):
            continue
        name = joined.key(alias)
        if name is None:
            notes.append(f"COUNT over {tables[alias]} may count a row twice: it has no key")
            continue
        key = exp.column(name, table=alias, quoted=True)
        count.set("this", exp.Distinct(expressions=[key]))
        notes.append(f"COUNT over {tables[alias]} counts each row once (COUNT DISTINCT)")
    return select


def _fix_sums(select: exp.Select, joined: _Joined) -> bool:
    for agg in select.find_all(exp.Sum, exp.Avg):
        columns = list(agg.find_all(exp.Column))
        if any(c.table in joined.tables and joined.repeats(c.table) for c in columns):
            return True
    return False


def _pre_aggregated(select: exp.Select, joined: _Joined, notes: list[str]) -> exp.Select:
    """SELECT g, SUM(m) ... becomes SELECT g, SUM(m) FROM (SELECT DISTINCT keys, g, m ...)."""
    inner_columns: dict[str, exp.Expression] = {}

    def keep(column: exp.Column) -> exp.Column:
        name = f"{column.table}__{column.name}"
        inner_columns.setdefault(name, exp.column(column.name, table=column.table, quoted=True))
        return exp.column(name, table="rows_once", quoted=True)

    tables = joined.tables
    measured = {
        c.table
        for agg in select.find_all(exp.AggFunc)
        for c in agg.find_all(exp.Column)
        if c.table in tables
    }
    keys = {alias: joined.key(alias) for alias in sorted(measured)}
    for alias, name in keys.items():
        if name is None:
            notes.append("SUM/AVG over rows a join repeats: not fixed, a table has no key")
            return select
        keep(exp.column(name, table=alias))
    outer = select.copy()
    for node in list(outer.find_all(exp.Column)):
        if node.table in tables and not _inside(node, _SOURCES, outer):
            node.replace(keep(node))
    inner = exp.Select(expressions=[e.as_(name, quoted=True) for name, e in inner_columns.items()])
    inner = inner.distinct()
    for name in _SOURCES:
        inner.set(name, outer.args.get(name))
        outer.set(name, None)
    outer = outer.from_(inner.subquery("rows_once"))
    notes.append("SUM/AVG over rows a join repeats: each row is taken once per group")
    return outer


def _inside(node: exp.Expression, args: tuple[str, ...], root: exp.Select) -> bool:
    """Whether `node` sits under one of `root`'s `args` (FROM, JOIN, WHERE)."""
    for name in args:
        value = root.args.get(name)
        for part in value if isinstance(value, list) else [value]:
            if part is not None and any(n is node for n in part.walk()):
                return True
    return False
