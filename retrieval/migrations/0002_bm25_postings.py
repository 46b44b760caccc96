"""BM25's postings and collection statistics, kept in step with ingestion_chunk by
statement-level triggers (one pass over a statement's rows, so bulk writes stay cheap).
A chunk's postings go with it through the foreign key; its collection's statistics are
updated in the same statement. Existing chunks are read in once."""

from django.db import migrations, models

LENGTH_FUNCTION = """
CREATE FUNCTION retrieval_vector_length(vector tsvector) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(sum(coalesce(array_length(t.positions, 1), 1)), 0)::integer
    FROM unnest(vector) AS t
$$;
"""

# $1: the rows to add (a transition table's name is fixed per trigger, so each trigger
# copies its rows into these two statements through a function of its own).
ADD_ROWS = """
    INSERT INTO retrieval_chunkterm (chunk_id, collection_id, term, tf, length)
    SELECT r.id, r.collection_id, t.lexeme, coalesce(array_length(t.positions, 1), 1),
           retrieval_vector_length(r.search_vector)
    FROM {rows} AS r CROSS JOIN LATERAL unnest(r.search_vector) AS t;
    INSERT INTO retrieval_keywordstatistics AS s (collection_id, chunks, length)
    SELECT r.collection_id, count(*), sum(retrieval_vector_length(r.search_vector))
    FROM {rows} AS r GROUP BY r.collection_id ORDER BY r.collection_id
    ON CONFLICT (collection_id) DO UPDATE
    SET chunks = s.chunks + excluded.chunks, length = s.length + excluded.length;
"""
REMOVE_ROWS = """
    UPDATE retrieval_keywordstatistics AS s
    SET chunks = s.chunks - d.chunks, length = s.length - d.length
    FROM (SELECT r.collection_id, count(*) AS chunks,
                 sum(retrieval_vector_length(r.search_vector)) AS length
          FROM {rows} AS r GROUP BY r.collection_id ORDER BY r.collection_id) AS d
    WHERE s.collection_id = d.collection_id;
"""

# The rows of an update whose text or collection changed, as they were (o) or are (n).
CHANGED = """(SELECT {side}.* FROM old_rows o JOIN new_rows n ON n.id = o.id
     WHERE o.search_vector IS DISTINCT FROM n.search_vector
        OR o.collection_id <> n.collection_id)"""

TRIGGERS = f"""
ALTER TABLE retrieval_chunkterm
    ADD CONSTRAINT retrieval_chunkterm_chunk FOREIGN KEY (chunk_id)
    REFERENCES ingestion_chunk (id) ON DELETE CASCADE;
ALTER TABLE retrieval_keywordstatistics
    ADD CONSTRAINT retrieval_keywordstatistics_collection FOREIGN KEY (collection_id)
    REFERENCES ingestion_collection (id) ON DELETE CASCADE;

CREATE FUNCTION retrieval_chunks_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
{ADD_ROWS.format(rows="new_rows")}
    RETURN NULL;
END $$;

CREATE FUNCTION retrieval_chunks_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
{REMOVE_ROWS.format(rows="old_rows")}
    RETURN NULL;
END $$;

-- Only rows whose text or collection changed are read again.
CREATE FUNCTION retrieval_chunks_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM retrieval_chunkterm p USING {CHANGED.format(side="o")} AS c
    WHERE p.chunk_id = c.id;
{REMOVE_ROWS.format(rows=CHANGED.format(side="o"))}
{ADD_ROWS.format(rows=CHANGED.format(side="n"))}
    RETURN NULL;
END $$;

CREATE TRIGGER retrieval_chunks_inserted AFTER INSERT ON ingestion_chunk
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunks_inserted();
CREATE TRIGGER retrieval_chunks_deleted AFTER DELETE ON ingestion_chunk
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunks_deleted();
CREATE TRIGGER retrieval_chunks_updated AFTER UPDATE ON ingestion_chunk
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION retrieval_chunks_updated();

{ADD_ROWS.format(rows="ingestion_chunk")}
"""  # noqa: S608 (constant templates, no input)

DROP_TRIGGERS = """
DROP TRIGGER IF EXISTS retrieval_chunks_inserted ON ingestion_chunk;
DROP TRIGGER IF EXISTS retrieval_chunks_deleted ON ingestion_chunk;
DROP TRIGGER IF EXISTS retrieval_chunks_updated ON ingestion_chunk;
DROP FUNCTION IF EXISTS retrieval_chunks_inserted();
DROP FUNCTION IF EXISTS retrieval_chunks_deleted();
DROP FUNCTION IF EXISTS retrieval_chunks_updated();
DROP FUNCTION IF EXISTS retrieval_vector_length(tsvector);
"""


class Migration(migrations.Migration):
    dependencies = [
        ("retrieval", "0001_initial"),
        ("ingestion", "0003_sentence_vectors"),
    ]

    operations = [
        migrations.CreateModel(
            name="ChunkTerm",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "chunk_id",
                        "term",
                        blank=True,
                        editable=False,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                ("chunk_id", models.UUIDField()),
                ("collection_id", models.IntegerField()),
                ("term", models.TextField()),
                ("tf", models.PositiveIntegerField()),
                ("length", models.PositiveIntegerField()),
            ],
            options={
                "indexes": [
                    models.Index(
                        fields=["term", "collection_id"],
                        include=("chunk_id", "tf", "length"),
                        name="chunkterm_term_collection",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="KeywordStatistics",
            fields=[
                ("collection_id", models.IntegerField(primary_key=True, serialize=False)),
                ("chunks", models.BigIntegerField(default=0)),
                ("length", models.BigIntegerField(default=0)),
            ],
        ),
        migrations.RunSQL(LENGTH_FUNCTION + TRIGGERS, DROP_TRIGGERS),
    ]
