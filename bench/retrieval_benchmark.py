"""Latency of graphrag_search over a collection of at least 10,000 chunks.

    python bench/retrieval_benchmark.py [--chunks 10000] [--queries 100] [--keep]

Builds the collection "bench-retrieval" straight through the ORM and the graph (real
embeddings of real text: the sentences of the MuSiQue and HotpotQA passages under
DATASETS_DIR/docqa, one sentence a chunk, one document per passage, NEXT_CHUNK/PREV_CHUNK
and SEMANTICALLY_SIMILAR edges as ingestion makes them; no entities), or reuses it when it
is already there (--keep leaves it). Then runs the datasets' questions through the full
search (expansion and a written trace included) and prints p50 and p95 per stage, with the
machine's load average before and after (the figures mean little without it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402

from core.providers import graph  # noqa: E402
from core.providers.embeddings import embed_texts  # noqa: E402
from ingestion.graph_writer import write_documents_graph  # noqa: E402
from ingestion.keywords import extract_keywords  # noqa: E402
from ingestion.models import Chunk, Collection, Document  # noqa: E402
from ingestion.similarity import link_similar_chunks  # noqa: E402
from retrieval.models import QueryTrace  # noqa: E402
from retrieval.search import graphrag_search  # noqa: E402

NAME = "bench-retrieval"
STAGES = ("keyword", "embedding", "vector", "graph", "title_bridge", "rerank", "total", "call")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'])")


def passages(folder: Path) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for name in ("musique", "hotpotqa"):
        corpus = json.loads((folder / f"{name}_train_corpus.json").read_text())
        if isinstance(corpus, dict):
            found += [(t, "".join(s)) for t, s in corpus.items()]
        else:
            found += [(p["title"], p["text"]) for p in corpus]
    return found


def questions(folder: Path) -> list[str]:
    asked = []
    for name in ("musique", "hotpotqa"):
        asked += [q["question"] for q in json.loads((folder / f"{name}_train.json").read_text())]
    return asked


def build(collection: Collection, folder: Path, target: int) -> int:
    """Documents and chunks of one sentence each until `target` chunks exist."""
    planned: list[tuple[str, list[str]]] = []
    total = 0
    for title, text in passages(folder):
        sentences = [s.strip() for s in _SENTENCE.split(text) if s.strip()]
        pieces = sentences
        planned.append((title, pieces))
        total += len(pieces)
        if total >= target:
            break
    if total < target:
        raise SystemExit(f"the corpora give {total} chunks, fewer than {target}")
    texts = [f"{title}\n{piece}" for title, pieces in planned for piece in pieces]
    started = time.perf_counter()
    vectors: list[list[float]] = []
    for start in range(0, len(texts), 256):
        vectors += embed_texts(texts[start : start + 256])
        print(f"  embedded {len(vectors)}/{len(texts)}", end="\r", flush=True)
    print(f"\nembedding {len(texts)} chunks: {time.perf_counter() - started:.0f} s")
    position = 0
    written: list[Document] = []
    for number, (title, pieces) in enumerate(planned):
        document = Document.objects.create(
            collection=collection,
            file_name=f"{title[:200]}.txt",
            file_path=f"{number:05d}/{title[:200]}.txt",
            directory_name=f"{number:05d}",
            content_hash=f"bench-{number}",
            graph_hash=f"bench-{number}",
            format="txt",
            title=title[:500],
            chunk_count=len(pieces),
        )
        Chunk.objects.bulk_create(
            Chunk(
                collection=collection,
                document=document,
                index=index,
                text=piece,
                token_count=len(piece.split()),
                header_text=title[:500],
                header_path=f"Level 1: {title}",
                header_level=1,
                keywords=extract_keywords(piece, header=title),
                embedding=vectors[position + index],
            )
            for index, piece in enumerate(pieces)
        )
        position += len(pieces)
        written.append(document)
        if len(written) == 200:
            write_documents_graph(written)
            written = []
        if number % 200 == 0:
            print(f"  written {number}/{len(planned)} documents", end="\r", flush=True)
    write_documents_graph(written)
    started = time.perf_counter()
    edges = link_similar_chunks(collection.documents.values_list("pk", flat=True))
    print(f"\nsimilarity edges: {edges} in {time.perf_counter() - started:.0f} s")
    return position


def remove(collection: Collection) -> None:
    graph.run_write(
        "MATCH (n) WHERE (n:Chunk OR n:Document) AND n.collection_id = $id DETACH DELETE n",
        id=collection.pk,
    )
    collection.delete()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--max-hops", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="leave the collection for next time")
    parser.add_argument("--data", type=Path, default=settings.DATASETS_DIR / "docqa")
    args = parser.parse_args()

    collection, _ = Collection.objects.get_or_create(name=NAME)
    count = collection.chunks.count()
    if count < args.chunks:
        if count:
            remove(collection)
            collection = Collection.objects.create(name=NAME)
        count = build(collection, args.data, args.chunks)
    print(f"collection {NAME!r}: {count} chunks, {collection.documents.count()} documents")

    user = get_user_model()(username="bench", is_superuser=True, is_active=True)
    asked = questions(args.data)[: args.queries]
    load_before = os.getloadavg()
    graphrag_search("warm up the model and the connections", user=user, collection=NAME)
    timings: dict[str, list[float]] = {stage: [] for stage in STAGES}
    written = []
    for question in asked:
        started = time.perf_counter()
        outcome = graphrag_search(question, user=user, collection=NAME, max_hops=args.max_hops)
        call = (time.perf_counter() - started) * 1000  # the trace's write included
        written.append(outcome.trace_id)
        for stage in STAGES:
            timings[stage].append(call if stage == "call" else outcome.timings.get(stage, 0.0))
    QueryTrace.objects.filter(pk__in=[pk for pk in written if pk]).delete()

    load_after = os.getloadavg()
    print(f"{len(asked)} questions, max_hops={args.max_hops}, a trace written per search")
    print(
        f"load average (1, 5, 15 min) before {' '.join(f'{v:.2f}' for v in load_before)}, "
        f"after {' '.join(f'{v:.2f}' for v in load_after)}; {os.cpu_count()} CPUs"
    )
    print(f"{'stage':<13}{'p50 ms':>9}{'p95 ms':>9}{'mean ms':>9}")
    for stage in STAGES:
        values = timings[stage]
        print(
            f"{stage:<13}{statistics.median(values):9.1f}{percentile(values, 0.95):9.1f}"
            f"{statistics.fmean(values):9.1f}"
        )
    if not args.keep:
        remove(collection)


if __name__ == "__main__":
    main()
