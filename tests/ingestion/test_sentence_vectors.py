"""Sentence vectors: ingestion embeds what extractive answers quote, answers look it up."""

from io import StringIO

import numpy as np
import pytest
from django.core.management import call_command

from chat.orchestrator.answers.extractive import sentence_vectors
from core.providers.embeddings import embed_texts, embed_with_parts
from core.providers.query_embeddings import embed_query, embed_query_soon, forget_queries
from ingestion.models import Chunk, Collection, SentenceVector
from ingestion.sentences import chunk_sentence_inputs, embedding_input, heading_line

from . import samples
from .helpers import ingest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cleanup_documents")]


@pytest.fixture
def ingested() -> Collection:
    collection = Collection.objects.create(name="sentence-test")
    job = ingest(collection, {"alexis_torres.md": samples.ALEXIS_MD.encode()})
    assert job.status == "done"
    return collection


def _stored(chunk: Chunk) -> dict[str, list[float]]:
    return {s.text: list(s.embedding) for s in chunk.sentence_vectors.all()}


def test_every_sentence_of_every_chunk_is_embedded_with_its_section(
    ingested: Collection,
) -> None:
    chunks = list(Chunk.objects.filter(collection=ingested).select_related("section"))
    assert chunks
    for chunk in chunks:
        section = chunk.section.name if chunk.section else ""
        assert sorted(_stored(chunk)) == sorted(chunk_sentence_inputs(section, chunk.text))


def test_sentence_vectors_come_from_the_chunks_pass_and_stand_for_their_sentence(
    ingested: Collection,
) -> None:
    """Pooled from the chunk's tokens, not embedded alone, yet a sentence of some length is
    nearer to what it embeds as alone than any other sentence of its chunk is."""
    checked = 0
    for chunk in Chunk.objects.filter(collection=ingested):
        rows = list(chunk.sentence_vectors.all())
        pooled = np.array([r.embedding for r in rows])
        alone = np.array(embed_texts([r.text for r in rows]))
        assert not np.allclose(pooled, alone, atol=1e-3)  # no second model pass
        scores = pooled @ alone.T
        for i, row in enumerate(rows):
            if len(row.text.split(": ", 1)[-1].split()) >= 8:
                assert scores[i].argmax() == i, row.text
                checked += 1
    assert checked >= 3


def test_a_part_covering_the_whole_text_is_the_texts_own_vector() -> None:
    text = "Crews log overtime hours in the time sheet before the end of each week."
    vectors, parts = embed_with_parts(
        [text, "Short."], [[[(0, len(text))], [(0, 5)]], [[(90, 99)]]]
    )
    whole, first_word = parts[0]
    assert whole is not None and first_word is not None
    assert float(np.dot(vectors[0], whole)) > 0.99
    assert 0.3 < float(np.dot(vectors[0], first_word)) < 0.99  # "Crews" alone
    assert parts[1] == [None]  # a range the text does not reach


def test_answers_read_stored_vectors_and_embed_only_what_is_missing(
    ingested: Collection,
) -> None:
    row = SentenceVector.objects.filter(chunk__collection=ingested).first()
    assert row is not None
    marker = [0.0] * len(row.embedding)
    marker[0] = 1.0  # no model gives this: seeing it proves the stored row was read
    SentenceVector.objects.filter(pk=row.pk).update(embedding=marker)
    unknown = embedding_input("Skills", "A sentence no chunk holds at all.")

    vectors = sentence_vectors([row.text, unknown], [str(row.chunk_id)])

    assert vectors[0] == pytest.approx(marker)
    assert vectors[1] == pytest.approx(embed_texts([unknown])[0], abs=1e-4)
    # The same text under another chunk is not this row's.
    other = Chunk.objects.exclude(pk=row.chunk_id).filter(collection=ingested).first()
    if other is not None and row.text not in _stored(other):
        assert sentence_vectors([row.text], [str(other.pk)])[0] != pytest.approx(marker)


def test_embed_sentences_fills_in_chunks_ingested_without_them(ingested: Collection) -> None:
    chunks = Chunk.objects.filter(collection=ingested)
    before = {c.pk: sorted(_stored(c)) for c in chunks}
    SentenceVector.objects.filter(chunk__collection=ingested).delete()
    out = StringIO()

    call_command("embed_sentences", "--collection", ingested.name, stdout=out)

    assert {c.pk: sorted(_stored(c)) for c in chunks} == before
    stored = sum(len(texts) for texts in before.values())
    assert f"{len(before)} chunks, {stored} sentence vectors stored" in out.getvalue()
    call_command("embed_sentences", "--collection", ingested.name, stdout=out)
    assert SentenceVector.objects.filter(chunk__collection=ingested).count() == stored


def test_short_headings_are_no_answer_lines() -> None:
    assert heading_line("Skills") is None
    assert heading_line("Meridian Freight Systems - Staff Engineer") is not None
    inputs = chunk_sentence_inputs("Skills", "Python, Go and Kubernetes every day.\nPython.")
    assert inputs == ["Skills: Python, Go and Kubernetes every day."]


def test_a_question_is_embedded_once_and_remembered() -> None:
    forget_queries()
    question = "Which certifications does the crane operator hold?"
    first = embed_query(question)
    assert first == pytest.approx(embed_texts([question])[0], abs=1e-4)
    assert embed_query(question) is first  # remembered, not embedded again
    forget_queries()
    assert embed_query(question) is not first


def test_questions_asked_together_each_get_their_own_vector() -> None:
    forget_queries()
    questions = [f"How many work orders did crew {n} close in week {n * 3}?" for n in range(24)]
    # Submitted at once, they wait while the model runs and are embedded in batches.
    pending = [embed_query_soon(q) for q in questions]
    vectors = [future.result(timeout=60) for future in pending]
    for question, vector in zip(questions, vectors, strict=True):
        assert vector == pytest.approx(embed_texts([question])[0], abs=1e-4)
    assert embed_query_soon(questions[5]).result() is vectors[5]
