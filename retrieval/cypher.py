"""Every Cypher statement retrieval runs. Written for Neo4j 5 and ArcadeDB alike: no APOC,
GDS or full-text procedures (keyword search happens in PostgreSQL)."""

from typing import LiteralString

# --- search: graph expansion from seed chunks ---------------------------------------------
# Every step lands only on chunks of the readable collections, so a path never passes
# through a chunk (or an entity mention) the user may not read.
EXPAND_SEQUENCE: LiteralString = """
UNWIND $ids AS from_id
MATCH (:Chunk {id: from_id})-[r:NEXT_CHUNK|PREV_CHUNK]->(n:Chunk)
WHERE n.collection_id IN $collections
RETURN from_id, n.id AS id, type(r) AS relationship
"""
EXPAND_SIMILAR: LiteralString = """
UNWIND $ids AS from_id
MATCH (:Chunk {id: from_id})-[r:SEMANTICALLY_SIMILAR]-(n:Chunk)
WHERE n.collection_id IN $collections AND r.score >= $threshold
RETURN from_id, n.id AS id, r.score AS score
"""
# Chunks of other documents mentioning an entity the seed mentions. Entities mentioned in
# many readable chunks ("United States") connect everything and are left out.
EXPAND_ENTITIES: LiteralString = """
UNWIND $ids AS from_id
MATCH (s:Chunk {id: from_id})-[:MENTIONS]->(e:Entity)<-[:MENTIONS]-(n:Chunk)
WHERE n.collection_id IN $collections AND n.document_id <> s.document_id
WITH from_id, e, collect(DISTINCT n.id) AS ids
WHERE size(ids) <= $max_degree
RETURN from_id, e.id AS entity_id, e.name AS entity, ids
"""

# --- graph: entities, relations, sections and knowledge-graph questions -------------------
