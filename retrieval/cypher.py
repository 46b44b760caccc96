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
# The title bridge: from a chunk to the opening chunks of a document of the same collection
# whose title it names (title_bridge.py finds the titles a chunk names).
EXPAND_TITLES: LiteralString = """
UNWIND $links AS link
MATCH (s:Chunk {id: link.from_id}), (d:Document {id: link.document_id})-[:HAS_CHUNK]->(n:Chunk)
WHERE n.collection_id IN $collections AND n.collection_id = s.collection_id
  AND n.document_id <> s.document_id AND n.chunk_index < $per_document
RETURN link.from_id AS from_id, d.id AS document_id, n.id AS id, n.chunk_index AS chunk_index
"""

# --- graph: entities, relations, sections and knowledge-graph questions -------------------
# Entity-to-entity relations one hop from the frontier, either direction, stated by a
# readable document (every relation carries the id of the document that states it).
ENTITY_RELATIONS_STEP: LiteralString = """
MATCH (a:Entity)-[r]-(b:Entity)
WHERE a.id IN $ids AND type(r) IN $types AND r.document_id IN $documents
RETURN a.id AS from_id, b.id AS to_id, b.name AS name, b.type AS type, type(r) AS relationship,
       startNode(r).id AS start_id, properties(r) AS properties
LIMIT $limit
"""
# The relation types that exist, for the generated-query schema and for validation.
GRAPH_RELATIONSHIP_TYPES: LiteralString = """
MATCH ()-[r]->() RETURN DISTINCT type(r) AS type
"""
GRAPH_LABELS: LiteralString = """
MATCH (n) UNWIND labels(n) AS label RETURN DISTINCT label
"""
# Direct edges between two grounded entities, readable statements only.
DIRECT_EDGES: LiteralString = """
MATCH (a:Entity {id: $a})-[r]-(b:Entity {id: $b})
WHERE r.document_id IN $documents
RETURN a.id AS from_id, b.id AS to_id, type(r) AS relationship, startNode(r).id AS start_id,
       properties(r) AS properties
"""
# Chunks of readable collections that mention both entities.
CO_MENTIONS: LiteralString = """
MATCH (a:Entity {id: $a})<-[:MENTIONS]-(c:Chunk)-[:MENTIONS]->(b:Entity {id: $b})
WHERE c.collection_id IN $collections
RETURN c.id AS chunk_id
LIMIT $limit
"""
# The readable neighbourhood of one entity: relations stated by readable documents, and
# entities mentioned beside it in readable chunks.
NEIGHBOURHOOD_RELATIONS: LiteralString = """
MATCH (a:Entity {id: $id})-[r]-(b:Entity)
WHERE r.document_id IN $documents
RETURN a.id AS from_id, b.id AS to_id, b.name AS name, b.type AS type, type(r) AS relationship,
       startNode(r).id AS start_id, properties(r) AS properties
LIMIT $limit
"""
NEIGHBOURHOOD_MENTIONS: LiteralString = """
MATCH (a:Entity {id: $id})<-[:MENTIONS]-(c:Chunk)-[:MENTIONS]->(b:Entity)
WHERE c.collection_id IN $collections AND b.id <> a.id
RETURN b.id AS id, b.name AS name, b.type AS type, collect(DISTINCT c.id) AS chunk_ids
LIMIT $limit
"""

# --- schema explorer: what the reader's part of the graph holds, with counts --------------
# Entity nodes and their relations are shared by every collection, so each count keeps
# only what a readable chunk mentions or a readable document states.
SCHEMA_STRUCTURE_COUNTS: LiteralString = """
MATCH (c:Chunk)
WHERE c.collection_id IN $collections
RETURN count(c) AS chunks, count(DISTINCT c.document_id) AS documents
"""
SCHEMA_SECTION_COUNT: LiteralString = """
MATCH (d:Document)-[:HAS_SECTION]->(s:Section)
WHERE d.id IN $documents
RETURN count(s) AS sections
"""
SCHEMA_ENTITY_TYPES: LiteralString = """
MATCH (c:Chunk)-[:MENTIONS]->(e:Entity)
WHERE c.collection_id IN $collections
RETURN e.type AS label, count(DISTINCT e.id) AS count
"""
SCHEMA_RELATION_TYPES: LiteralString = """
MATCH (:Entity)-[r]->(:Entity)
WHERE r.document_id IN $documents
RETURN type(r) AS type, count(r) AS count
"""
SCHEMA_CHUNK_LINKS: LiteralString = """
MATCH (c:Chunk)-[r:NEXT_CHUNK|SEMANTICALLY_SIMILAR]->(n:Chunk)
WHERE c.collection_id IN $collections AND n.collection_id IN $collections
RETURN type(r) AS type, count(r) AS count
"""
SCHEMA_MENTION_COUNT: LiteralString = """
MATCH (c:Chunk)-[r:MENTIONS]->(:Entity)
WHERE c.collection_id IN $collections
RETURN count(r) AS count
"""
