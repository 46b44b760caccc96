"""Stage 2: from the best seeds through the graph, one hop at a time, so that every chunk
a path passes through is one the user may read.

NEXT_CHUNK / PREV_CHUNK are always followed, SEMANTICALLY_SIMILAR when the edge's score is
at least the threshold, MENTIONS both ways through an entity that is specific enough, and
MENTIONS_TITLE from a chunk to the opening chunks of a document of its collection whose
title it names (the bridges of a multi-hop question: the film named in one passage is the
title of the next). Path scores: 1.0 for a seed, 0.8 one hop away, 0.6 two hops away."""

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.conf import settings

from core.providers import graph

from .. import cypher
from .title_bridge import mentioned_documents

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
    seed_ids: Sequence[str],
    *,
    collection_ids: Sequence[int],
    max_hops: int,
    threshold: float,
    hierarchical_limit: int,
    semantic_limit: int,
    entity_limit: int,
    title_limit: int,
) -> Expansion:
    result = Expansion()
    if not seed_ids or not collection_ids or max_hops < 1:
        return result
    seen = set(seed_ids)
    limits = {
        "hierarchical": hierarchical_limit,
        "semantic": semantic_limit,
        "entity": entity_limit,
        "title": title_limit,
    }
    used = dict.fromkeys(limits, 0)
    frontier = list(seed_ids)
    collections = list(collection_ids)
    for hop in range(1, max_hops + 1):
        found: list[tuple[str, Step]] = []
        if hierarchical_limit:
            for row in graph.run_read(
                cypher.EXPAND_SEQUENCE, ids=frontier, collections=collections
            ):
                found.append(
                    ("hierarchical", Step(row["id"], row["from_id"], row["relationship"], hop))
                )
        if semantic_limit:
            rows = graph.run_read(
                cypher.EXPAND_SIMILAR, ids=frontier, collections=collections, threshold=threshold
            )
            # Strongest edges first, so that the limit keeps the best.
            for row in sorted(rows, key=lambda r: -float(r["score"])):
                step = Step(
                    row["id"], row["from_id"], "SEMANTICALLY_SIMILAR", hop, float(row["score"])
                )
                found.append(("semantic", step))
        if entity_limit:
            rows = graph.run_read(
                cypher.EXPAND_ENTITIES,
                ids=frontier,
                collections=collections,
                max_degree=settings.RETRIEVAL_ENTITY_MAX_DEGREE,
            )
            # Rarer entities say more about a connection; the frontier's order breaks ties.
            order = {chunk_id: i for i, chunk_id in enumerate(frontier)}
            rows.sort(key=lambda r: (len(r["ids"]), order.get(r["from_id"], 0)))
            for row in rows:
                for chunk_id in row["ids"]:
                    step = Step(
                        chunk_id,
                        row["from_id"],
                        "MENTIONS",
                        hop,
                        None,
                        row["entity_id"],
                        row["entity"],
                    )
                    found.append(("entity", step))
        if title_limit:
            started = time.perf_counter()
            found.extend(("title", step) for step in _title_steps(frontier, collections, hop))
            result.title_ms += (time.perf_counter() - started) * 1000
        next_frontier: list[str] = []
        for kind, step in found:
            result.edges.append(step)
            if step.chunk_id in seen or used[kind] >= limits[kind]:
                continue
            seen.add(step.chunk_id)
            used[kind] += 1
            result.steps[step.chunk_id] = step
            next_frontier.append(step.chunk_id)
        frontier = next_frontier
        if not frontier:
            break
    result.counts = used
    return result


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
