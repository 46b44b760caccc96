"""The title bridge: a chunk naming another document of its collection by that document's
title leads there, though the second document shares neither words nor meaning with the
question, and though no entity extractor saw the name. It never leaves the collection."""

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from core.providers.embeddings import embed_texts
from ingestion.models import Chunk, Collection, Document
from retrieval.models import QueryTrace
from retrieval.search import graphrag_search
from retrieval.search.keyword_search import keyword_search
from retrieval.search.query_terms import query_keywords
from retrieval.search.scope import resolve_scope
from retrieval.search.title_bridge import TitleIndex, mentioned_documents, title_indexes
from retrieval.search.vector_search import vector_search

from ..ingestion.helpers import ingest

pytestmark = pytest.mark.django_db

QUESTION = "Which movie was made in Vellmora, and who made it?"
# The first hop: the town names the film by its title.
TOWN = b"""Vellmora

Vellmora is a fishing town on the Ashgrove coast. Lanterns over Kessel was made in and around
the town, and the harbour festival in Vellmora screens it every summer.
"""
# The second hop: nothing in it is like the question (no "movie", "made", "Vellmora").
FILM = b"""Lanterns over Kessel

Lanterns over Kessel is the story of a lighthouse keeper on Kessel Point who keeps the
beacon burning through a long winter storm; Odile Marchetti is its author.
"""
# Passages closer to the question than the film's: two about films made on the coast, two
# that only share its words.
DISTRACTORS = {
    "films_of_norland.txt": b"""Films of Norland

Many movies were made in the fishing towns of the coast. Film crews made movies in
harbours, and the towns that hosted them still show those movies at summer festivals.
""",
    "coastal_cinema.txt": b"""Coastal cinema

Coastal cinema is the name critics give to movies made in small fishing towns, where a
director films the harbour, the boats and the people who made the town.
""",
    "town_founders.txt": b"""Town founders

Who made this town? The founders of the town made its streets, and the town was made rich
by fishing.
""",
    "town_crafts.txt": b"""Town crafts

Many things were made in the town: nets, boats and rope were made there by people who lived
by the sea.
""",
}
# In a collection the reader may not see: a document whose title the town's text names.
HIDDEN = b"""Kessel

Kessel is the code name of a sealed inquiry into the beacon accounts; the ledgers are
kept under lock.
"""
HIDDEN_WORD = "ledgers"


@dataclass
class BridgeCorpus:
    reader: Any
    stranger_reader: Any
    films: Collection
    hidden: Collection
    documents: dict[str, Document]


@pytest.fixture(scope="module")
def bridge_corpus(django_db_setup: None, django_db_blocker: Any) -> Iterator[BridgeCorpus]:
    suffix = uuid.uuid4().hex[:6]
    with django_db_blocker.unblock():
        users = get_user_model().objects
        reader = users.create_user(f"bridge-reader-{suffix}", password="bridge-reader-pw")
        other = users.create_user(f"bridge-other-{suffix}", password="bridge-other-pw")
        films = Collection.objects.create(name=f"films-{suffix}")
        films.readers.add(reader)
        hidden = Collection.objects.create(name=f"hidden-{suffix}")
        hidden.readers.add(other)
        ingest(films, {"vellmora.txt": TOWN, "lanterns.txt": FILM, **DISTRACTORS})
        ingest(hidden, {"kessel.txt": HIDDEN})
        documents = {
            d.file_name: d for d in Document.objects.filter(collection__in=[films, hidden])
        }
        try:
            yield BridgeCorpus(reader, other, films, hidden, documents)
        finally:
            from ingestion.documents import delete_document

            for document in documents.values():
                delete_document(document)
            films.delete()
            hidden.delete()
            reader.delete()
            other.delete()


def _chunk_ids(document: Document) -> list[str]:
    return [str(pk) for pk in Chunk.objects.filter(document=document).values_list("pk", flat=True)]


def test_the_index_finds_the_longest_title_and_keeps_case_for_one_word() -> None:
    index = TitleIndex()
    index.add("prestige", "The Prestige (film)")
    index.add("wales", "New South Wales")
    index.add("young", "Young, New South Wales")
    index.add("sulli", "Sulli")
    text = "Born in Young, New South Wales, she saw The Prestige and met Sulli; young Sulli sang."
    found = [(text[p:].split()[0], n, [t for _, t, _ in ts]) for p, n, ts in index.find(text)]
    assert found == [
        ("Young,", 4, ["Young, New South Wales"]),  # not "New South Wales" inside it
        ("The", 2, ["The Prestige (film)"]),  # named without its qualifier
        ("Sulli;", 1, ["Sulli"]),
        ("Sulli", 1, ["Sulli"]),
    ]
    # Lower case never starts a title.
    assert index.find("the prestige of new south wales") == []


def test_the_bridge_reaches_a_second_hop_unlike_the_question(bridge_corpus: BridgeCorpus) -> None:
    town = bridge_corpus.documents["vellmora.txt"]
    film = bridge_corpus.documents["lanterns.txt"]
    # The film's passage is not a first-stage hit: no question keyword, and every other
    # passage is closer to the question.
    scope = resolve_scope(bridge_corpus.reader, collection=bridge_corpus.films.name)
    keyword_hits = keyword_search(query_keywords(QUESTION), scope, limit=50)
    film_chunks = set(_chunk_ids(film))
    assert keyword_hits and not film_chunks & {h.chunk_id for h in keyword_hits}
    hits = vector_search(embed_texts([QUESTION])[0], scope, limit=50, threshold=0.0, keep=50)
    assert hits and hits[-1].chunk_id in film_chunks  # the least like the question

    options: dict[str, Any] = {"top_k": 5, "collection": bridge_corpus.films.name}
    without = graphrag_search(
        QUESTION, user=bridge_corpus.reader, title_expansion_limit=0, **options
    )
    assert not film_chunks & {c.chunk_id for c in without.candidates}

    outcome = graphrag_search(QUESTION, user=bridge_corpus.reader, **options)
    assert outcome.results[0]["file_name"] == "vellmora.txt"
    bridged = [r for r in outcome.results if r["file_name"] == "lanterns.txt"]
    assert bridged, [r["file_name"] for r in outcome.results]
    meta = bridged[0]["metadata"]
    assert bridged[0]["source"] == "graph"
    assert meta["relationship"] == "MENTIONS_TITLE" and meta["hop_count"] == 1
    assert meta["via_entity"] == "Lanterns over Kessel"
    assert meta["reached_from"] in _chunk_ids(town)
    # Named by the best seed, its path is worth 0.8, which lifts it above passages that
    # are more like the question.
    assert meta["signals"]["path"] == pytest.approx(0.8, abs=1e-3)
    film_rank = meta["rank"]
    assert any(
        c.vector_similarity > bridged[0]["similarity"]
        and c.hybrid_score < bridged[0]["hybrid_score"]
        for c in outcome.candidates[film_rank:]
    )
    # The trace shows the way: seed -> the document named -> its chunk.
    assert outcome.trace_id is not None
    trace = QueryTrace.objects.get(pk=outcome.trace_id)
    edges = {(e["source"], e["target"], e["type"]) for e in trace.subgraph["edges"]}
    assert (meta["reached_from"], str(film.pk), "MENTIONS_TITLE") in edges
    assert (str(film.pk), meta["chunk_id"], "HAS_CHUNK") in edges


def test_the_bridge_never_steps_into_an_unreadable_collection(
    bridge_corpus: BridgeCorpus,
) -> None:
    town_chunks = _chunk_ids(bridge_corpus.documents["vellmora.txt"])
    hidden = bridge_corpus.documents["kessel.txt"]
    films, secret = bridge_corpus.films.pk, bridge_corpus.hidden.pk
    # The film's text names "Kessel" ("Kessel Point"), the hidden document's title; links
    # stay in the chunk's own collection, whatever collections the caller passes.
    hidden_index = title_indexes([secret])[secret]
    assert [t for _, _, ts in hidden_index.find("on Kessel Point") for _, t, _ in ts] == ["Kessel"]
    links = mentioned_documents(
        town_chunks + _chunk_ids(bridge_corpus.documents["lanterns.txt"]),
        collection_ids=[films, secret],
    )
    assert links and str(hidden.pk) not in {link.document_id for link in links}
    # A chunk of an unreadable collection is not read at all.
    hidden_chunks = _chunk_ids(hidden)
    assert mentioned_documents(hidden_chunks, collection_ids=[films]) == []
    assert set(title_indexes([films])) == {films}

    for options in ({}, {"max_hops": 2, "top_k": 50}, {"fusion": "rrf"}):
        outcome = graphrag_search(
            "Kessel beacon ledgers inquiry", user=bridge_corpus.reader, **options
        )
        dumped = json.dumps(outcome.results) + json.dumps(
            [c.row for c in outcome.candidates], default=str
        )
        assert HIDDEN_WORD not in dumped.lower()
        assert {c.row["collection_id"] for c in outcome.candidates} <= {films}
        assert outcome.trace_id is not None
        trace = QueryTrace.objects.get(pk=outcome.trace_id)
        node_ids = {n["id"] for n in trace.subgraph["nodes"]}
        assert str(hidden.pk) not in node_ids and not set(hidden_chunks) & node_ids
    # Its own reader finds it.
    outcome = graphrag_search("Kessel beacon ledgers inquiry", user=bridge_corpus.stranger_reader)
    assert HIDDEN_WORD in outcome.results[0]["text"].lower()


def test_a_new_document_is_found_by_title_without_a_restart(
    bridge_corpus: BridgeCorpus,
) -> None:
    films = bridge_corpus.films
    town_chunks = _chunk_ids(bridge_corpus.documents["vellmora.txt"])
    before = {link.title for link in mentioned_documents(town_chunks, collection_ids=[films.pk])}
    assert "Lanterns over Kessel" in before and "Ashgrove coast" not in before
    ingest(films, {"ashgrove.txt": b"Ashgrove coast\n\nThe Ashgrove coast runs north.\n"})
    try:
        after = {link.title for link in mentioned_documents(town_chunks, collection_ids=[films.pk])}
        assert after == before | {"Ashgrove coast"}
    finally:
        from ingestion.documents import delete_document

        delete_document(Document.objects.get(collection=films, file_name="ashgrove.txt"))
    gone = {link.title for link in mentioned_documents(town_chunks, collection_ids=[films.pk])}
    assert gone == before
