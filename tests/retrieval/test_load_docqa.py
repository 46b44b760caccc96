"""load_docqa on a tiny synthetic set: the questions it writes, and with --hold-out-every the
supporting passages it withholds and the eval_answers set it writes."""

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from ingestion.documents import delete_document
from ingestion.models import Collection, Document
from retrieval.evaluation.docqa import answer_questions, hold_out, passages

if not settings.INGESTION_GRAPH_NAMESPACE:
    settings.INGESTION_GRAPH_NAMESPACE = f"test-docqa-{uuid.uuid4().hex[:8]}:"


def hotpot_item(question: str, gold: tuple[str, str], distractor: str) -> dict[str, Any]:
    titles = [*gold, distractor]
    return {
        "question": question,
        "answer": "yes",
        "type": "bridge",
        "supporting_facts": [[gold[0], 0], [gold[1], 0]],
        "context": [[t, [f"{t} is a passage."]] for t in titles],
    }


@pytest.fixture
def hotpot(tmp_path: Path) -> Path:
    """Four questions: the second and fourth are held out with K=2, and the fourth needs
    Alpha, which the first (kept) needs too. Charlie is the third question's distractor."""
    items = [
        hotpot_item("Q1 about Alpha and Bravo?", ("Alpha", "Bravo"), "Xray"),
        hotpot_item("Q2 about Charlie and Delta?", ("Charlie", "Delta"), "Yankee"),
        hotpot_item("Q3 about Echo and Foxtrot?", ("Foxtrot", "Echo"), "Charlie"),
        hotpot_item("Q4 about Alpha and Golf?", ("Alpha", "Golf"), "Zulu"),
    ]
    titles = dict.fromkeys(t for item in items for t, _ in item["context"])
    corpus = {t: [f"{t} is a passage."] for t in [*titles, "Hotel"]}  # Hotel: no question's
    (tmp_path / "hotpotqa_train.json").write_text(json.dumps(items))
    (tmp_path / "hotpotqa_train_corpus.json").write_text(json.dumps(corpus))
    return tmp_path


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@dataclass
class Loaded:
    questions: list[dict[str, Any]]  # for eval_retrieval
    answers: list[dict[str, Any]]  # for eval_answers
    log: str


def load(folder: Path, *options: str) -> Loaded:
    questions, answers, log = folder / "out" / "q.jsonl", folder / "out" / "a.jsonl", StringIO()
    call_command(
        "load_docqa", "hotpotqa", "--path", str(folder), "--questions", str(questions),
        "--answers-out", str(answers), *options, stdout=log,
    )  # fmt: skip
    return Loaded(read_jsonl(questions), read_jsonl(answers), log.getvalue())


def test_without_hold_out_every_question_is_kept(hotpot: Path) -> None:
    loaded = load(hotpot, "--skip-ingest")
    assert [q["question"][:2] for q in loaded.questions] == ["Q1", "Q2", "Q3", "Q4"]
    assert loaded.questions[2]["hops"] == ["Foxtrot.txt", "Echo.txt"]
    assert {a["expect"] for a in loaded.answers} == {"answer"}
    held = hold_out("hotpotqa", hotpot, every=None)
    assert not held.withheld and not held.held_out
    assert len(list(passages("hotpotqa", hotpot, withheld=held.withheld))) == 11


def test_every_kth_question_is_held_out_with_its_supporting_passages(hotpot: Path) -> None:
    loaded = load(hotpot, "--skip-ingest", "--hold-out-every", "2")

    assert [q["question"][:2] for q in loaded.questions] == ["Q1", "Q3"]  # kept only
    assert loaded.answers == [
        {"question": "Q1 about Alpha and Bravo?", "expect": "answer", "gold_file": "Alpha.txt",
         "source": "documents", "note": "hotpotqa bridge"},
        {"question": "Q3 about Echo and Foxtrot?", "expect": "answer", "gold_file": "Foxtrot.txt",
         "source": "documents", "note": "hotpotqa bridge"},
        {"question": "Q2 about Charlie and Delta?", "expect": "no_answer", "source": "none",
         "note": "hotpotqa: supporting passages not ingested (Charlie.txt, Delta.txt)"},
    ]  # fmt: skip
    held = hold_out("hotpotqa", hotpot, every=2)
    # Q4 needs Alpha, which Q1 keeps: answerable in part, so in neither file.
    assert [q["question"][:2] for q in held.mixed] == ["Q4"]
    assert held.withheld == {"Charlie", "Delta", "Golf"}  # Charlie too, though Q3 shows it
    ingested = {
        p.file_name for p in passages("hotpotqa", hotpot, questions=4, withheld=held.withheld)
    }
    assert ingested == {f"{t}.txt" for t in ("Alpha", "Bravo", "Xray", "Yankee", "Echo",
                                              "Foxtrot", "Zulu")}  # fmt: skip
    assert "held out: 1 of 4 questions, their 3 supporting passages withheld" in loaded.log


def test_the_gold_file_is_the_first_hop_of_a_musique_question(tmp_path: Path) -> None:
    item = {
        "id": "2hop__1_2",
        "question": "Where was the author of Book born?",
        "answer": "Town",
        "answer_aliases": [],
        "paragraphs": [
            {"idx": 0, "title": "Author", "paragraph_text": "Author was born in Town.",
             "is_supporting": True},
            {"idx": 1, "title": "Book", "paragraph_text": "Book was written by Author.",
             "is_supporting": True},
        ],
        "question_decomposition": [{"paragraph_support_idx": 1}, {"paragraph_support_idx": 0}],
    }  # fmt: skip
    second = {**item, "id": "2hop__3_4", "question": "Who else?", "paragraphs": [
        {"idx": 0, "title": "Other", "paragraph_text": "Other.", "is_supporting": True}],
        "question_decomposition": [{"paragraph_support_idx": 0}]}  # fmt: skip
    (tmp_path / "musique_train.json").write_text(json.dumps([item, second]))
    held = hold_out("musique", tmp_path, every=2)
    kept, withheld = answer_questions("musique", held)
    assert kept["gold_file"] == "Book.txt" and kept["note"] == "musique 2hop"
    assert withheld["expect"] == "no_answer" and held.withheld == {"Other"}


def test_an_unknown_hold_out_step_is_refused(hotpot: Path) -> None:
    with pytest.raises(CommandError, match="--hold-out-every must be 1 or more"):
        load(hotpot, "--skip-ingest", "--hold-out-every", "0")


@pytest.mark.django_db
def test_passages_to_withhold_already_in_the_collection_are_refused(hotpot: Path) -> None:
    collection = Collection.objects.create(name=f"docqa-{uuid.uuid4().hex[:6]}")
    Document.objects.create(
        collection=collection, file_name="Delta.txt", file_path="00003/Delta.txt",
        content_hash="x", format="txt",
    )  # fmt: skip
    with pytest.raises(CommandError, match="1 of the passages to withhold are already in"):
        load(hotpot, "--collection", collection.name, "--hold-out-every", "2")
    assert collection.documents.count() == 1  # nothing ingested


@pytest.fixture
def docqa_collection() -> Iterator[str]:
    """A new collection's name; its documents are deleted afterwards, graph included."""
    name = f"docqa-{uuid.uuid4().hex[:6]}"
    yield name
    for document in Document.objects.filter(collection__name=name):
        delete_document(document)


@pytest.mark.django_db
def test_the_kept_passages_are_ingested_for_the_reader(hotpot: Path, docqa_collection: str) -> None:
    reader = get_user_model().objects.create_user(f"docqa-{uuid.uuid4().hex[:6]}")
    load(hotpot, "--first", "2", "--hold-out-every", "2", "--collection", docqa_collection,
         "--reader", reader.username)  # fmt: skip
    collection = Collection.objects.readable_by(reader).get(name=docqa_collection)
    names = set(collection.documents.values_list("file_name", flat=True))
    assert names == {"Alpha.txt", "Bravo.txt", "Xray.txt", "Yankee.txt"}
