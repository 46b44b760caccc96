import pytest
from django.db import connection

from core.providers.embeddings import embed_texts

DOCS = [
    "How to reset your password from the login page",
    "Crane inspection checklist for hoist and wire rope",
    "Overtime is paid at one and a half times the base rate",
]


@pytest.mark.django_db
def test_nearest_neighbour_query_with_real_embeddings() -> None:
    vectors = embed_texts([*DOCS, "I forgot my password"])
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE probe (id int, body text, embedding vector(384))")
        for i, (body, vector) in enumerate(zip(DOCS, vectors, strict=False)):
            cursor.execute("INSERT INTO probe VALUES (%s, %s, %s::vector)", [i, body, str(vector)])
        cursor.execute("CREATE INDEX ON probe USING hnsw (embedding vector_cosine_ops)")
        cursor.execute(
            "SELECT body, 1 - (embedding <=> %s::vector) AS similarity FROM probe "
            "ORDER BY embedding <=> %s::vector LIMIT 2",
            [str(vectors[-1]), str(vectors[-1])],
        )
        rows = cursor.fetchall()

    assert rows[0][0] == DOCS[0]
    assert rows[0][1] > rows[1][1]


def test_local_embeddings_are_normalised_and_sized() -> None:
    (vector,) = embed_texts(["cranes and forklifts"])
    assert len(vector) == 384
    assert abs(sum(v * v for v in vector) - 1.0) < 1e-3
