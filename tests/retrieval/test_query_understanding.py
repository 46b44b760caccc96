"""Names and routes of questions, against the entities the real ingestion wrote."""

import pytest

from ingestion.models import Chunk, Entity, EntityMention
from retrieval.query_understanding import QueryAnalysis, analyze_query, tokenize

from .graph_fixtures import GraphCorpus, graph_corpus_fixture  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def _analyze(corpus: GraphCorpus, question: str) -> QueryAnalysis:
    return analyze_query(question, collection_ids=corpus.readable)


def test_tokens_keep_possessives_and_technical_spellings() -> None:
    tokens = tokenize("Kevin's Node.js, C++ and James\u2019 skills.")
    assert [(t.text, t.possessive) for t in tokens if not t.punctuation] == [
        ("Kevin", True),
        ("Node.js", False),
        ("C++", False),
        ("and", False),
        ("James", True),
        ("skills", False),
    ]


@pytest.mark.parametrize(
    ("question", "name", "person", "document"),
    [
        ("Alexis skills section only", "Alexis", "alexis_torres", "alexis_torres.pdf"),
        ("What crane operator license does Bob hold?", "Bob", "bob_kessler", "bob_kessler.md"),
        ("bob's skills", "bob", "bob_kessler", "bob_kessler.md"),
        ("Kevin\u2019s industry experience", "Kevin", "kevin_mahoney", "kevin_mahoney.txt"),
        ("will patterson education section", "will patterson", "will_patterson", None),
        ("Will's projects", "Will", "will_patterson", "will_patterson.docx"),
        ("TORRES certifications", "TORRES", "alexis_torres", "alexis_torres.pdf"),
    ],
)
def test_first_names_short_names_possessives_and_case_find_the_person_and_document(
    graph_corpus: GraphCorpus, question: str, name: str, person: str, document: str | None
) -> None:
    analysis = _analyze(graph_corpus, question)
    assert [p.name for p in analysis.persons] == [name]
    (mention,) = analysis.persons
    assert [e.rsplit(":", 1)[1] for e in mention.entity_ids] == [person]
    # Kevin's own résumé never names him in a way the extractor caught: the document is
    # found by its title, which a name filter on chunk text would have dropped.
    expected = document or f"{person}.docx"
    assert mention.document_ids == (graph_corpus.doc(expected),)
    assert analysis.document_ids == mention.document_ids


def test_a_shared_first_name_keeps_every_person_and_their_documents(
    graph_corpus: GraphCorpus,
) -> None:
    analysis = _analyze(graph_corpus, "Which Sarah was the backend lead of the FHIR API project?")
    (mention,) = analysis.persons
    assert sorted(e.rsplit(":", 1)[1] for e in mention.entity_ids) == [
        "sarah_chen",
        "sarah_okafor",
    ]
    assert set(mention.document_ids) == {
        graph_corpus.doc("sarah_chen.docx"),
        graph_corpus.doc("sarah_okafor.pdf"),
    }
    # With the surname the same words mean one person only.
    narrowed = _analyze(graph_corpus, "Sarah Okafor's background")
    assert [e.rsplit(":", 1)[1] for p in narrowed.persons for e in p.entity_ids] == ["sarah_okafor"]


@pytest.mark.parametrize(
    "question",
    [
        "Who will lead the crane rebuild?",  # "will" the verb, not Will Patterson
        "Cloud certifications for the platform team",  # an extracted "Cloud Practitioner"
        "Tell me about AI",
    ],
)
def test_ordinary_words_are_not_taken_for_names(graph_corpus: GraphCorpus, question: str) -> None:
    assert _analyze(graph_corpus, question).persons == ()


@pytest.mark.parametrize(
    ("question", "names"),
    [
        # Both ingest wrongly typed person entities: "Loop Analytics" (from Cedar Loop
        # Analytics) and "Shipped Switchboard Mobile".
        ("Who did Alexis work with at Cedar Loop Analytics?", ["Alexis"]),
        ("What is James's role at Switchboard Lifting Services?", ["James"]),
    ],
)
def test_words_inside_a_longer_name_are_not_people(
    graph_corpus: GraphCorpus, question: str, names: list[str]
) -> None:
    assert [p.name for p in _analyze(graph_corpus, question).persons] == names


def test_names_known_only_from_an_unreadable_collection_are_not_recognised(
    graph_corpus: GraphCorpus,
) -> None:
    # Zed Quimby exists only in the secret collection.
    assert _analyze(graph_corpus, "What are Zed Quimby's skills?").persons == ()
    seen_by_all = analyze_query(
        "What are Zed Quimby's skills?",
        collection_ids=[graph_corpus.people.pk, graph_corpus.secret.pk],
    )
    assert [p.name for p in seen_by_all.persons] == ["Zed Quimby"]
    assert seen_by_all.document_ids == (graph_corpus.doc("zed_quimby.md"),)
    assert analyze_query("Alexis skills", collection_ids=[]).persons == ()


@pytest.mark.parametrize(
    ("question", "route", "attribute", "topics"),
    [
        ("Alexis skills section only", "section_based_scoped", "skills", ()),
        ("Kevin's industry experience", "section_based_scoped", "industry experience", ()),
        (
            "What's Sarah Okafor's background? Summary of qualifications only",
            "section_based_scoped",
            "summary of qualifications",
            (),
        ),
        (
            "Show only the Core Competencies of James Smith",
            "section_based_scoped",
            "core competencies",
            (),
        ),
        ("All Python skills", "section_based_cross_document", "skills", ("python",)),
        ("every education section", "section_based_cross_document", "education", ()),
        ("Tell me about AI", "semantic", None, ()),
        ("Who worked with Alexis Torres at TechCorp?", "semantic", None, ()),
        # An attribute without a person or an "all"/"section" cue stays semantic (soft).
        ("Who has experience with Microsoft Azure?", "semantic", "experience", ()),
    ],
)
def test_routes(
    graph_corpus: GraphCorpus,
    question: str,
    route: str,
    attribute: str | None,
    topics: tuple[str, ...],
) -> None:
    analysis = _analyze(graph_corpus, question)
    assert (analysis.route, analysis.attribute_phrase, analysis.topic_terms) == (
        route,
        attribute,
        topics,
    )


def test_an_empty_question_is_refused(graph_corpus: GraphCorpus) -> None:
    with pytest.raises(ValueError, match="empty"):
        _analyze(graph_corpus, "   ")


def test_a_person_is_found_by_a_whole_word_of_an_alias_only(graph_corpus: GraphCorpus) -> None:
    chunks = list(Chunk.objects.filter(collection=graph_corpus.people).order_by("pk")[:2])
    person = Entity.objects.create(
        graph_id="person:robert_quill", name="Robert Quill", type="Person", aliases=["Bobby Quill"]
    )
    for chunk in chunks:  # twice: a person named by part of a name must be mentioned often
        EntityMention.objects.create(
            entity=person, chunk=chunk, document_id=chunk.document_id, surface="Bobby Quill",
            confidence=0.9, source="offline",
        )  # fmt: skip
    analysis = _analyze(graph_corpus, "What did Bobby Quill certify?")
    assert [e for p in analysis.persons for e in p.entity_ids] == ["person:robert_quill"]
    # A word inside another ("Bob" of "Bobby") names no one.
    partial = _analyze(graph_corpus, "What did Bob Quil certify?")
    assert "person:robert_quill" not in [e for p in partial.persons for e in p.entity_ids]
