"""How `manage.py ingest` and `delete_documents` run a job and the line they redraw while
it runs: the same figures the admin and the API show (`IngestionJob.throughput`)."""

import time
from collections.abc import Callable
from datetime import timedelta

from django.core.management.base import CommandError, OutputWrapper

from .jobs import enqueue, run_in_process
from .models import IngestionJob


def progress_figures(job: IngestionJob) -> str:
    figures = job.throughput()
    left = figures["seconds_left"]
    eta = str(timedelta(seconds=round(left))) if left is not None else "?"
    return (
        f"{figures['files_done']}/{figures['files_total']} files  "
        f"{figures['chunks_done']} chunks  {figures['files_per_second']:.1f} files/s  "
        f"{figures['chunks_per_second']:.1f} chunks/s  left {eta}"
    )


def progress_line(job: IngestionJob, width: int = 30) -> str:
    fraction = job.progress()
    filled = int(width * fraction)
    return f"[{'#' * filled}{'.' * (width - filled)}] {fraction * 100:5.1f}%  " + progress_figures(
        job
    )


def draw(job: IngestionJob, stdout: OutputWrapper) -> None:
    job.refresh_from_db()
    line = progress_line(job)
    if stdout.isatty():
        stdout.write(f"\r{line}", ending="")
        stdout.flush()
    else:
        stdout.write(line)


def follow(
    job: IngestionJob,
    stdout: OutputWrapper,
    every: float = 1.0,
    workers_alive: Callable[[], bool] = lambda: True,
) -> None:
    """Redraw the line until the job is finished (by workers elsewhere)."""
    while True:
        draw(job, stdout)
        if job.is_finished:
            break
        if not workers_alive():
            raise CommandError("the workers started for the job have stopped; see var/")
        time.sleep(every)
    stdout.write("")


def run_here(job: IngestionJob, stdout: OutputWrapper, every: float = 1.0) -> None:
    drawn = 0.0

    def on_batch() -> None:
        nonlocal drawn
        if time.monotonic() - drawn >= every:  # the figures cost a query over every file
            draw(job, stdout)
            drawn = time.monotonic()

    run_in_process(job, on_batch=on_batch)
    draw(job, stdout)
    stdout.write("")


def send(job: IngestionJob, stdout: OutputWrapper, *, wait: bool) -> bool:
    """Send the job to the workers; follow it when `wait`. Returns whether it is finished."""
    enqueue(job)
    if not wait:
        stdout.write("queued; follow it in the admin or at /api/ingestion/jobs/")
        return False
    follow(job, stdout)
    return True


def summary_line(job: IngestionJob) -> str:
    job.refresh_from_db()
    counts = job.counts()
    return (
        f"{job.status}: {counts['done']} ingested, {counts['skipped']} unchanged, "
        f"{counts['failed']} failed; {counts['chunks']} chunks, "
        f"{counts['sections']} sections, {counts['entities']} entities, "
        f"{counts['edges']} graph edges, {counts['similarity_edges']} similarity edges, "
        f"{counts['section_types']} section types"
    )
