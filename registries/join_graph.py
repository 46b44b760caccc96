"""The join graph around one table, laid out in rings for a read-only picture."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .models import DataSource, Relationship, TableMetadata

MAX_DEPTH = 3
MAX_NODES = 60
RING = 170  # pixels between rings
ROLE_COLOURS = {
    "instance": "#4a90e2",
    "template": "#9b59b6",
    "bridge": "#50c878",
    "content_child": "#7fb3d5",
    "satellite": "#bdc3c7",
    "assignment": "#f39c12",
    "configuration": "#e67e22",
    "reference": "#a3d9a5",
    None: "#ffffff",
}


@dataclass
class Node:
    name: str
    depth: int
    role: str | None
    x: float = 0.0
    y: float = 0.0

    @property
    def colour(self) -> str:
        return ROLE_COLOURS.get(self.role, "#ffffff")


@dataclass
class Edge:
    row: Relationship
    start: Node
    end: Node

    @property
    def dashed(self) -> bool:
        return self.row.kind != "foreign_key"


@dataclass
class Neighbourhood:
    table: str
    depth: int
    nodes: list[Node]
    edges: list[Edge]
    truncated: bool
    size: int

    @property
    def view_box(self) -> str:
        half = self.size / 2
        return f"{-half} {-half} {self.size} {self.size}"


def neighbourhood(source: DataSource, table: str, depth: int = 1) -> Neighbourhood:
    depth = max(1, min(depth, MAX_DEPTH))
    rows = list(Relationship.objects.filter(data_source=source))
    adjacent: dict[str, set[str]] = {}
    for row in rows:
        adjacent.setdefault(row.from_table, set()).add(row.to_table)
        adjacent.setdefault(row.to_table, set()).add(row.from_table)
    level = {table: 0}
    frontier = [table]
    truncated = False
    for distance in range(1, depth + 1):
        following = []
        for name in frontier:
            for other in sorted(adjacent.get(name, ())):
                if other in level:
                    continue
                if len(level) >= MAX_NODES:
                    truncated = True
                    break
                level[other] = distance
                following.append(other)
        frontier = following
    roles = dict(
        TableMetadata.objects.filter(data_source=source, table__in=level).values_list(
            "table", "role"
        )
    )
    nodes = {name: Node(name, d, roles.get(name)) for name, d in level.items()}
    for distance in range(1, depth + 1):
        ring = sorted((n for n in nodes.values() if n.depth == distance), key=lambda n: n.name)
        for i, node in enumerate(ring):
            angle = 2 * math.pi * i / max(len(ring), 1) + distance * 0.3
            node.x = round(RING * distance * math.cos(angle), 1)
            node.y = round(RING * distance * math.sin(angle), 1)
    edges = [
        Edge(row, nodes[row.from_table], nodes[row.to_table])
        for row in rows
        if row.from_table in nodes
        and row.to_table in nodes
        and (row.from_table == table or row.to_table == table or depth > 1)
    ]
    return Neighbourhood(
        table, depth, list(nodes.values()), edges, truncated, RING * 2 * depth + 260
    )
