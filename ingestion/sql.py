"""Raw SQL ingestion runs (named parameters)."""

# Nearest chunks of other documents in the same collection, for SEMANTICALLY_SIMILAR.
# The HNSW index answers the inner ORDER BY ... LIMIT per source chunk.
SIMILAR_CHUNKS = """
SELECT c.id AS source, n.id AS target, n.similarity AS score
FROM ingestion_chunk c
CROSS JOIN LATERAL (
    SELECT o.id, 1 - (o.embedding <=> c.embedding) AS similarity
    FROM ingestion_chunk o
    WHERE o.collection_id = c.collection_id AND o.document_id <> c.document_id
    ORDER BY o.embedding <=> c.embedding
    LIMIT %(per_chunk)s
) n
WHERE c.document_id = ANY(%(document_ids)s) AND n.similarity >= %(threshold)s
"""

# Section types are computed over every section at once; one job at a time does it.
SECTION_TYPES_LOCK = "SELECT pg_advisory_xact_lock(hashtext('ingestion.section_types'))"
