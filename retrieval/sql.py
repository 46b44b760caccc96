"""Raw SQL retrieval runs (named parameters). Chunks are always filtered by the collections
the asking user may read, inside the query itself."""

# --- search: keyword and vector candidates, hydration ----------------------------------------

# Each term's lexemes (English stemming, as the chunks' search vectors) and how many
# readable chunks hold each one. A term that is a stop word has none.
TERM_STATISTICS = """
SELECT t.term, x.lexeme,
       (SELECT count(*) FROM retrieval_chunkterm p
        WHERE p.term = x.lexeme AND p.collection_id = ANY(%(collections)s)) AS df
FROM unnest(%(terms)s::text[]) AS t(term)
CROSS JOIN LATERAL unnest(tsvector_to_array(to_tsvector('english', t.term))) AS x(lexeme)
"""

# BM25's N and total length over the readable collections.
COLLECTION_STATISTICS = """
SELECT coalesce(sum(s.chunks), 0), coalesce(sum(s.length), 0)
FROM retrieval_keywordstatistics s WHERE s.collection_id = ANY(%(collections)s)
"""

# BM25 from the postings of the question's lexemes in the readable collections.
# `required` is 1 for "any", every lexeme for "all"; `ids`, when not empty, limits the
# scoring to those chunks (expanded ones), `documents` to those files.
KEYWORD_SEARCH = """
WITH q AS (
    SELECT * FROM unnest(%(lexemes)s::text[], %(idf)s::float8[]) AS q(term, idf)
)
SELECT p.chunk_id,
       sum(q.idf * p.tf * (%(k1)s + 1)
           / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.length / %(average_length)s))) AS score,
       array_agg(p.term) AS held
FROM q JOIN retrieval_chunkterm p ON p.term = q.term
WHERE p.collection_id = ANY(%(collections)s)
  AND (cardinality(%(ids)s::uuid[]) = 0 OR p.chunk_id = ANY(%(ids)s::uuid[]))
  AND (cardinality(%(documents)s::uuid[]) = 0 OR EXISTS (
        SELECT 1 FROM ingestion_chunk c
        WHERE c.id = p.chunk_id AND c.document_id = ANY(%(documents)s::uuid[])))
GROUP BY p.chunk_id
HAVING count(*) >= %(required)s
ORDER BY score DESC, p.chunk_id
LIMIT %(limit)s
"""

# Nearest chunks by cosine distance through the HNSW index. Iterative scans keep a filtered
# search (collections, file scope) from coming back short.
VECTOR_SEARCH_SETTINGS = """
SELECT set_config('hnsw.ef_search', %(ef_search)s, true),
       set_config('hnsw.iterative_scan', 'relaxed_order', true)
"""
# Whether the HNSW index should serve a search (see vector_search.index_serves): the
# readable chunks (the BM25 statistics count them) and the table's estimated size.
VECTOR_SCOPE_SIZE = """
SELECT (SELECT coalesce(sum(s.chunks), 0) FROM retrieval_keywordstatistics s
        WHERE s.collection_id = ANY(%(collections)s)),
       (SELECT greatest(c.reltuples, 0)::bigint FROM pg_class c
        WHERE c.oid = 'ingestion_chunk'::regclass)
"""
# For this transaction only: the ordered index scan, not a sort of every readable chunk.
PREFER_VECTOR_INDEX = "SELECT set_config('enable_sort', 'off', true)"
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
SELECT c.id, c.document_id, c.collection_id, c.index, c.page, c.page_end, c.text,
       c.header_path, c.header_text, d.file_name, d.file_path, d.directory_name, d.format,
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

# The titles of one collection's documents, for the title index; and each collection's
# version, what tells whether anything kept about it is still current (a document added,
# replaced or removed): see collection_state.
COLLECTION_TITLES = """
SELECT d.id, d.title FROM ingestion_document d
WHERE d.collection_id = %(collection)s AND d.title <> ''
"""
# Each document's title and file name, for the documents named after a person.
COLLECTION_NAMED = """
SELECT d.id, d.file_path, d.title, d.file_name FROM ingestion_document d
WHERE d.collection_id = %(collection)s
"""
COLLECTION_VERSIONS = """
SELECT d.collection_id, count(*), max(d.created_at), max(d.ingested_at)
FROM ingestion_document d
WHERE d.collection_id = ANY(%(collections)s)
GROUP BY d.collection_id
"""

# --- graph: entities, relations, sections and knowledge-graph questions ---------------------
