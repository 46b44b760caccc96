"""Section types: sections of all documents clustered by what their heading says and what
they hold, so that "Skills", "Technical Expertise" and "Core Competencies" share a type."""

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.providers import graph

from . import cypher, sql
from .chunking import normalize_name
from .models import Chunk, EntityMention, Section, SectionType

# Types written to the graph per statement: each carries a centroid, and one message with
# every type of 100,000 sections is more than the graph server takes.
TYPES_PER_WRITE = 200

# Shares of the similarity: the heading's words, the text's meaning, and what the text
# holds. The heading keeps two "Experience" sections together however different the jobs;
# the other two pull "Core Competencies" (a list of tools) towards "Skills".
WEIGHTS = (0.45, 0.2, 0.35)
PROFILE_KINDS = {
    "Technology": 0,
    "Skill": 0,
    "Organization": 1,
    "Person": 2,
    "Location": 3,
    "Certification": 4,
    "": 5,
}


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)


@dataclass(frozen=True)
class SectionTable:
    """What the types are read from, as arrays rather than model rows: at 16,600 sections the
    step peaked 265 MiB above the process's start, against 509 MiB with model rows."""

    ids: list[str]
    names: list[str]
    documents: Sequence[object]
    spans: np.ndarray  # (n, 2) first and last chunk index of each section's subtree, -1: none
    embeddings: np.ndarray  # (n, dim) float32, each section's name vector

    @classmethod
    def load(cls) -> "SectionTable":
        count = Section.objects.count()
        ids, names, documents = [], [], []
        spans = np.full((count, 2), -1, dtype=np.int32)
        embeddings = np.zeros((count, settings.EMBEDDING_DIM), dtype=np.float32)
        rows = Section.objects.order_by("document_id", "position").values_list(
            "id", "name", "document_id", "start_chunk_index", "end_chunk_index", "embedding"
        )
        for row, (pk, name, document, first, last, embedding) in enumerate(rows.iterator(2000)):
            if row == count:  # the lock keeps writers out; a count is only a size
                break
            ids.append(str(pk))
            names.append(name)
            documents.append(document)
            if first is not None and last is not None:
                spans[row] = first, last
            if embedding is not None:
                embeddings[row] = embedding
        n = len(ids)
        return cls(ids, names, documents, spans[:n], embeddings[:n])

    def __len__(self) -> int:
        return len(self.ids)

    def subtrees(self) -> dict[object, dict[int, list[int]]]:
        """Per document, chunk index -> rows of the sections whose subtree holds that chunk: a
        heading whose text sits in its subsections ("Work Experience") is known by them."""
        found: dict[object, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
        for row, (document, (first, last)) in enumerate(
            zip(self.documents, self.spans, strict=True)
        ):
            for chunk_index in range(int(first), int(last) + 1) if first >= 0 else ():
                found[document][chunk_index].append(row)
        return found


def _sectioned_chunks() -> QuerySet[Chunk]:
    return Chunk.objects.filter(document__in=Section.objects.values("document_id"))


def _profiles(sections: SectionTable, spans: dict[object, dict[int, list[int]]]) -> np.ndarray:
    """What a section holds: mentions per entity kind, and the rest of its words (damped),
    so that a list of technologies reads as skills whatever its heading says."""
    profile = np.zeros((len(sections), len(PROFILE_KINDS) + 1), dtype=np.float32)
    entity_words = np.zeros(len(sections), dtype=np.float32)
    mentions = (
        EntityMention.objects.filter(document__in=Section.objects.values("document_id"))
        .values_list("document_id", "chunk__index", "entity__type", "surface")
        .iterator(2000)
    )
    for document_id, chunk_index, kind, surface in mentions:
        for row in spans.get(document_id, {}).get(chunk_index, ()):
            profile[row, PROFILE_KINDS.get(kind, len(PROFILE_KINDS) - 1)] += 1
            entity_words[row] += len(surface.split())
    chunks = _sectioned_chunks().values_list("document_id", "index", "text").iterator(2000)
    for document_id, chunk_index, text in chunks:
        for row in spans.get(document_id, {}).get(chunk_index, ()):
            profile[row, -1] += len(text.split()) / 4
    profile[:, -1] = np.maximum(profile[:, -1] - entity_words / 4, 0)
    return profile


def section_features(sections: SectionTable) -> np.ndarray:
    """One float32 row per section, filled in place (at 100,000 sections, 300 MB and no
    copies): its name's vector, its text's mean vector and its profile, each unit length
    and weighted, so that every row is unit length."""
    dim, kinds = settings.EMBEDDING_DIM, len(PROFILE_KINDS) + 1
    features = np.zeros((len(sections), 2 * dim + kinds), dtype=np.float32)
    names, mean = features[:, :dim], features[:, dim : 2 * dim]
    names[:] = sections.embeddings
    _normalise(names)
    spans = sections.subtrees()
    counts = np.zeros(len(sections), dtype=np.float32)
    chunks = _sectioned_chunks().values_list("document_id", "index", "embedding").iterator(2000)
    for document_id, chunk_index, embedding in chunks:
        for row in spans.get(document_id, {}).get(chunk_index, ()):
            mean[row] += embedding
            counts[row] += 1
    textless = np.flatnonzero(counts == 0)
    for start in range(0, len(textless), ASSIGN_BLOCK):  # a block at a time: no big copies
        rows = textless[start : start + ASSIGN_BLOCK]
        mean[rows] = names[rows]
    _normalise(mean)
    profiles = _profiles(sections, spans)
    empty = profiles.sum(axis=1) == 0
    features[:, 2 * dim :] = profiles
    _normalise(features[:, 2 * dim :])
    # A heading with no text of its own (a résumé's name above its sections) is known by
    # its name alone.
    weights = np.where(empty[:, None], [1.0, 0.0, 0.0], WEIGHTS).astype(np.float32)
    names *= np.sqrt(weights[:, :1])
    mean *= np.sqrt(weights[:, 1:2])
    features[:, 2 * dim :] *= np.sqrt(weights[:, 2:])
    return features


def _normalise(rows: np.ndarray) -> None:
    """In place, a block at a time: the squares of a whole column slice of the features
    (a strided view) are a copy of it, 150 MB at 100,000 sections."""
    for start in range(0, len(rows), ASSIGN_BLOCK):
        block = rows[start : start + ASSIGN_BLOCK]
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        block /= np.where(norms == 0, 1.0, norms)


MAX_CLUSTERED = 4000  # sections clustered at once: the distances take n² memory
ASSIGN_BLOCK = 4096


def cluster(features: np.ndarray, distance: float) -> list[int]:
    """Average-linkage clusters of the sections' features. Past `MAX_CLUSTERED` sections
    (a corpus of 100,000 one-section files would need 80 GB of distances), evenly spaced
    sections are clustered, every other one joins the cluster of its nearest clustered
    section within `distance`, and the ones none is near enough are clustered the same way."""
    return [int(label) for label in _cluster_rows(features, np.arange(len(features)), distance)]


def _cluster_rows(features: np.ndarray, rows: np.ndarray, distance: float) -> np.ndarray:
    """Labels of these rows of `features`, read in place: no copy of the rows left over."""
    if len(rows) <= MAX_CLUSTERED:
        return np.array(_agglomerative(features[rows], distance), dtype=np.int64)
    at = np.unique(np.linspace(0, len(rows) - 1, MAX_CLUSTERED).astype(int))
    picked_labels = np.array(_agglomerative(features[rows[at]], distance), dtype=np.int64)
    labels = _join_nearest(features, rows, rows[at], picked_labels, distance)
    labels[at] = picked_labels
    rest = np.flatnonzero(labels < 0)
    if len(rest):
        offset = int(picked_labels.max()) + 1
        labels[rest] = _cluster_rows(features, rows[rest], distance) + offset
    return labels


def _join_nearest(
    features: np.ndarray, rows: np.ndarray, picked: np.ndarray, labels: np.ndarray, distance: float
) -> np.ndarray:
    """Each row's label: its nearest picked row's, if within `distance`, else -1. Its own
    function so that no block of similarities outlives it (one per level of clustering
    held 65 MB each at 100,000 sections)."""
    sample = _unit(features[picked])
    found = np.full(len(rows), -1, dtype=np.int64)
    for start in range(0, len(rows), ASSIGN_BLOCK):
        similarity = _unit(features[rows[start : start + ASSIGN_BLOCK]]) @ sample.T
        nearest = similarity.argmax(axis=1)
        near = 1 - similarity[np.arange(len(nearest)), nearest] <= distance
        found[start : start + ASSIGN_BLOCK] = np.where(near, labels[nearest], -1)
    return found


def _agglomerative(features: np.ndarray, distance: float) -> list[int]:
    """Average linkage on cosine distances, cut at `distance`. SciPy's own: from the
    condensed distances alone (scikit-learn's estimator also builds the square matrix,
    about 200 MB more at 4,000 sections)."""
    if len(features) < 2:
        return [0] * len(features)
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import pdist

    distances = pdist(features, metric="cosine")
    np.nan_to_num(distances, copy=False, nan=1.0)  # an all-zero row is like nothing
    tree = linkage(distances, method="average")
    return [int(label) - 1 for label in fcluster(tree, t=distance, criterion="distance")]


def refresh_section_types() -> int:
    """Recompute every SectionType and INSTANCE_OF edge; returns the number of types.

    Types are written as they are named, `TYPES_PER_WRITE` at a time, to PostgreSQL and the
    graph alike: 26,000 types of 100,000 sections, each centroid as Python floats, would
    hold about 600 MB at once."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(sql.SECTION_TYPES_LOCK)
        sections = SectionTable.load()
        old_keys = set(SectionType.objects.values_list("key", flat=True))
        labels = (
            cluster(section_features(sections), settings.INGESTION_SECTION_TYPE_DISTANCE)
            if len(sections)
            else []
        )
        members: dict[int, list[int]] = defaultdict(list)
        for row, label in enumerate(labels):
            members[label].append(row)
        for start in range(0, len(sections), 1000):
            graph.run_write(cypher.UNLINK_SECTION_TYPES, ids=sections.ids[start : start + 1000])
        keys: set[str] = set()
        groups = list(members.values())
        for start in range(0, len(groups), TYPES_PER_WRITE):
            _write_types(sections, groups[start : start + TYPES_PER_WRITE], keys)
        stale = sorted(old_keys - keys)
        SectionType.objects.filter(key__in=stale).delete()
        for start in range(0, len(stale), 1000):
            graph.run_write(cypher.DELETE_SECTION_TYPES, ids=stale[start : start + 1000])
        return len(keys)


def _write_types(sections: SectionTable, groups: list[list[int]], keys: set[str]) -> None:
    """Names these groups' types (keys unique among `keys`, which it extends), saves them,
    points their sections at them, and writes them and their INSTANCE_OF edges to the graph."""
    types = [_named_type(sections, group, keys) for group in groups]
    SectionType.objects.bulk_create(
        types,
        update_conflicts=True,
        unique_fields=["key"],
        update_fields=[
            "canonical_name", "normalized_name", "variants", "member_count", "centroid",
            "updated_at",
        ],
    )  # fmt: skip
    section_ids = [sections.ids[row] for group in groups for row in group]
    type_ids = [t.pk for t, group in zip(types, groups, strict=True) for _ in group]
    with connection.cursor() as cursor:
        cursor.execute(sql.SET_SECTION_TYPES, {"sections": section_ids, "types": type_ids})
    rows = [
        {
            "id": t.key,
            "canonical_name": t.canonical_name,
            "normalized_name": t.normalized_name,
            "common_variants": list(t.variants),
            "member_count": t.member_count,
            "centroid": [float(x) for x in t.centroid],
        }
        for t in types
    ]
    graph.run_write(cypher.MERGE_SECTION_TYPES, rows=rows)
    pairs = [
        {"section": sections.ids[row], "type": t.key}
        for t, group in zip(types, groups, strict=True)
        for row in group
    ]
    for start in range(0, len(pairs), 1000):
        graph.run_write(cypher.LINK_SECTION_TYPES, pairs=pairs[start : start + 1000])


def _named_type(sections: SectionTable, group: list[int], keys: set[str]) -> SectionType:
    """A group's type, named by its most common heading (the shortest of equals)."""
    names = Counter(sections.names[row] for row in group)
    canonical = sorted(names, key=lambda n: (-names[n], len(n), n))[0]
    name = normalize_name(canonical) or "untitled"
    base = f"{settings.INGESTION_GRAPH_NAMESPACE}section_type:{name}"
    key, n = base, 2
    while key in keys:
        key, n = f"{base}_{n}", n + 1
    keys.add(key)
    return SectionType(
        key=key,
        canonical_name=canonical,
        normalized_name=normalize_name(canonical),
        variants=[name for name, _ in names.most_common()],
        member_count=len(group),
        centroid=_unit(sections.embeddings[group].mean(axis=0, keepdims=True))[0],
        updated_at=timezone.now(),
    )
