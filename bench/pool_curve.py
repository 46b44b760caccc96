"""How much of the gold each first-stage search holds as its pool grows.

    python bench/pool_curve.py var/eval/hotpotqa.jsonl --collection hotpotqa [--split dev]

For the keyword (BM25) and the vector stage alone, and for their union, prints over the
question set the share of relevant documents with a chunk among the first N hits, and the
share of questions with all of them (both@N), for N from 10 to 300: what a larger pool
could still give the re-ranking and the graph stage, and where it stops giving.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from core.providers.embeddings import embed_texts  # noqa: E402
from core.splits import SPLITS, in_split  # noqa: E402
from ingestion.models import Chunk, Collection  # noqa: E402
from retrieval.evaluation.runner import load_questions  # noqa: E402
from retrieval.search.keyword_search import keyword_search  # noqa: E402
from retrieval.search.query_terms import search_terms  # noqa: E402
from retrieval.search.scope import Scope  # noqa: E402
from retrieval.search.vector_search import vector_search  # noqa: E402

SIZES = (10, 20, 40, 60, 100, 150, 200, 300)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--split", choices=SPLITS, default="all")
    args = parser.parse_args()

    collection = Collection.objects.get(name=args.collection)
    scope = Scope((collection.pk,), ())
    names = {
        str(pk): name
        for pk, name in Chunk.objects.filter(collection=collection).values_list(
            "pk", "document__file_name"
        )
    }
    questions = [q for q in load_questions(args.file) if in_split(q.question, args.split)]
    deepest = max(SIZES)
    pools: dict[str, list[tuple[list[str], set[str]]]] = {"keyword": [], "vector": []}
    for q in questions:
        gold = set(q.relevant_documents)
        keyword = keyword_search(search_terms(q.question), scope, limit=deepest)
        vector = vector_search(
            embed_texts([q.question])[0], scope, limit=deepest, threshold=0.0, keep=deepest
        )
        pools["keyword"].append(([names[h.chunk_id] for h in keyword], gold))
        pools["vector"].append(([names[h.chunk_id] for h in vector], gold))

    print(f"{len(questions)} questions ({args.split}), {len(names)} chunks")
    print("pool".ljust(8) + "".join(f"{n:>13}" for n in SIZES))
    for stage in ("keyword", "vector", "union"):
        recall, complete = [], []
        for n in SIZES:
            found_share, all_found = 0.0, 0
            for i, (_, gold) in enumerate(pools["keyword"]):
                if stage == "union":
                    held = set(pools["keyword"][i][0][:n]) | set(pools["vector"][i][0][:n])
                else:
                    held = set(pools[stage][i][0][:n])
                found_share += len(gold & held) / len(gold)
                all_found += gold <= held
            recall.append(found_share / len(questions))
            complete.append(all_found / len(questions))
        print(
            stage.ljust(8)
            + "".join(f"{r:6.3f}/{c:6.3f}" for r, c in zip(recall, complete, strict=True))
        )
    print("(each cell: recall / both@N)")


if __name__ == "__main__":
    main()
