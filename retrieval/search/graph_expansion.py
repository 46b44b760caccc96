"""Stage 2: from the best seeds through the graph, one hop at a time, so that every chunk
a path passes through is one the user may read.

NEXT_CHUNK / PREV_CHUNK are always followed, SEMANTICALLY_SIMILAR when the edge's score is
at least the threshold, MENTIONS both ways through an entity that is specific enough, and
MENTIONS_TITLE from a chunk to the opening chunks of a document of its collection whose
title it names (the bridges of a multi-hop question: the film named in one passage is the
title of the next). Path scores: 1.0 for a seed, 0.8 one hop away, 0.6 two hops away."""

import os
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.conf import settings

from core.providers import graph

from .. import cypher
from .params import SearchParams
from .title_bridge import mentioned_documents

# Shared by the searches of a process (each submits at most three queries a hop); made
# again in a forked child, which inherits the object but not its threads.
_pools: dict[int, ThreadPoolExecutor] = {}


def _graph_queries() -> ThreadPoolExecutor:
    pool = _pools.get(os.getpid())
    if pool is None:
        _pools.clear()
        pool = _pools[os.getpid()] = ThreadPoolExecutor(8, thread_name_prefix="graph-expansion")
    return pool


PATH_SCORES = {0: 1.0, 1: 0.8, 2: 0.6}
SEQUENCE = ("NEXT_CHUNK", "PREV_CHUNK")
# Chunks of a named document that the title bridge reaches: its opening, where the
# document says what it is about.
TITLE_CHUNKS_PER_DOCUMENT = 3


@dataclass(frozen=True)
class Step:
    chunk_id: str
    reached_from: str
    relationship: str
    hop: int
    edge_score: float | None = None
    entity_id: str | None = None
    entity: str | None = None  # the entity both chunks mention, or the title named
    document_id: str | None = None  # the document whose title was named (MENTIONS_TITLE)

    @property
    def path_score(self) -> float:
        return PATH_SCORES[self.hop]


@dataclass
class Expansion:
    steps: dict[str, Step] = field(default_factory=dict)  # first (shortest) way to each chunk
    edges: list[Step] = field(default_factory=list)  # every edge walked, for the trace
    counts: dict[str, int] = field(default_factory=dict)
    title_ms: float = 0.0  # finding the titles the frontier names (part of the graph stage)


def expand(
    seed_ids: Sequence[str], *, collection_ids: Sequence[int], params: SearchParams
) -> Expansion:
    """Hop by hop from the seeds, up to params.max_hops, each kind of edge bringing in at
    most its expansion limit of chunks over all hops."""
    result = Expansion()
    if not seed_ids or not collection_ids or params.max_hops < 1:
        return result
    walk = _Walk(
        collections=list(collection_ids),
        threshold=params.similarity_threshold,
        limits={
            "hierarchical": params.hierarchical_expansion_limit,
            "semantic": params.semantic_expansion_limit,
            "entity": params.entity_expansion_limit,
            "title": params.title_expansion_limit,
        },
        seen=set(seed_ids),
        result=result,
    )
    frontier = list(seed_ids)
    for hop in range(1, params.max_hops + 1):
        frontier = walk.claim(walk.edges(frontier, hop))
        if not frontier:
            break
    result.counts = walk.used
    return result


@dataclass
class _Walk:
    collections: list[int]
    threshold: float
    limits: dict[str, int]  # kind of edge -> how many chunks it may bring in
    seen: set[str]  # chunk ids already candidates (seeds) or reached
    result: Expansion
    used: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.used = dict.fromkeys(self.limits, 0)

    def edges(self, frontier: list[str], hop: int) -> list[tuple[str, Step]]:
        """Every edge out of the frontier, by kind, in the order the limits keep them. The
        three graph queries run at once in pool threads (they need no database connection)
        while the title bridge, which reads PostgreSQL, runs here."""
        queries = {
            "hierarchical": lambda: _sequence_steps(frontier, self.collections, hop),
            "semantic": lambda: _similar_steps(frontier, self.collections, hop, self.threshold),
            "entity": lambda: _entity_steps(frontier, self.collections, hop),
        }
        running = {
            kind: _graph_queries().submit(query)
            for kind, query in queries.items()
            if self.limits[kind]
        }
        titles: list[Step] = []
        if self.limits["title"]:
            started = time.perf_counter()
            titles = _title_steps(frontier, self.collections, hop)
            self.result.title_ms += (time.perf_counter() - started) * 1000
        found = [(kind, step) for kind, future in running.items() for step in future.result()]
        return found + [("title", step) for step in titles]

    def claim(self, found: list[tuple[str, Step]]) -> list[str]:
        """Records every edge; the first way to a chunk not seen yet claims it while its
        kind is under its limit. The claimed chunks are the next frontier."""
        frontier: list[str] = []
        for kind, step in found:
            self.result.edges.append(step)
            if step.chunk_id in self.seen or self.used[kind] >= self.limits[kind]:
                continue
            self.seen.add(step.chunk_id)
            self.used[kind] += 1
            self.result.steps[step.chunk_id] = step
            frontier.append(step.chunk_id)
        return frontier


def _sequence_steps(frontier: list[str], collections: list[int], hop: int) -> list[Step]:
    rows = graph.run_read(cypher.EXPAND_SEQUENCE, ids=frontier, collections=collections)
    return [Step(row["id"], row["from_id"], row["relationship"], hop) for row in rows]


def _similar_steps(
    frontier: list[str], collections: list[int], hop: int, threshold: float
) -> list[Step]:
    rows = graph.run_read(
        cypher.EXPAND_SIMILAR, ids=frontier, collections=collections, threshold=threshold
    )
    # Strongest edges first, so that the limit keeps the best.
    return [
        Step(row["id"], row["from_id"], "SEMANTICALLY_SIMILAR", hop, float(row["score"]))
        for row in sorted(rows, key=lambda r: -float(r["score"]))
    ]


def _entity_steps(frontier: list[str], collections: list[int], hop: int) -> list[Step]:
    rows = graph.run_read(
        cypher.EXPAND_ENTITIES,
        ids=frontier,
        collections=collections,
        max_degree=settings.RETRIEVAL_ENTITY_MAX_DEGREE,
    )
    # Rarer entities say more about a connection; the frontier's order breaks ties.
    order = {chunk_id: i for i, chunk_id in enumerate(frontier)}
    rows.sort(key=lambda r: (len(r["ids"]), order.get(r["from_id"], 0)))
    return [
        Step(chunk_id, row["from_id"], "MENTIONS", hop, None, row["entity_id"], row["entity"])
        for row in rows
        for chunk_id in row["ids"]
    ]


def _title_steps(frontier: list[str], collections: list[int], hop: int) -> list[Step]:
    links = mentioned_documents(frontier, collection_ids=collections)
    if not links:
        return []
    rows = graph.run_read(
        cypher.EXPAND_TITLES,
        links=[{"from_id": link.from_id, "document_id": link.document_id} for link in links],
        collections=collections,
        per_document=TITLE_CHUNKS_PER_DOCUMENT,
    )
    # The best chunk first, then the order in which its text names the titles.
    order = {(link.from_id, link.document_id): i for i, link in enumerate(links)}
    titles = {link.document_id: link.title for link in links}
    rows.sort(key=lambda r: (order[(r["from_id"], r["document_id"])], r["chunk_index"]))
    return [
        Step(
            r["id"],
            r["from_id"],
            "MENTIONS_TITLE",
            hop,
            entity=titles[r["document_id"]],
            document_id=r["document_id"],
        )
        for r in rows
    ]


def path_signals(expansion: Expansion, strengths: dict[str, float]) -> dict[str, float]:
    """Per candidate, its path signal in 0..1: a path is worth what it starts from. A seed
    is its own path (1.0 x its strength: its relevance relative to the best seed's); a way
    from an expanded seed is worth the way's path score x that seed's strength (0.8 one hop
    away, 0.6 two). The best way counts, among every edge walked (into seeds too), not only
    the one that claimed the chunk; own path and way combine as independent evidence,
    1 - (1 - own) x (1 - way). A passage named by the best hit gets 0.8 however unlike the
    question it is."""
    ways: dict[str, float] = {}
    origin = dict(strengths)  # what each chunk passes on: the strength its paths start at
    for hop in sorted({edge.hop for edge in expansion.edges}):
        reached: dict[str, float] = {}
        for edge in expansion.edges:
            start = origin.get(edge.reached_from)
            if edge.hop == hop and start is not None:
                reached[edge.chunk_id] = max(reached.get(edge.chunk_id, 0.0), start)
        for chunk_id, start in reached.items():
            ways[chunk_id] = max(ways.get(chunk_id, 0.0), PATH_SCORES[hop] * start)
            origin.setdefault(chunk_id, start)
    return {
        chunk_id: 1.0 - (1.0 - strengths.get(chunk_id, 0.0)) * (1.0 - ways.get(chunk_id, 0.0))
        for chunk_id in strengths.keys() | ways.keys()
    }
