"""Every Cypher statement the platform itself runs. Written for Neo4j 5 and ArcadeDB alike:
no APOC, GDS or full-text procedures."""

from typing import LiteralString

PING: LiteralString = "RETURN 1 AS ok"

# One uniqueness constraint per node label keyed by `id`, and lookup indexes the
# retrieval side filters on. `IF NOT EXISTS` keeps start-up idempotent.
SCHEMA: list[LiteralString] = [
    "CREATE CONSTRAINT document_id IF NOT EXISTS FOR (n:Document) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (n:Chunk) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT section_id IF NOT EXISTS FOR (n:Section) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT section_type_id IF NOT EXISTS FOR (n:SectionType) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE",
    "CREATE CONSTRAINT image_id IF NOT EXISTS FOR (n:Image) REQUIRE n.id IS UNIQUE",
    "CREATE INDEX chunk_collection IF NOT EXISTS FOR (n:Chunk) ON (n.collection_id)",
    "CREATE INDEX chunk_document IF NOT EXISTS FOR (n:Chunk) ON (n.document_id)",
    "CREATE INDEX entity_name IF NOT EXISTS FOR (n:Entity) ON (n.name)",
]
