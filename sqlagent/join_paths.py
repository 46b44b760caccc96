"""Join paths between the selected tables: shortest paths over the enabled relationships
at or above the confidence threshold, at most SQL_MAX_JOIN_HOPS hops (networkx).

Semantic roles are respected: satellite, assignment and configuration tables are never
bridges, nor a table whose metadata excludes it for either end of the pair. The tables are
connected one at a time to the growing join tree by the cheapest path, so a bridge is only
added where no direct path exists. Paths are cached per semantic-layer snapshot.
"""

from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import networkx as nx
from django.conf import settings

from registries.services import NEVER_BRIDGE_ROLES, Relationship, SemanticLayer


@dataclass(frozen=True)
class JoinStep:
    """Join `right_table` into the query through one relationship."""

    left_table: str
    left_column: str
    right_table: str
    right_column: str
    relationship: Relationship

    @property
    def fans_out(self) -> bool:
        """True when each left row can meet many right rows (right holds the foreign key)."""
        rel = self.relationship
        return rel.to_table == self.left_table and rel.from_table == self.right_table


@dataclass(frozen=True)
class JoinPlan:
    tables: tuple[str, ...]
    joins: tuple[JoinStep, ...]
    reasons: dict[str, str]


class NoJoinPath(Exception):
    pass


def related(one: str, other: str, layer: SemanticLayer) -> bool:
    """Joined by one relationship, either way."""
    return any({r.from_table, r.to_table} == {one, other} for r in layer.relationships if r.enabled)


def _weight(rel: Relationship) -> float:
    # Hops dominate; confidence breaks ties between paths of equal length, then a key named
    # after the table it points to (workTime.crewId over crew.createdByUserId).
    return 1.0 + (1.0 - rel.confidence) + (0.0 if _named(rel) else _UNNAMED)


_UNNAMED = 0.001


def _named(rel: Relationship) -> bool:
    return rel.from_column.lower() == f"{rel.to_table}{rel.to_column}".lower()


@lru_cache(maxsize=16)
def join_graph(layer: SemanticLayer, threshold: float) -> nx.Graph:
    graph = nx.Graph()
    graph.add_nodes_from(layer.tables)
    for rel in layer.relationships:
        if not rel.enabled or rel.confidence < threshold:
            continue
        if rel.from_table not in layer.tables or rel.to_table not in layer.tables:
            continue
        if rel.from_table == rel.to_table:
            continue  # self references never connect two different tables
        current = graph.get_edge_data(rel.from_table, rel.to_table)
        if current is None or _preferred(rel, current["relationship"]):
            graph.add_edge(rel.from_table, rel.to_table, relationship=rel, weight=_weight(rel))
    return graph


def _preferred(candidate: Relationship, current: Relationship) -> bool:
    """Between two relationships of one table pair, the surer one; then the one whose
    column is named after the table it points to (workOrder.customerId over createdBy)."""
    if candidate.confidence != current.confidence:
        return candidate.confidence > current.confidence
    return _named(candidate) and not _named(current)


def _may_bridge(layer: SemanticLayer, table: str, ends: tuple[str, str]) -> bool:
    meta = layer.tables[table]
    if meta.role in NEVER_BRIDGE_ROLES:
        return False
    return not (meta.never_bridge_for & set(ends))


@lru_cache(maxsize=4096)
def shortest_path(
    layer: SemanticLayer, source: str, target: str, threshold: float, max_hops: int
) -> tuple[str, ...] | None:
    graph = join_graph(layer, threshold)
    if source not in graph or target not in graph:
        return None
    ends = (source, target)
    view = nx.subgraph_view(graph, filter_node=lambda n: n in ends or _may_bridge(layer, n, ends))
    try:
        path = nx.shortest_path(view, source, target, weight="weight")
    except nx.NetworkXNoPath:
        return None
    return tuple(path) if len(path) - 1 <= max_hops else None


def _path_cost(layer: SemanticLayer, path: tuple[str, ...], threshold: float) -> float:
    graph = join_graph(layer, threshold)
    return sum(graph[a][b]["weight"] for a, b in pairwise(path))


def _named_step(
    via: Sequence[Relationship], in_tree: list[str], remaining: list[str]
) -> JoinStep | None:
    for rel in via:
        if rel.from_table in in_tree and rel.to_table in remaining:
            return JoinStep(rel.from_table, rel.from_column, rel.to_table, rel.to_column, rel)
        if rel.to_table in in_tree and rel.from_table in remaining:
            return JoinStep(rel.to_table, rel.to_column, rel.from_table, rel.from_column, rel)
    return None


def plan_joins(
    layer: SemanticLayer,
    tables: list[str],
    *,
    threshold: float | None = None,
    max_hops: int | None = None,
    via: Sequence[Relationship] = (),
) -> JoinPlan:
    """Connect `tables` (the first is the anchor) into one join tree. A relationship in
    `via` joins its two tables directly (the question named that role)."""
    threshold = settings.SQL_CONFIDENCE_THRESHOLD if threshold is None else threshold
    max_hops = settings.SQL_MAX_JOIN_HOPS if max_hops is None else max_hops
    graph = join_graph(layer, threshold)
    anchor, *rest = list(dict.fromkeys(tables))
    in_tree = [anchor]
    reasons = {anchor: "anchor: the rows the question is about"}
    joins: list[JoinStep] = []
    remaining = [t for t in rest if t != anchor]
    while remaining:
        named = _named_step(via, in_tree, remaining)
        if named is not None:
            joins.append(named)
            in_tree.append(named.right_table)
            reasons[named.right_table] = "required by the question"
            remaining.remove(named.right_table)
            continue
        best: tuple[float, str, tuple[str, ...]] | None = None
        for target in remaining:
            for source in in_tree:
                path = shortest_path(layer, source, target, threshold, max_hops)
                if path is None:
                    continue
                cost = _path_cost(layer, path, threshold)
                if best is None or cost < best[0]:
                    best = (cost, target, path)
        if best is None:
            raise NoJoinPath(
                f"no join path of at most {max_hops} hops from {', '.join(in_tree)} "
                f"to {', '.join(remaining)} over relationships with confidence >= {threshold}"
            )
        _, target, path = best
        for left, right in pairwise(path):
            if right in in_tree:
                continue
            rel: Relationship = graph[left][right]["relationship"]
            if rel.from_table == left:
                step = JoinStep(left, rel.from_column, right, rel.to_column, rel)
            else:
                step = JoinStep(left, rel.to_column, right, rel.from_column, rel)
            joins.append(step)
            in_tree.append(right)
            if right != target and right not in remaining:
                reasons[right] = f"bridge between {path[0]} and {target}"
        reasons.setdefault(target, "required by the question")
        remaining = [t for t in remaining if t not in in_tree]
    return JoinPlan(tables=tuple(in_tree), joins=tuple(joins), reasons=reasons)


def unnamed_shared_parents(
    joins: JoinPlan, named: Collection[str], layer: SemanticLayer
) -> list[str]:
    """Tables the joins enter from two of their children although the question names none
    of them: such a join pairs rows that merely share a parent (an incident and a
    certificate of the same employee), a guess rather than a reading. A named child whose
    own key is its parent's key (`Students` of `People`) is a kind of that parent, said."""
    children: defaultdict[str, list[str]] = defaultdict(list)
    kinds: Counter[str] = Counter()
    for step in joins.joins:
        rel = step.relationship
        children[rel.to_table].append(rel.from_table)
        if layer.tables[rel.from_table].single_key == rel.from_column and rel.from_table in named:
            kinds[rel.to_table] += 1
    return [t for t, kids in children.items() if len(kids) > 1 and t not in named and kinds[t] != 1]
