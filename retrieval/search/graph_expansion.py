"""Stage 2: from the best seeds through the graph, one hop at a time, so that every chunk
a path passes through is one the user may read.

NEXT_CHUNK / PREV_CHUNK are always followed, SEMANTICALLY_SIMILAR when the edge's score is
at least the threshold, and MENTIONS both ways through an entity that is specific enough
(the bridge of a multi-hop question: the film named in one passage is the title of the
next). Path scores: 1.0 for a seed, 0.8 one hop away, 0.6 two hops away."""

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.conf import settings

from core.providers import graph

from .. import cypher

PATH_SCORES = {0: 1.0, 1: 0.8, 2: 0.6}
SEQUENCE = ("NEXT_CHUNK", "PREV_CHUNK")


@dataclass(frozen=True)
class Step:
    chunk_id: str
    reached_from: str
    relationship: str
    hop: int
    edge_score: float | None = None
    entity_id: str | None = None
    entity: str | None = None

    @property
    def path_score(self) -> float:
        return PATH_SCORES[self.hop]


@dataclass
class Expansion:
    steps: dict[str, Step] = field(default_factory=dict)  # first (shortest) way to each chunk
    edges: list[Step] = field(default_factory=list)  # every edge walked, for the trace
    counts: dict[str, int] = field(default_factory=dict)


def expand(
    seed_ids: Sequence[str],
    *,
    collection_ids: Sequence[int],
    max_hops: int,
    threshold: float,
    hierarchical_limit: int,
    semantic_limit: int,
    entity_limit: int,
) -> Expansion:
    result = Expansion()
    if not seed_ids or not collection_ids or max_hops < 1:
        return result
    seen = set(seed_ids)
    limits = {
        "hierarchical": hierarchical_limit,
        "semantic": semantic_limit,
        "entity": entity_limit,
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
