"""The keyword stage against a BM25 library on the same passages.

    python bench/keyword_options.py var/eval/hotpotqa.jsonl --collection hotpotqa [--split dev]
        [--k1 1.2] [--b 0.75]

Ranks each question's documents three ways and prints recall@10, both@10 (every relevant
document in the top 10), MRR, nDCG@10 and the time per question:
- `postgres-bm25`: the product's keyword stage (retrieval.search.keyword_search), BM25 from
  the postings the database keeps, every word of the question, as the search runs it;
- `postgres-bm25(keywords)`: the same scoring given only the question's keywords
  (query_keywords: no numbers, no question words, at most 12), the terms it used before;
- `bm25s`: the bm25s library (Lucene's BM25, PyStemmer's English stemmer, its English stop
  words) over the same chunks' header path and text, in memory, same k1 and b.
bm25s and PyStemmer are only needed here (pip install bm25s PyStemmer).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

import bm25s  # noqa: E402
import Stemmer  # noqa: E402

from core.splits import SPLITS, in_split  # noqa: E402
from ingestion.models import Chunk, Collection  # noqa: E402
from retrieval.evaluation.metrics import distinct, score_question  # noqa: E402
from retrieval.evaluation.runner import DEPTH, keyword_only, load_questions  # noqa: E402
from retrieval.evaluation.runner import _file_names as _names  # noqa: E402
from retrieval.search.keyword_search import keyword_search  # noqa: E402
from retrieval.search.query_terms import query_keywords  # noqa: E402
from retrieval.search.scope import Scope  # noqa: E402

METRICS = ("recall@10", "both@10", "mrr", "ndcg@10")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--split", choices=SPLITS, default="all")
    parser.add_argument("--k1", type=float, default=1.2)
    parser.add_argument("--b", type=float, default=0.75)
    args = parser.parse_args()

    collection = Collection.objects.get(name=args.collection)
    questions = [q for q in load_questions(args.file) if in_split(q.question, args.split)]
    chunks = list(
        Chunk.objects.filter(collection=collection)
        .order_by("document_id", "index")
        .values_list("header_path", "text", "document__file_name")
    )
    names = [name for _, _, name in chunks]
    stemmer = Stemmer.Stemmer("english")
    started = time.perf_counter()
    corpus = bm25s.tokenize(
        [f"{path}\n{text}" for path, text, _ in chunks], stopwords="en", stemmer=stemmer,
        show_progress=False,
    )  # fmt: skip
    index = bm25s.BM25(k1=args.k1, b=args.b)
    index.index(corpus, show_progress=False)
    print(
        f"{len(questions)} questions ({args.split}), {len(chunks)} chunks; "
        f"bm25s indexed in {time.perf_counter() - started:.2f} s"
    )

    def library(query: str) -> list[str]:
        tokens = bm25s.tokenize(query, stopwords="en", stemmer=stemmer, show_progress=False)
        if not tokens.vocab:
            return []
        found, _ = index.retrieve(tokens, k=min(DEPTH, len(chunks)), show_progress=False)
        return distinct([names[i] for i in found[0]])

    scope = Scope((collection.pk,), ())
    rankers = {
        "postgres-bm25": lambda q: keyword_only(q, None, scope, None),
        "postgres-bm25(keywords)": lambda q: distinct(
            _names(
                scope, [h.chunk_id for h in keyword_search(query_keywords(q), scope, limit=DEPTH)]
            )
        ),
        "bm25s": library,
    }
    print(f"{'ranker':24}" + "".join(f"{m:>11}" for m in METRICS) + f"{'p50 ms':>9}")
    for name, rank in rankers.items():
        rows, times = [], []
        for q in questions:
            started = time.perf_counter()
            ranked = rank(q.question)
            times.append((time.perf_counter() - started) * 1000)
            rows.append(score_question(ranked, q.relevant_documents))
        means = {m: sum(r[m] for r in rows) / len(rows) for m in METRICS}
        print(
            f"{name:24}"
            + "".join(f"{means[m]:11.3f}" for m in METRICS)
            + f"{statistics.median(times):9.1f}"
        )


if __name__ == "__main__":
    main()
