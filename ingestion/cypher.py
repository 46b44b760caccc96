"""Every Cypher statement ingestion runs. Written for Neo4j 5 and ArcadeDB alike: no APOC,
GDS or full-text procedures. Entity labels and relation types cannot be parameters, so the
few statements that need them are built from names checked against a strict pattern."""

from typing import LiteralString

from .models.entities import LABEL_RE, RELATION_RE

# --- removing documents' subgraphs -------------------------------------------------------
# Relations a document stated carry its id; entities are shared and stay unless orphaned.
# Every statement takes a list of document ids, so a batch of files costs one round trip.
DELETE_DOCUMENT_RELATIONS: LiteralString = """
UNWIND $document_ids AS document_id
MATCH (:Chunk {document_id: document_id})-[:MENTIONS]->(e:Entity)-[r]->(:Entity)
WHERE r.document_id = document_id
WITH DISTINCT r
DELETE r
"""
DOCUMENT_ENTITY_IDS: LiteralString = """
UNWIND $document_ids AS document_id
MATCH (:Chunk {document_id: document_id})-[:MENTIONS]->(e:Entity)
RETURN DISTINCT e.id AS id
"""
DELETE_DOCUMENT_IMAGES: LiteralString = """
UNWIND $document_ids AS document_id
MATCH (:Chunk {document_id: document_id})-[:HAS_IMAGE]->(i:Image)
DETACH DELETE i
"""
DELETE_DOCUMENT_SECTIONS: LiteralString = """
UNWIND $document_ids AS document_id
MATCH (:Document {id: document_id})-[:HAS_SECTION]->(s:Section)
DETACH DELETE s
"""
DELETE_DOCUMENT_CHUNKS: LiteralString = """
UNWIND $document_ids AS document_id
MATCH (c:Chunk {document_id: document_id})
DETACH DELETE c
"""
DELETE_DOCUMENT_NODES: LiteralString = """
UNWIND $document_ids AS document_id
MATCH (d:Document {id: document_id})
DETACH DELETE d
"""
DELETE_ORPHAN_ENTITIES: LiteralString = """
UNWIND $ids AS entity_id
MATCH (e:Entity {id: entity_id})
WHERE NOT (e)<-[:MENTIONS]-(:Chunk)
DETACH DELETE e
RETURN count(*) AS deleted
"""


def _merge_document_parts(label: LiteralString, link: LiteralString) -> LiteralString:
    """Rows as `label` nodes (keyed by id) that their document links to with `link`."""
    return f"""
UNWIND $rows AS row
MATCH (d:Document {{id: row.document_id}})
MERGE (n:{label} {{id: row.id}})
SET n += row
MERGE (d)-[:{link}]->(n)
"""


# --- writing documents' subgraphs ---------------------------------------------------------
MERGE_DOCUMENTS: LiteralString = """
UNWIND $rows AS row
MERGE (d:Document {id: row.id})
SET d += row
"""
MERGE_CHUNKS: LiteralString = _merge_document_parts("Chunk", "HAS_CHUNK")
LINK_CHUNK_SEQUENCE: LiteralString = """
UNWIND $pairs AS pair
MATCH (a:Chunk {id: pair.previous}), (b:Chunk {id: pair.next})
MERGE (a)-[:NEXT_CHUNK]->(b)
MERGE (b)-[:PREV_CHUNK]->(a)
"""
MERGE_SECTIONS: LiteralString = _merge_document_parts("Section", "HAS_SECTION")
LINK_SECTION_PARENTS: LiteralString = """
UNWIND $pairs AS pair
MATCH (parent:Section {id: pair.parent}), (child:Section {id: pair.child})
MERGE (parent)-[:PARENT_SECTION]->(child)
"""
LINK_SECTION_CHUNKS: LiteralString = """
UNWIND $pairs AS pair
MATCH (s:Section {id: pair.section}), (c:Chunk {id: pair.chunk})
MERGE (s)-[:IN_SECTION]->(c)
"""
MERGE_MENTIONS: LiteralString = """
UNWIND $rows AS row
MATCH (c:Chunk {id: row.chunk}), (e:Entity {id: row.entity})
MERGE (c)-[m:MENTIONS]->(e)
SET m.confidence = row.confidence, m.extraction_source = row.source, m.mention = row.surface
"""
MERGE_IMAGES: LiteralString = """
UNWIND $rows AS row
MATCH (c:Chunk {id: row.chunk_id})
MERGE (i:Image {id: row.id})
SET i += row
MERGE (c)-[:HAS_IMAGE]->(i)
"""


def merge_entities(label: str) -> LiteralString:
    if not LABEL_RE.match(label):
        raise ValueError(f"not a valid entity label: {label!r}")
    # The name was checked above, so this text is as safe as a literal.
    query: LiteralString = f"""
UNWIND $rows AS row
MERGE (e:Entity:{label} {{id: row.id}})
SET e += row
"""
    return query


def merge_relations(relation_type: str) -> LiteralString:
    if not RELATION_RE.match(relation_type):
        raise ValueError(f"not a valid relation type: {relation_type!r}")
    # The name was checked above, so this text is as safe as a literal.
    query: LiteralString = f"""
UNWIND $rows AS row
MATCH (a:Entity {{id: row.source}}), (b:Entity {{id: row.target}})
MERGE (a)-[r:{relation_type} {{document_id: row.document_id}}]->(b)
SET r += row.props
"""
    return query


# --- the final step of a job -------------------------------------------------------------
MERGE_SIMILAR_CHUNKS: LiteralString = """
UNWIND $rows AS row
MATCH (a:Chunk {id: row.source}), (b:Chunk {id: row.target})
MERGE (a)-[r:SEMANTICALLY_SIMILAR]->(b)
SET r.score = row.score, r.similarity = row.score
"""
MERGE_SECTION_TYPES: LiteralString = """
UNWIND $rows AS row
MERGE (t:SectionType {id: row.id})
SET t += row
"""
DELETE_SECTION_TYPES: LiteralString = """
UNWIND $ids AS type_id
MATCH (t:SectionType {id: type_id})
DETACH DELETE t
"""
UNLINK_SECTION_TYPES: LiteralString = """
UNWIND $ids AS section_id
MATCH (:Section {id: section_id})-[r:INSTANCE_OF]->(:SectionType)
DELETE r
"""
LINK_SECTION_TYPES: LiteralString = """
UNWIND $pairs AS pair
MATCH (s:Section {id: pair.section}), (t:SectionType {id: pair.type})
MERGE (s)-[:INSTANCE_OF]->(t)
"""
