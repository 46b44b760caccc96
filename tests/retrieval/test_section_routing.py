"""Section routing over sections and chunks the real ingestion wrote."""

import pytest
from django.test import override_settings

from core.providers.embeddings import embed_texts
from ingestion.models import Chunk, Section
from retrieval.query_understanding import QueryAnalysis, analyze_query
from retrieval.section_routing import SectionHit, hard_route, soft_section_boosts

from .graph_fixtures import GraphCorpus, graph_corpus_fixture  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def _route(
    corpus: GraphCorpus, question: str, collections: list[int] | None = None, **kwargs: object
) -> tuple[QueryAnalysis, list[SectionHit]]:
    collections = corpus.readable if collections is None else collections
    analysis = analyze_query(question, collection_ids=collections)
    hits = hard_route(
        analysis,
        query_embedding=embed_texts([question])[0],
        collection_ids=collections,
        limit=20,
        **kwargs,  # type: ignore[arg-type]
    )
    return analysis, hits


def _files(hits: list[SectionHit]) -> set[str]:
    return set(
        Chunk.objects.filter(pk__in=[h.chunk_id for h in hits]).values_list(
            "document__file_name", flat=True
        )
    )


def test_scoped_routing_returns_the_named_persons_section_ranked_by_the_formula(
    graph_corpus: GraphCorpus,
) -> None:
    analysis, hits = _route(graph_corpus, "Alexis skills section only")
    assert analysis.route == "section_based_scoped"
    assert _files(hits) == {"alexis_torres.pdf"}
    assert hits[0].section_name == "Skills"
    assert hits[0].section_similarity > 0.95
    for hit in hits:
        assert hit.section_similarity >= 0.5
        assert hit.score == pytest.approx(
            0.6 * hit.section_similarity + 0.4 * hit.chunk_similarity, abs=2e-4
        )
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    # The chunk under the Skills heading is the one ranked first.
    chunk = Chunk.objects.get(pk=hits[0].chunk_id)
    assert chunk.section is not None and chunk.section.name == "Skills"


def test_a_synonym_heading_matches_through_its_section_type(graph_corpus: GraphCorpus) -> None:
    # Sarah Chen's résumé calls it "Technical Expertise"; the question says "skills".
    expertise = Section.objects.get(
        document=graph_corpus.documents["sarah_chen.docx"], name="Technical Expertise"
    )
    skills = Section.objects.get(
        document=graph_corpus.documents["alexis_torres.pdf"], name="Skills"
    )
    assert expertise.section_type_id == skills.section_type_id
    _, hits = _route(graph_corpus, "Sarah Chen skills")
    assert _files(hits) == {"sarah_chen.docx"}
    assert hits[0].section_id == str(expertise.pk)
    # Without the type the name alone would not reach the threshold.
    with override_settings(RETRIEVAL_SECTION_TYPE_WEIGHT=0.0):
        _, by_name = _route(graph_corpus, "Sarah Chen skills")
    assert str(expertise.pk) not in {h.section_id for h in by_name}


def test_a_parent_section_routes_to_the_chunks_of_its_subsections(
    graph_corpus: GraphCorpus,
) -> None:
    _, hits = _route(graph_corpus, "Alexis Torres professional experience section")
    experience = Section.objects.get(
        document=graph_corpus.documents["alexis_torres.pdf"], name="Professional Experience"
    )
    routed = {h.chunk_id for h in hits if h.section_id == str(experience.pk)}
    under = {
        str(pk)
        for pk in Chunk.objects.filter(
            document=experience.document,
            index__gte=experience.start_chunk_index,
            index__lte=experience.end_chunk_index,
        ).values_list("pk", flat=True)
    }
    assert len(under) >= 3 and routed == under


def test_cross_document_routing_keeps_sections_that_hold_the_topic(
    graph_corpus: GraphCorpus,
) -> None:
    analysis, hits = _route(graph_corpus, "All Python skills")
    assert (analysis.route, analysis.attribute_phrase, analysis.topic_terms) == (
        "section_based_cross_document",
        "skills",
        ("python",),
    )
    files = _files(hits)
    assert {"alexis_torres.pdf", "sarah_chen.docx", "james_smith.md"} <= files
    # Bob's skills are about cranes: a skills section without Python is left out.
    assert "bob_kessler.md" not in files
    assert all("python" in Chunk.objects.get(pk=h.chunk_id).text.lower() for h in hits)


def test_routing_never_leaves_the_readable_collections(graph_corpus: GraphCorpus) -> None:
    _, readable = _route(graph_corpus, "All Python skills")
    assert "zed_quimby.md" not in _files(readable)
    both = [graph_corpus.people.pk, graph_corpus.secret.pk]
    _, everything = _route(graph_corpus, "All Python skills", both)
    assert "zed_quimby.md" in _files(everything)
    _, nothing = _route(graph_corpus, "All Python skills", [])
    assert nothing == []


def test_a_file_scope_overrides_the_persons_documents(graph_corpus: GraphCorpus) -> None:
    _, hits = _route(
        graph_corpus,
        "Alexis skills section only",
        document_ids=[graph_corpus.doc("james_smith.md")],
    )
    assert _files(hits) == {"james_smith.md"}


def test_semantic_questions_are_not_hard_routed(graph_corpus: GraphCorpus) -> None:
    analysis, hits = _route(graph_corpus, "Tell me about AI")
    assert analysis.route == "semantic" and hits == []
    with pytest.raises(ValueError, match="limit"):
        hard_route(analysis, query_embedding=[0.0] * 384, collection_ids=[1], limit=0)


def test_soft_boosts_favour_chunks_in_matching_sections_only(graph_corpus: GraphCorpus) -> None:
    analysis = analyze_query(
        "Who has experience with Microsoft Azure?", collection_ids=graph_corpus.readable
    )
    assert analysis.route == "semantic" and analysis.attribute_phrase == "experience"
    chunks = list(
        Chunk.objects.filter(
            document__file_name__in=["sarah_okafor.pdf", "zed_quimby.md"]
        ).select_related("section", "document")
    )
    boosts = soft_section_boosts(
        analysis, chunk_ids=[str(c.pk) for c in chunks], collection_ids=graph_corpus.readable
    )
    assert boosts and all(0.5 <= b <= 1.0 for b in boosts.values())
    boosted = [c for c in chunks if str(c.pk) in boosts]
    assert all(c.document.file_name == "sarah_okafor.pdf" for c in boosted)
    assert any("Experience" in c.header_path for c in boosted)
    assert not any(c.header_text == "Education" for c in boosted)
    none = analyze_query("Tell me about AI", collection_ids=graph_corpus.readable)
    assert soft_section_boosts(none, chunk_ids=list(boosts), collection_ids=[1]) == {}
