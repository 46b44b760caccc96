"""Raw SQL retrieval runs (named parameters). Chunks are always filtered by the collections
the asking user may read, inside the query itself."""

# --- search: keyword and vector candidates, hydration ----------------------------------------

# How many readable chunks contain each query term (in the text, the header path or the
# keyword list): the document frequency behind each term's weight.
TERM_FREQUENCIES = """
SELECT t.term,
       (SELECT count(*) FROM ingestion_chunk c
        WHERE c.collection_id = ANY(%(collections)s)
          AND (cardinality(%(documents)s::uuid[]) = 0 OR c.document_id = ANY(%(documents)s::uuid[]))
          AND (c.search_vector @@ plainto_tsquery('english', t.term)
               OR c.keywords @> ARRAY[t.term]::varchar(100)[])) AS df
FROM unnest(%(terms)s::text[]) AS t(term)
"""

READABLE_CHUNK_COUNT = """
SELECT count(*) FROM ingestion_chunk c
WHERE c.collection_id = ANY(%(collections)s)
  AND (cardinality(%(documents)s::uuid[]) = 0 OR c.document_id = ANY(%(documents)s::uuid[]))
"""

# Chunks matching the weighted terms; each term counts once, scaled a little by how often
# and where (header path before text) it occurs. `required` is 1 for "any", all for "all".
# `ids`, when not empty, limits the scoring to those chunks (expanded ones).
KEYWORD_SEARCH = """
WITH terms AS (
    SELECT t.term, t.weight, plainto_tsquery('english', t.term) AS query
    FROM unnest(%(terms)s::text[], %(weights)s::float8[]) AS t(term, weight)
)
SELECT c.id,
       sum(t.weight * (0.7 + 0.3 * ts_rank_cd(c.search_vector, t.query, 32))) AS score,
       array_agg(t.term ORDER BY t.term) AS matched
FROM ingestion_chunk c
JOIN terms t ON (c.search_vector @@ t.query OR c.keywords @> ARRAY[t.term]::varchar(100)[])
WHERE c.collection_id = ANY(%(collections)s)
  AND (cardinality(%(documents)s::uuid[]) = 0 OR c.document_id = ANY(%(documents)s::uuid[]))
  AND (cardinality(%(ids)s::uuid[]) = 0 OR c.id = ANY(%(ids)s::uuid[]))
GROUP BY c.id
HAVING count(*) >= %(required)s
ORDER BY score DESC, c.id
LIMIT %(limit)s
"""

# Nearest chunks by cosine distance through the HNSW index. Iterative scans keep a filtered
# search (collections, file scope) from coming back short.
VECTOR_SEARCH_SETTINGS = """
SELECT set_config('hnsw.ef_search', %(ef_search)s, true),
       set_config('hnsw.iterative_scan', 'relaxed_order', true)
"""
VECTOR_SEARCH = """
SELECT c.id, 1 - (c.embedding <=> %(embedding)s::vector) AS similarity
FROM ingestion_chunk c
WHERE c.collection_id = ANY(%(collections)s)
  AND (cardinality(%(documents)s::uuid[]) = 0 OR c.document_id = ANY(%(documents)s::uuid[]))
ORDER BY c.embedding <=> %(embedding)s::vector
LIMIT %(limit)s
"""

# Everything a result shows, for candidates from any stage, re-checked against the readable
# collections (the graph's collection_id is never trusted alone).
HYDRATE_CHUNKS = """
SELECT c.id, c.document_id, c.collection_id, c.index, c.page, c.text, c.header_path,
       d.file_name, d.file_path, d.directory_name,
       s.id AS section_id, s.name AS section_name, s.path AS section_path,
       1 - (c.embedding <=> %(embedding)s::vector) AS similarity
FROM ingestion_chunk c
JOIN ingestion_document d ON d.id = c.document_id
LEFT JOIN ingestion_section s ON s.id = c.section_id
WHERE c.id = ANY(%(ids)s::uuid[]) AND c.collection_id = ANY(%(collections)s)
  AND (cardinality(%(documents)s::uuid[]) = 0 OR c.document_id = ANY(%(documents)s::uuid[]))
"""

# --- search: the title bridge of graph expansion -------------------------------------------

# The text of frontier chunks, readable ones only, to find the titles they name.
CHUNK_TEXTS = """
SELECT c.id, c.document_id, c.collection_id, c.text
FROM ingestion_chunk c
WHERE c.id = ANY(%(ids)s::uuid[]) AND c.collection_id = ANY(%(collections)s)
"""

# The titles of one collection's documents, for the title index, and what tells whether
# an index built earlier is still current (a document added, replaced or removed).
COLLECTION_TITLES = """
SELECT d.id, d.title FROM ingestion_document d
WHERE d.collection_id = %(collection)s AND d.title <> ''
"""
COLLECTION_TITLES_VERSION = """
SELECT d.collection_id, count(*), max(d.created_at), max(d.ingested_at)
FROM ingestion_document d
WHERE d.collection_id = ANY(%(collections)s)
GROUP BY d.collection_id
"""

# --- graph: entities, relations, sections and knowledge-graph questions ---------------------
