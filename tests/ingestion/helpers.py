from pathlib import Path
from typing import Any

from core.providers import graph
from ingestion.jobs import Source, create_job, run_in_process
from ingestion.models import Collection, IngestionJob


def source(path: str, data: bytes, origin_dir: str = "") -> Source:
    return Source(path=path, read=lambda: data, size=len(data), origin_dir=origin_dir)


def ingest(
    collection: Collection, files: dict[str, bytes], user: Any = None, origin: Path | None = None
) -> IngestionJob:
    job = create_job(
        collection=collection,
        sources=[source(p, d, str(origin) if origin else "") for p, d in files.items()],
        user=user,
    )
    run_in_process(job)
    job.refresh_from_db()
    return job


def count(query: Any, **params: Any) -> int:
    return int(graph.run_read(query, **params)[0]["n"])
