"""Third-party multi-hop sets (MuSiQue, HotpotQA in the HippoRAG release): each passage
becomes one plain-text document named by its title, each question a JSONL line."""

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATASETS = ("musique", "hotpotqa")
_UNSAFE = re.compile(r"[^\w .,'()&+-]+")


class DatasetError(ValueError):
    pass


@dataclass(frozen=True)
class Passage:
    path: str  # unique within the collection
    file_name: str
    text: str


def file_name(title: str) -> str:
    """The document name of a passage: its title, made safe for a file name."""
    return (_UNSAFE.sub("_", title).strip(" ._") or "untitled")[:200] + ".txt"


def _read(path: Path) -> Any:
    if not path.is_file():
        raise DatasetError(f"missing: {path}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}: not JSON ({exc.msg})") from exc


def _question_items(dataset: str, folder: Path, limit: int | None) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = _read(folder / f"{dataset}_train.json")
    return items[:limit] if limit else items


def _wanted(dataset: str, items: list[dict[str, Any]]) -> set[str]:
    """Titles of the passages these questions come with (their evidence and distractors)."""
    if dataset == "musique":
        return {str(p["title"]) for item in items for p in item["paragraphs"]}
    return {str(title) for item in items for title, _ in item["context"]}


def passages(
    dataset: str,
    folder: Path,
    *,
    questions: int | None = None,
    withheld: frozenset[str] = frozenset(),
) -> Iterator[Passage]:
    """The corpus, or with `questions` only the passages of the first that many questions
    (numbered as in the whole corpus, so a later full load skips them), less the passages
    titled in `withheld`."""
    wanted = _wanted(dataset, _question_items(dataset, folder, questions)) if questions else None
    corpus = _read(folder / f"{dataset}_train_corpus.json")
    if isinstance(corpus, dict):  # HotpotQA: title -> sentences
        items = [(str(t), "".join(s) if isinstance(s, list) else str(s)) for t, s in corpus.items()]
    else:  # MuSiQue: [{"title", "text"}]; one title may have several passages
        items = [(str(p["title"]), str(p["text"])) for p in corpus]
    for number, (title, text) in enumerate(items):
        if (wanted is not None and title not in wanted) or title in withheld:
            continue
        name = file_name(title)
        # A folder per passage keeps paths unique while the file keeps the title.
        yield Passage(f"{number:05d}/{name}", name, f"{title}\n\n{text.strip()}\n")


def _supporting(dataset: str, item: dict[str, Any]) -> list[str]:
    """Titles of the passages that answer `item`, in hop order."""
    if dataset == "musique":
        paragraphs = item["paragraphs"]
        return [
            paragraphs[step["paragraph_support_idx"]]["title"]
            for step in item["question_decomposition"]
        ]
    return list(dict.fromkeys(title for title, _ in item["supporting_facts"]))


def _question_row(dataset: str, item: dict[str, Any]) -> dict[str, Any]:
    if dataset == "musique":
        kind = str(item["id"]).split("__")[0]
        answers = [item["answer"], *item.get("answer_aliases", [])]
    else:
        kind = str(item.get("type", ""))
        answers = [item["answer"]]
    hops = list(dict.fromkeys(file_name(t) for t in _supporting(dataset, item)))
    return {
        "question": item["question"],
        "relevant_documents": hops,
        "answers": answers,
        "type": kind,
        "hops": hops,
    }


def questions(dataset: str, folder: Path, *, limit: int | None = None) -> list[dict[str, Any]]:
    """Questions in the eval_retrieval format, supporting passages in hop order."""
    return [_question_row(dataset, item) for item in _question_items(dataset, folder, limit)]


@dataclass(frozen=True)
class HoldOut:
    """Questions split into those whose supporting passages are ingested (`kept`) and those
    whose supporting passages are withheld (`held_out`), so the documents no longer answer
    them. A passage a kept question needs is never withheld; a held-out question that needs
    one of those is in `mixed` and in neither list, answerable in part."""

    kept: list[dict[str, Any]]  # eval_retrieval rows
    held_out: list[dict[str, Any]]
    mixed: list[dict[str, Any]]
    withheld: frozenset[str]  # titles not ingested


def hold_out(dataset: str, folder: Path, *, every: int | None, limit: int | None = None) -> HoldOut:
    """Every `every`-th question held out (the `every`-th, twice that, ...); none without."""
    items = _question_items(dataset, folder, limit)
    gold = [set(_supporting(dataset, item)) for item in items]
    chosen = {n for n in range(len(items)) if every and (n + 1) % every == 0}
    needed = set().union(*(titles for n, titles in enumerate(gold) if n not in chosen))
    split: dict[str, list[dict[str, Any]]] = {"kept": [], "held_out": [], "mixed": []}
    for n, item in enumerate(items):
        kind = "kept" if n not in chosen else "mixed" if gold[n] & needed else "held_out"
        split[kind].append(_question_row(dataset, item))
    withheld = set().union(*(gold[n] for n in chosen)) - needed
    return HoldOut(**split, withheld=frozenset(withheld))


def answer_questions(dataset: str, held: HoldOut) -> list[dict[str, Any]]:
    """The questions in the eval_answers format: kept ones answered from their first
    supporting passage, held-out ones not answerable from the documents."""
    kept = [
        {
            "question": row["question"],
            "expect": "answer",
            "gold_file": row["hops"][0],
            "source": "documents",
            "note": f"{dataset} {row['type']}".strip(),
        }
        for row in held.kept
    ]
    withheld = [
        {
            "question": row["question"],
            "expect": "no_answer",
            "source": "none",
            "note": f"{dataset}: supporting passages not ingested ({', '.join(row['hops'])})",
        }
        for row in held.held_out
    ]
    return kept + withheld
