"""Ranking metrics, question files and the eval_retrieval command."""

import json
import math
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from retrieval.evaluation.metrics import distinct, ndcg_at, recall_at, reciprocal_rank
from retrieval.evaluation.runner import QuestionFileError, load_questions

from .conftest import SearchCorpus


def test_metrics_by_hand() -> None:
    ranked = ["a", "x", "b", "y", "z", "c"]
    relevant = {"a", "b", "c"}
    assert recall_at(ranked, relevant, 5) == pytest.approx(2 / 3)
    assert recall_at(ranked, relevant, 10) == 1.0
    assert reciprocal_rank(ranked, relevant) == 1.0
    assert reciprocal_rank(["x", "y", "b"], relevant) == pytest.approx(1 / 3)
    assert reciprocal_rank(["x"], relevant) == 0.0
    dcg = 1 + 1 / math.log2(4) + 1 / math.log2(7)
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at(ranked, relevant, 10) == pytest.approx(dcg / ideal)
    assert ndcg_at(["a", "b", "c"], relevant, 10) == pytest.approx(1.0)
    assert ndcg_at(["x", "a"], {"a"}, 1) == 0.0
    assert distinct(["a", "a", "b", "a", "c"]) == ["a", "b", "c"]


def test_question_files_are_checked_line_by_line(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(
        '{"question": "Q1?", "relevant_documents": ["a.pdf"], "answers": ["x"]}\n\n'
        '{"question": "Q2?", "relevant_documents": ["b.md", "c.md"], "type": "multi_hop"}\n'
    )
    questions = load_questions(good)
    assert [q.question for q in questions] == ["Q1?", "Q2?"]
    assert questions[1].relevant_documents == ("b.md", "c.md") and questions[1].type == "multi_hop"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "Q1?", "relevant_documents": ["a.pdf"]}\n{"question": "Q2?"}\n')
    with pytest.raises(QuestionFileError, match=r"bad.jsonl:2: 'relevant_documents'"):
        load_questions(bad)
    bad.write_text("not json\n")
    with pytest.raises(QuestionFileError, match=r"bad.jsonl:1: not JSON"):
        load_questions(bad)


@pytest.mark.django_db
def test_command_reports_every_configuration(search_corpus: SearchCorpus, tmp_path: Path) -> None:
    questions = tmp_path / "questions.jsonl"
    rows = [
        {"question": "How is overtime paid?", "relevant_documents": ["overtime.md"]},
        {
            "question": "Who built the deployment pipeline?",
            "relevant_documents": ["james_smith.html"],
        },
        {"question": "What does Alexis enjoy?", "relevant_documents": ["alexis_torres.md"]},
        {"question": "When are slings inspected?", "relevant_documents": ["crew_handbook.md"]},
    ]
    questions.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = StringIO()
    report = tmp_path / "report.json"
    call_command(
        "eval_retrieval",
        str(questions),
        "--collection",
        search_corpus.team.name,
        "--json",
        str(report),
        stdout=out,
    )
    text = out.getvalue()
    for name in ("keyword", "vector", "hybrid", "hybrid+graph", "hybrid+graph+routing"):
        assert f"\n{name} " in text
    data = json.loads(report.read_text())
    assert data["questions"] == 4
    by_name = {c["name"]: c for c in data["configs"]}
    assert set(by_name) == {"keyword", "vector", "hybrid", "hybrid+graph", "hybrid+graph+routing"}
    for config in by_name.values():
        assert 0.0 <= config["ndcg@10"] <= 1.0 and len(config["per_question"]) == 4
        # The vault is another collection: never ranked.
        assert all("board_memo.md" not in q["ranked"] for q in config["per_question"])
    assert by_name["hybrid+graph"]["recall@10"] == 1.0


@pytest.mark.django_db
def test_command_refuses_bad_input(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"(?i)no such file"):
        call_command("eval_retrieval", str(tmp_path / "missing.jsonl"))
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"question": "Q?", "relevant_documents": ["a.md"]}\n')
    with pytest.raises(CommandError, match="no collection named 'nope'"):
        call_command("eval_retrieval", str(questions), "--collection", "nope")
    with pytest.raises(CommandError, match="unknown configurations"):
        call_command("eval_retrieval", str(questions), "--configs", "magic")
