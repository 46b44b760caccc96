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


def passages(dataset: str, folder: Path, *, questions: int | None = None) -> Iterator[Passage]:
    """The corpus, or with `questions` only the passages of the first that many questions
    (numbered as in the whole corpus, so a later full load skips them)."""
    wanted = _wanted(dataset, _question_items(dataset, folder, questions)) if questions else None
    corpus = _read(folder / f"{dataset}_train_corpus.json")
    if isinstance(corpus, dict):  # HotpotQA: title -> sentences
        items = [(str(t), "".join(s) if isinstance(s, list) else str(s)) for t, s in corpus.items()]
    else:  # MuSiQue: [{"title", "text"}]; one title may have several passages
        items = [(str(p["title"]), str(p["text"])) for p in corpus]
    for number, (title, text) in enumerate(items):
        if wanted is not None and title not in wanted:
            continue
        name = file_name(title)
        # A folder per passage keeps paths unique while the file keeps the title.
        yield Passage(f"{number:05d}/{name}", name, f"{title}\n\n{text.strip()}\n")


def questions(dataset: str, folder: Path, *, limit: int | None = None) -> list[dict[str, Any]]:
    """Questions in the eval_retrieval format, supporting passages in hop order."""
    rows = []
    for item in _question_items(dataset, folder, limit):
        if dataset == "musique":
            paragraphs = item["paragraphs"]
            order = [
                paragraphs[step["paragraph_support_idx"]]["title"]
                for step in item["question_decomposition"]
            ]
            kind = str(item["id"]).split("__")[0]
            answers = [item["answer"], *item.get("answer_aliases", [])]
        else:
            order = list(dict.fromkeys(title for title, _ in item["supporting_facts"]))
            kind = str(item.get("type", ""))
            answers = [item["answer"]]
        hops = list(dict.fromkeys(file_name(t) for t in order))
        rows.append(
            {
                "question": item["question"],
                "relevant_documents": hops,
                "answers": answers,
                "type": kind,
                "hops": hops,
            }
        )
    return rows
