"""Every question of every shared Spider train database meets an answer, a decline or a
failure with its reason: none raises. Databases and phrasings nobody tuned for are where
an unexpected shape turns into an internal error."""

import csv
import os
import re
from collections import defaultdict
from typing import Any

import pytest

from core.databases.scope import Scope
from registries.datasets import load_spider_db
from sqlagent.agent import ask
from sqlagent.third_party import source_for_url

from .agent_fixtures import no_llm

__all__ = ["no_llm"]

PREFIX = re.sub(r"\W", "_", os.environ.get("TEST_DATABASE_NAME") or "test_spider")[:40]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_llm")]


@pytest.mark.timeout(1800)  # 6,726 questions on 137 databases
def test_no_question_of_any_database_raises(settings: Any) -> None:
    settings.SQL_STATEMENT_TIMEOUT_MS = 3000  # a slow read is a failure with its reason too
    folder = settings.DATASETS_DIR / "spider_train"
    if not (folder / "train_queries.csv").is_file():
        pytest.skip(f"the sample datasets are not at {settings.DATASETS_DIR}")
    questions: dict[str, list[str]] = defaultdict(list)
    with (folder / "train_queries.csv").open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            questions[row["database"]].append(row["question"])
    raised: list[str] = []
    statuses: dict[str, int] = defaultdict(int)
    for name, asked in sorted(questions.items()):
        target, _ = load_spider_db(
            name, "mysql://root@127.0.0.1:3306/", database=f"{PREFIX}_s_{name}"
        )
        source, _ = source_for_url(target.url)
        for question in asked:
            try:
                answer = ask(question, source=source, scope=Scope())
            except Exception as error:
                raised.append(f"{name}: {question}: {type(error).__name__}: {error}")
                continue
            statuses[answer.status] += 1
            assert answer.status in ("answered", "empty") or answer.reason, question
    assert not raised, "\n".join(raised[:20])
    assert sum(statuses.values()) == sum(len(q) for q in questions.values())
