import uuid

from core.providers import graph


def test_write_and_read_on_the_bolt_graph_server() -> None:
    doc_id = f"test-{uuid.uuid4()}"
    graph.run_write(
        "CREATE (d:Document {id: $doc, file_name: 'a.md'})"
        "-[:HAS_CHUNK]->(c:Chunk {id: $chunk, text: 'hello graph'})",
        doc=doc_id,
        chunk=f"{doc_id}-0",
    )
    try:
        rows = graph.run_read(
            "MATCH (d:Document {id: $doc})-[r:HAS_CHUNK]->(c:Chunk) "
            "RETURN d.file_name AS file, type(r) AS rel, c.text AS text",
            doc=doc_id,
        )
        assert rows == [{"file": "a.md", "rel": "HAS_CHUNK", "text": "hello graph"}]
    finally:
        graph.run_write(
            "MATCH (d:Document {id: $doc})-[:HAS_CHUNK]->(c) DETACH DELETE d, c", doc=doc_id
        )
    assert graph.run_read("MATCH (d:Document {id: $doc}) RETURN d", doc=doc_id) == []


def test_node_ids_are_unique() -> None:
    import pytest
    from neo4j.exceptions import ConstraintError

    chunk_id = f"test-{uuid.uuid4()}"
    graph.run_write("CREATE (:Chunk {id: $id})", id=chunk_id)
    try:
        with pytest.raises(ConstraintError):
            graph.run_write("CREATE (:Chunk {id: $id})", id=chunk_id)
    finally:
        graph.run_write("MATCH (c:Chunk {id: $id}) DETACH DELETE c", id=chunk_id)


def test_the_graph_server_names_its_kind_and_version() -> None:
    found = graph.server()
    assert found.kind in ("ArcadeDB", "Neo4j")
    assert found.version[0].isdigit()
    assert found.bolt.startswith(("4.", "5."))


def test_neo4j_and_arcadedb_greetings_are_told_apart() -> None:
    neo4j = graph.describe("Neo4j/5.26.3", (5, 7))
    assert (neo4j.kind, neo4j.version, neo4j.bolt) == ("Neo4j", "5.26.3", "5.7")
    arcade = graph.describe("Neo4j/5.26.0 compatible (ArcadeDB 26.10.2)", (5, 4))
    assert (arcade.kind, arcade.version) == ("ArcadeDB", "26.10.2")
