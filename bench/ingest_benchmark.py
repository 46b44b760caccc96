"""Ingest a folder end to end (the demo corpus by default) and print the figures.

    python bench/ingest_benchmark.py [PATH] [--keep]

Runs in this process, the way `manage.py ingest --in-process` does, into a fresh collection
that is then deleted by a deletion job, timed too (unless --keep). Prints documents per
minute, chunks per second end to end and for the embedding stage alone, seconds per stage
and each stage's share of the run, the deletion's pace, and peak memory. Model loading is
timed apart, as a worker pays it once.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from core.providers.embeddings import embed_texts  # noqa: E402
from ingestion.deletion import create_deletion_job  # noqa: E402
from ingestion.entities import ChunkInput, extract_entities  # noqa: E402
from ingestion.jobs import create_job, run_in_process, sources_from_paths  # noqa: E402
from ingestion.models import Collection, ItemStatus  # noqa: E402


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path", nargs="?", default="demo/corpus", type=Path)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    started = time.perf_counter()
    embed_texts(["warm up"])
    extract_entities(title="Warm Up", chunks=[ChunkInput(0, "Alexis Torres uses Python.")])
    load_seconds = time.perf_counter() - started

    collection = Collection.objects.create(name=f"benchmark-{int(time.time())}")
    started = time.perf_counter()
    job = create_job(collection=collection, sources=sources_from_paths([args.path]))
    staging = time.perf_counter() - started
    run_in_process(job)
    total = time.perf_counter() - started
    job.refresh_from_db()

    stages: dict[str, float] = {}
    for timings in job.items.values_list("timings", flat=True):
        for stage, seconds in (timings or {}).items():
            stages[stage] = stages.get(stage, 0.0) + seconds
    counts = job.counts()
    done = counts["done"]
    chunks = counts["chunks"]
    print(f"corpus: {args.path} ({job.total} files, {done} ingested, {counts['failed']} failed)")
    print(f"model loading (once per worker): {load_seconds:.1f} s")
    print(f"end to end: {total:.1f} s; {done / total * 60:.1f} documents/min; "
          f"{chunks / total:.1f} chunks/s ({chunks} chunks)")  # fmt: skip
    if stages.get("embedding"):
        print(f"embedding alone: {chunks / stages['embedding']:.1f} chunks/s "
              "(chunk texts and section names, batched)")  # fmt: skip
    per_stage = ", ".join(f"{k} {v:.1f} s" for k, v in sorted(stages.items()) if k != "total")
    print(f"per stage (summed over files): {per_stage}")
    final = total - staging - stages.get("total", 0.0)
    print(f"final step (similarity edges, section types): "
          f"{final:.1f} s, {counts['similarity_edges']} edges, "
          f"{counts['section_types']} section types")  # fmt: skip
    shares = {"staging": staging, **stages, "final step": final}
    shares.pop("total", None)
    print("share of the run: " + ", ".join(
        f"{k} {v / total:.0%}" for k, v in sorted(shares.items(), key=lambda kv: -kv[1])
    ))  # fmt: skip
    print(
        f"graph: {counts['edges']} relationships; "
        f"{counts['entities']} entities (per document, summed)"
    )
    print(f"peak memory (RSS): {peak_mib():.0f} MiB")
    for item in job.items.filter(status=ItemStatus.FAILED):
        print(f"  failed: {item.file_path}: {item.error}")
    if not args.keep:
        started = time.perf_counter()
        deletion = create_deletion_job(collection=collection, documents=collection.documents.all())
        run_in_process(deletion)
        seconds = time.perf_counter() - started
        left = collection.documents.count()
        print(f"deleting: {seconds:.1f} s; {deletion.total / seconds * 60:.1f} documents/min; "
              f"{chunks / seconds:.1f} chunks/s ({left} documents left)")  # fmt: skip
        collection.delete()


if __name__ == "__main__":
    main()
