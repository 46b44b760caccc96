"""The BM25 keyword stage: postings and collection statistics kept by the database as
chunks are written, replaced and deleted, ranking by BM25, and statistics taken only over
what the asking person may read."""

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from ingestion.documents import delete_document
from ingestion.models import Chunk, Collection, Document
from retrieval.search.keyword_search import keyword_search, term_statistics
from retrieval.search.scope import Scope, resolve_scope

from ..ingestion.helpers import ingest

pytestmark = pytest.mark.django_db

FILLER = (
    "The yard keeps its records in the office and every crew signs the daily sheet before "
    "the trucks leave for the sites across the region. "
)


@pytest.fixture
def collections() -> Iterator[list[Collection]]:
    made: list[Collection] = []

    def make() -> Collection:
        made.append(Collection.objects.create(name=f"bm25-{uuid.uuid4().hex[:8]}"))
        return made[-1]

    yield make  # type: ignore[misc]
    for document in Document.objects.filter(collection__in=made):
        delete_document(document)


def _recount(collection: Collection) -> tuple[tuple[int, int], list[tuple[Any, ...]]]:
    """The statistics and postings recomputed from the chunks as they are now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), coalesce(sum(retrieval_vector_length(search_vector)), 0) "
            "FROM ingestion_chunk WHERE collection_id = %s",
            [collection.pk],
        )
        chunks, length = cursor.fetchone()
        cursor.execute(
            "SELECT c.id, t.lexeme, coalesce(array_length(t.positions, 1), 1) "
            "FROM ingestion_chunk c, unnest(c.search_vector) t WHERE c.collection_id = %s "
            "ORDER BY 1, 2",
            [collection.pk],
        )
        return (int(chunks), int(length)), cursor.fetchall()


def _kept(collection: Collection) -> tuple[tuple[int, int], list[tuple[Any, ...]]]:
    """The statistics and postings the triggers kept."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT chunks, length FROM retrieval_keywordstatistics WHERE collection_id = %s",
            [collection.pk],
        )
        row = cursor.fetchone() or (0, 0)
        cursor.execute(
            "SELECT chunk_id, term, tf FROM retrieval_chunkterm WHERE collection_id = %s "
            "ORDER BY 1, 2",
            [collection.pk],
        )
        return (int(row[0]), int(row[1])), cursor.fetchall()


def _assert_kept_right(collection: Collection) -> None:
    kept, recount = _kept(collection), _recount(collection)
    assert kept[0] == recount[0]
    assert kept[1] == recount[1]


def test_statistics_follow_ingestion_replacement_update_and_deletion(collections: Any) -> None:
    team = collections()
    ingest(
        team,
        {
            "a.txt": f"Gantry cranes are inspected weekly. {FILLER}".encode(),
            "b.txt": f"Forklift batteries are charged overnight. {FILLER}".encode(),
            "c.txt": f"Quokka is the code name of the yard move. {FILLER}".encode(),
        },
    )
    _assert_kept_right(team)

    def held_by(term: str) -> int:
        return term_statistics([term], [team.pk]).term_frequency(term)

    assert term_statistics([], [team.pk]).chunks == 3
    assert (held_by("quokka"), held_by("wombat")) == (1, 0)

    # Ingesting a changed file replaces its chunks: the old word goes, the new one comes.
    ingest(team, {"c.txt": f"Wombat is the new code name of the yard move. {FILLER}".encode()})
    _assert_kept_right(team)
    assert term_statistics([], [team.pk]).chunks == 3
    assert (held_by("quokka"), held_by("wombat")) == (0, 1)

    # A chunk written any other way is followed too.
    chunk = Chunk.objects.get(document__file_name="b.txt")
    Chunk.objects.filter(pk=chunk.pk).update(text="Quokka quokka quokka.")
    _assert_kept_right(team)
    assert held_by("quokka") == 1

    delete_document(Document.objects.get(collection=team, file_name="a.txt"))
    _assert_kept_right(team)
    assert held_by("gantry") == 0
    assert term_statistics([], [team.pk]).chunks == 2


def test_rare_words_and_short_chunks_rank_first(collections: Any) -> None:
    yard = collections()
    ingest(
        yard,
        {
            # "crane" is everywhere, "zephyr" in one file: the rare word decides.
            "common1.txt": f"Crane crane log. {FILLER}".encode(),
            "common2.txt": f"The crane was serviced. {FILLER}".encode(),
            "common3.txt": f"Crane schedules change. {FILLER}".encode(),
            "rare.txt": f"The zephyr valve is new. {FILLER}".encode(),
            # The same one mention of "hoist" in a short and in a long file.
            "short.txt": b"Notes\n\nHoist checks happen daily.",
            "long.txt": f"Notes\n\nHoist checks happen daily. {FILLER * 4}".encode(),
        },
    )
    scope = Scope((yard.pk,), ())
    names = dict(Chunk.objects.filter(collection=yard).values_list("pk", "document__file_name"))

    hits = keyword_search(["crane", "zephyr"], scope, limit=10)
    assert names[uuid.UUID(hits[0].chunk_id)] == "rare.txt"
    assert hits[0].matched == ("zephyr",)

    hits = keyword_search(["hoist"], scope, limit=10)
    ranked = [names[uuid.UUID(h.chunk_id)] for h in hits]
    assert ranked == ["short.txt", "long.txt"]
    assert hits[0].bm25 > hits[1].bm25 > 0

    # More mentions score more, but not proportionally (saturation).
    stats = term_statistics(["crane"], [yard.pk])
    by_name = {
        names[uuid.UUID(h.chunk_id)]: h.bm25
        for h in keyword_search(["crane"], scope, limit=10, statistics=stats)
    }
    assert by_name["common2.txt"] < by_name["common1.txt"] < 2 * by_name["common2.txt"]


def test_another_readers_documents_change_nothing_for_this_reader(collections: Any) -> None:
    users = get_user_model().objects
    suffix = uuid.uuid4().hex[:6]
    mine_reader = users.create_user(f"bm25-mine-{suffix}")
    theirs_reader = users.create_user(f"bm25-theirs-{suffix}")
    mine, theirs = collections(), collections()
    mine.readers.add(mine_reader)
    theirs.readers.add(theirs_reader)
    ingest(
        mine,
        {
            "rigging.txt": f"Sling inspection before every lift. {FILLER}".encode(),
            "permits.txt": f"Lift permits name the sling type. {FILLER}".encode(),
            "office.txt": FILLER.encode(),
        },
    )
    question = ["sling", "inspection", "lift"]

    def ranking(user: Any) -> list[tuple[str, float]]:
        scope = resolve_scope(user)
        return [(h.chunk_id, round(h.bm25, 9)) for h in keyword_search(question, scope, limit=10)]

    alone = ranking(mine_reader)
    # The other collection is full of these words: it would change their idf if counted.
    ingest(
        theirs,
        {f"t{n}.txt": f"Sling inspection lift sling. {FILLER}".encode() for n in range(8)},
    )
    assert ranking(mine_reader) == alone
    assert term_statistics(question, [mine.pk]).chunks == 3
    theirs_hits = keyword_search(question, resolve_scope(theirs_reader), limit=50)
    assert len(theirs_hits) == 8
    theirs_chunks = Chunk.objects.filter(collection=theirs).values_list("pk", flat=True)
    assert {h.chunk_id for h in theirs_hits} <= {str(c) for c in theirs_chunks}


def test_a_file_scope_limits_the_hits_not_the_statistics(collections: Any) -> None:
    yard = collections()
    ingest(
        yard,
        {
            "one.txt": f"Outrigger pads go under every leg. {FILLER}".encode(),
            "two.txt": f"Outrigger pads are checked for cracks. {FILLER}".encode(),
        },
    )
    one = Document.objects.get(collection=yard, file_name="one.txt")
    hits = keyword_search(["outrigger"], Scope((yard.pk,), (str(one.pk),)), limit=10)
    assert [Chunk.objects.get(pk=h.chunk_id).document_id for h in hits] == [one.pk]
