"""Time finding the verified query a question rewords, as the pool of verified queries grows.

    python bench/verified_matching_benchmark.py [--sizes 10 100 1000 4000] [--questions N]

The pool is every verified query stored (import some first, e.g. the Spider pairs that
`spider_questions --verified` writes), cut to each size, matched against one data source's
schema and stored values; questions are other verified questions, reworded by dropping their
first word. Per size: the time to read the pool (parse every query, once per registry
version) and the matching time per question (the embedding cosine over the whole pool, then
literals and evidence for the dozen nearest). The question's own vector is embedded before
timing, as the agent embeds it while it plans.
Target: matching p95 under 50 ms at 1,000 verified queries.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from core.providers.embeddings import embed_texts  # noqa: E402
from registries.models import DataSource  # noqa: E402
from registries.semantic_layer_loader import load_semantic_layer  # noqa: E402
from sqlagent.linking.question import read_words  # noqa: E402
from sqlagent.linking.schema_words import schema_words  # noqa: E402
from sqlagent.linking.values import stored_values  # noqa: E402
from sqlagent.models import VerifiedQuery  # noqa: E402
from sqlagent.validation import parse_single_read  # noqa: E402
from sqlagent.verified.matching import matches  # noqa: E402
from sqlagent.verified.store import Known, Pool  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000, 4000])
    parser.add_argument("--questions", type=int, default=200)
    args = parser.parse_args()
    rows = list(VerifiedQuery.objects.filter(stale=False).exclude(embedding=[]))
    if not rows:
        sys.exit("no verified queries stored: import some first (manage.py import_verified)")
    random.seed(1)
    random.shuffle(rows)
    source = max(DataSource.objects.all(), key=lambda s: s.verified_queries.count())
    layer = load_semantic_layer(source.name)
    values = stored_values(layer, source.resolved_url(), agent=False)
    schema = schema_words(layer)
    print(f"{len(rows)} verified queries stored; schema and values of {source.name}")
    print(f"{'pool':>6} {'read ms':>8} {'match p50':>10} {'p95':>8} {'max':>8}")
    for size in args.sizes:
        chosen = rows[:size]
        started = time.perf_counter()
        pool = Pool(
            Known(
                r.pk,
                r.question,
                r.sql,
                parse_single_read(r.sql, r.data_source.dialect),
                read_words(r.question),
                tuple(r.embedding),
            )
            for r in chosen
        )
        _ = pool.unit_vectors
        read_ms = (time.perf_counter() - started) * 1000
        asked = [" ".join(r.question.split()[1:]) for r in chosen[: args.questions]]
        vectors = embed_texts(asked)
        timings = []
        for question, vector in zip(asked, vectors, strict=True):
            started = time.perf_counter()
            matches(question, vector, pool, schema=schema, values=values)
            timings.append((time.perf_counter() - started) * 1000)
        timings.sort()
        p95 = timings[min(len(timings) - 1, round(0.95 * (len(timings) - 1)))]
        print(
            f"{len(pool):>6} {read_ms:>8.0f} {statistics.median(timings):>10.1f} "
            f"{p95:>8.1f} {timings[-1]:>8.1f}"
        )


if __name__ == "__main__":
    main()
