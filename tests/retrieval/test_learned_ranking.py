"""The learned fusion: its evidence, its scores, the shipped model and the command that
fits it, on the search corpus ingested through the real pipeline."""

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from retrieval.fusion import FEATURES, RankerModelError, load_model
from retrieval.search import graphrag_search
from retrieval.search.candidates import Candidate
from retrieval.search.learned_ranking import features, score_learned, title_words
from retrieval.search.params import SearchParams

from .conftest import SearchCorpus

pytestmark = pytest.mark.django_db


def _search(corpus: SearchCorpus, query: str, **options: Any) -> Any:
    return graphrag_search(query, user=corpus.reader, record_trace=False, **options)


def test_a_title_is_named_only_when_every_word_of_it_is_in_the_question() -> None:
    assert title_words("Sarah Chen (singer).txt") == {"sarah", "chen", "singer"}
    assert title_words("crew_handbook.md") == {"crew", "handbook"}
    assert title_words("The.pdf") == set()  # a stop word alone names nothing


def test_the_evidence_of_each_candidate(search_corpus: SearchCorpus) -> None:
    question = "What does the crew handbook say about slings?"
    outcome = _search(search_corpus, question, fusion="learned")
    found = features(outcome.candidates, question)
    by_file: dict[str, list[dict[str, float]]] = {}
    for c in outcome.candidates:
        by_file.setdefault(c.row["file_name"], []).append(found[c.chunk_id])
        assert set(found[c.chunk_id]) == set(FEATURES)
        assert all(0.0 <= value <= 1.0 for value in found[c.chunk_id].values())
        assert found[c.chunk_id]["seed"] == float(c.hop == 0)
    assert {e["title_named"] for e in by_file["crew_handbook.md"]} == {1.0}
    assert all(e["title_named"] == 0.0 for name, rows in by_file.items() for e in rows
               if name != "crew_handbook.md")  # fmt: skip
    for rows in by_file.values():  # one candidate of a document: no support from others
        assert {e["document_support"] for e in rows} == {1.0 - 1.0 / len(rows)}


def test_learned_scores_are_shares_of_the_five_signals(search_corpus: SearchCorpus) -> None:
    outcome = _search(search_corpus, "Who checks the load chart before a lift?")
    assert outcome.params.fusion == "learned"  # the default
    assert outcome.results[0]["file_name"] == "crew_handbook.md"
    assert sum(outcome.weights.values()) == pytest.approx(1.0, abs=1e-3)
    for r in outcome.results:
        assert 0.0 < r["hybrid_score"] <= 1.0
        shares = r["metadata"]["score_shares"]
        assert set(shares) == {"vector", "keyword", "path", "proximity", "section"}
        assert min(shares.values()) >= 0.0
        assert sum(shares.values()) == pytest.approx(1.0, abs=1e-3)


def test_a_perfect_candidate_scores_one_and_weights_order_the_rest() -> None:
    model = {"weights": {"vector": 1.0, "keyword": 3.0}, "scale": {"keyword": [0.0, 0.5]}}
    row = {"document_id": "d", "file_name": "x.md"}
    best, by_words, by_meaning = (Candidate(name, row=row) for name in ("a", "b", "c"))
    for c, vector, keyword in ((best, 1.0, 1.0), (by_words, 0.0, 1.0), (by_meaning, 1.0, 0.0)):
        c.signals = dict(vector=vector, keyword=keyword, path=0.0, proximity=0.0, section=0.0)
    weights = score_learned([best, by_words, by_meaning], query="q", section_weight=0.0,
                            model=model)  # fmt: skip
    # keyword counts 3.0 / 0.5 = 6 units against vector's 1.
    assert best.hybrid_score == pytest.approx(1.0)
    assert by_words.hybrid_score == pytest.approx(6 / 7)
    assert by_meaning.hybrid_score == pytest.approx(1 / 7)
    assert weights["keyword"] == pytest.approx(6 / 7) and weights["path"] == 0.0


def test_the_shipped_model_is_complete_and_never_counts_evidence_against() -> None:
    model = load_model()
    assert set(model["weights"]) == set(FEATURES)
    assert min(model["weights"].values()) >= 0.0
    assert model["trained_on"]["questions"] > 0


def test_a_keyword_boost_asks_for_the_weighted_fusion() -> None:
    assert SearchParams.build("q", keyword_boost=0.8).fusion == "weighted"
    assert SearchParams.build("q", keyword_boost=0.8, fusion="learned").fusion == "learned"
    assert SearchParams.build("q").fusion == "learned"


def test_a_broken_model_file_is_refused_with_its_path(tmp_path: Path) -> None:
    bad = tmp_path / "ranker.json"
    bad.write_text(json.dumps({"weights": {"colour": 1.0}}))
    with pytest.raises(RankerModelError, match="unknown features"):
        load_model(bad)
    with pytest.raises(RankerModelError, match=r"missing\.json"):
        load_model(tmp_path / "missing.json")


QUESTIONS = [
    ("How is overtime paid?", "overtime.md"),
    ("Who built the deployment pipeline?", "james_smith.html"),
    ("What does Alexis enjoy?", "alexis_torres.md"),
    ("When are slings inspected?", "crew_handbook.md"),
    ("Where did Sarah Chen study?", "sarah_chen.txt"),
    ("Who must approve overtime in advance?", "overtime.md"),
    ("What cloud platform did Alexis Torres migrate to?", "alexis_torres.md"),
    ("When is the crane log signed?", "crew_handbook.md"),
    ("Which languages does James Smith program in?", "james_smith.html"),
    ("What is the wind speed limit for a lift?", "crew_handbook.md"),
]


def test_train_ranker_fits_on_the_development_half_only(
    search_corpus: SearchCorpus, tmp_path: Path
) -> None:
    from core.splits import split_of

    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        "".join(json.dumps({"question": q, "relevant_documents": [f]}) + "\n" for q, f in QUESTIONS)
    )
    out, model = StringIO(), tmp_path / "model.json"
    spec = f"{questions}:{search_corpus.team.name}"
    call_command("train_ranker", spec, "--out", str(model), stdout=out)
    fitted = json.loads(model.read_text())
    dev = sum(split_of(q) == "dev" for q, _ in QUESTIONS)
    assert 0 < dev < len(QUESTIONS)
    assert fitted["trained_on"]["questions"] == dev
    assert set(fitted["weights"]) == set(FEATURES)
    assert min(fitted["weights"].values()) >= 0.0 and max(fitted["weights"].values()) > 0.0
    text = out.getvalue()
    assert f"{spec} dev ({dev}):" in text
    assert f"{spec} held-out ({len(QUESTIONS) - dev}):" in text
    with pytest.raises(CommandError, match="no collection named 'nope'"):
        call_command("train_ranker", f"{questions}:nope", "--out", str(model))


def test_the_seeds_worth_expanding_are_chosen_in_the_order_of_the_fusion_asked_for() -> None:
    from retrieval.search.graph_stage import _preliminary

    question = "What does the crew handbook say about lifting?"

    def seeds() -> list[Candidate]:
        by_meaning = Candidate("a", vector_similarity=0.9, vector_rank=1,
                               row={"document_id": "a", "file_name": "overtime.md"})  # fmt: skip
        named = Candidate(
            "b", vector_similarity=0.5, vector_rank=2, keyword_score=0.5, keyword_bm25=5.0,
            keyword_rank=1, row={"document_id": "b", "file_name": "crew_handbook.md"},
        )  # fmt: skip
        return [by_meaning, named]

    weighted, _ = _preliminary(seeds(), SearchParams.build(question, fusion="weighted"))
    learned, strengths = _preliminary(seeds(), SearchParams.build(question))
    assert [c.chunk_id for c in weighted] == ["a", "b"]
    # The handbook is a first keyword hit whose title the question names.
    assert [c.chunk_id for c in learned] == ["b", "a"]
    assert strengths["a"] == 1.0  # a path's worth stays the seed's relevance


def test_a_model_of_ones_own_replaces_the_shipped_weights(
    search_corpus: SearchCorpus, tmp_path: Path, settings: Any
) -> None:
    own = tmp_path / "by-words.json"
    own.write_text(json.dumps({"weights": {"keyword": 1.0}, "trained_on": {"questions": 1}}))
    settings.RETRIEVAL_RANKER_MODEL = str(own)
    outcome = _search(search_corpus, "sling inspected before a lift", top_k=20)
    assert outcome.weights["keyword"] == pytest.approx(1.0)
    scores = [(c.signals["keyword"], c.hybrid_score) for c in outcome.candidates]
    assert all(score == pytest.approx(keyword) for keyword, score in scores)
    assert [k for k, _ in scores] == sorted((k for k, _ in scores), reverse=True)


def test_a_ranker_model_that_cannot_be_read_stops_the_start(tmp_path: Path, settings: Any) -> None:
    from django.core.checks import run_checks

    assert not [m for m in run_checks() if m.id and m.id.startswith("retrieval.")]
    settings.RETRIEVAL_RANKER_MODEL = str(tmp_path / "absent.json")
    assert [m.id for m in run_checks() if m.id and m.id.startswith("retrieval.")] == [
        "retrieval.E002"
    ]
    settings.RETRIEVAL_FUSION = "magic"
    assert "retrieval.E001" in [m.id for m in run_checks()]
