"""The LLM path: the real openai client, over HTTP, against a local fake server."""

import json
from collections.abc import Iterator

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from core.providers import graph, llm
from ingestion.entities import ChunkInput, extract_entities
from ingestion.models import Collection, Document, Entity, EntityRelation, ExtractionSchema

from .fake_openai import FakeOpenAI
from .helpers import count, ingest

KNOWN = {
    "Alexis Torres": "Person",
    "Alexis": "Person",
    "TechCorp": "Organization",
    "Kubernetes": "Technology",
    "Forklift 7": "Vehicle",
}


def answer(prompt: str) -> str:
    text = prompt.split("Text:\n", 1)[1]
    if "GARBLED" in text:
        return "Sorry, I cannot help with that."
    entities = [
        {"name": n, "type": t, "aliases": [], "confidence": 0.9}
        for n, t in KNOWN.items()
        if n in text and not (n == "Alexis" and "Alexis Torres" in text)
    ]
    relations = []
    if "Alexis" in text and "TechCorp" in text:
        relations.append(
            {
                "source": "Alexis Torres",
                "type": "WORKS_FOR",
                "target": "TechCorp",
                "properties": {"position": "Engineer"},
                "confidence": 0.95,
            }
        )
    if "Forklift 7" in text and "Alexis" in text:
        relations.append(
            {
                "source": "Alexis",
                "type": "OPERATES",
                "target": "Forklift 7",
                "properties": {},
                "confidence": 0.8,
            }
        )
    relations.append({"source": "Nobody", "type": "WORKS_FOR", "target": "TechCorp"})
    return "```json\n" + json.dumps({"entities": entities, "relations": relations}) + "\n```"


@pytest.fixture
def fake_llm(settings: SettingsWrapper) -> Iterator[FakeOpenAI]:
    with FakeOpenAI(answer).running() as fake:
        settings.OPENAI_BASE_URL = fake.url
        settings.OPENAI_MODEL = "fake-model"
        settings.OPENAI_API_KEY = "test-key"
        settings.INGESTION_EXTRACTOR = "auto"
        llm.get_client.cache_clear()
        yield fake
    llm.get_client.cache_clear()


@pytest.fixture
def vehicle_schema() -> ExtractionSchema:
    return ExtractionSchema.objects.create(
        name="with vehicles",
        entity_types=[
            {"label": "Person", "description": "a person"},
            {"label": "Organization", "description": "a company"},
            {"label": "Technology", "description": "a tool"},
            {"label": "Vehicle", "description": "a machine people drive"},
        ],
        relation_types=[
            {
                "type": "WORKS_FOR",
                "source": "Person",
                "target": "Organization",
                "properties": ["position"],
            },
            {"type": "OPERATES", "source": "Person", "target": "Vehicle"},
        ],
        instructions="Name every vehicle by its fleet number.",
    )


@pytest.mark.django_db
def test_llm_extracts_against_the_admin_schema(
    fake_llm: FakeOpenAI, vehicle_schema: ExtractionSchema
) -> None:
    chunks = [
        ChunkInput(0, "Alexis Torres is an engineer at TechCorp.", "Summary", "Level 1: Summary"),
        ChunkInput(1, "Alexis drives Forklift 7 and runs Kubernetes.", "Work", "Level 1: Work"),
        ChunkInput(2, "GARBLED Alexis Torres uses Docker.", "Skills", "Level 1: Skills"),
    ]

    result = extract_entities(title="Alexis Torres", chunks=chunks, file_name="alexis.md")

    assert result.source == "llm"
    assert len(fake_llm.prompts) == 3
    assert "Vehicle: a machine people drive" in fake_llm.prompts[0]
    assert "OPERATES (Person -> Vehicle)" in fake_llm.prompts[0]
    assert "Name every vehicle by its fleet number." in fake_llm.prompts[0]
    names = {(e.type, e.name): e for e in result.entities.values()}
    person = names[("Person", "Alexis Torres")]
    # "Alexis" alone (chunk 1) folds into the full name of chunk 0.
    assert {0, 1} <= {m.chunk_index for m in person.mentions}
    assert ("Person", "Alexis") not in names
    assert ("Vehicle", "Forklift 7") in names
    # The unreadable answer fell back to the offline extractor for that chunk.
    assert ("Technology", "Docker") in names
    relations = {(r.source, r.type, r.target) for r in result.relations}
    assert (person.key, "WORKS_FOR", names[("Organization", "TechCorp")].key) in relations
    assert (person.key, "OPERATES", names[("Vehicle", "Forklift 7")].key) in relations
    assert all(
        r.source in result.entities and r.target in result.entities for r in result.relations
    )


@pytest.mark.django_db
@pytest.mark.usefixtures("cleanup_documents")
def test_ingestion_with_the_llm_writes_its_entities_to_the_graph(
    fake_llm: FakeOpenAI, vehicle_schema: ExtractionSchema
) -> None:
    collection = Collection.objects.create(name="llm-test")
    text = "# Alexis Torres\n\n## Work\n\nAlexis Torres works at TechCorp and drives Forklift 7.\n"

    ingest(collection, {"alexis.md": text.encode()})

    document = Document.objects.get()
    vehicle = Entity.objects.get(type="Vehicle")
    assert vehicle.name == "Forklift 7"
    assert (
        count(
            "MATCH (:Chunk {document_id: $d})-[m:MENTIONS {extraction_source: 'llm'}]->"
            "(v:Entity:Vehicle {id: $v}) RETURN count(m) AS n",
            d=str(document.pk),
            v=vehicle.graph_id,
        )
        == 1
    )
    relation = EntityRelation.objects.get(type="WORKS_FOR")
    rows = graph.run_read(
        "MATCH (:Entity {id: $a})-[r:WORKS_FOR]->(:Entity {id: $b}) RETURN r.position AS position",
        a=relation.source.graph_id,
        b=relation.target.graph_id,
    )
    assert rows == [{"position": "Engineer"}]
