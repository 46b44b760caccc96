import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone


class JobStatus(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    FINALIZING = "finalizing"
    DONE = "done"
    FAILED = "failed"  # every file failed


class ItemStatus(models.TextChoices):
    QUEUED = "queued"
    PROCESSING = "processing"
    DONE = "done"
    SKIPPED = "skipped"  # unchanged since the last ingest
    FAILED = "failed"


TERMINAL = (ItemStatus.DONE, ItemStatus.SKIPPED, ItemStatus.FAILED)

# What a file produced and what went wrong: the admin and the API show them per file.
ITEM_REPORT_FIELDS = (
    "chunk_count",
    "section_count",
    "entity_count",
    "edge_count",
    "image_count",
    "timings",
    "error",
)

# How far along a file is at each stage, for the progress bar.
STAGE_PROGRESS = {
    "queued": 0.0,
    "parsing": 0.05,
    "embedding": 0.25,
    "entities": 0.55,
    "saving": 0.75,
    "graph": 0.85,
    "deleting": 0.5,
}


class JobKind(models.TextChoices):
    INGEST = "ingest"
    DELETE = "delete"  # its items are documents to remove


class IngestionJob(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=10, choices=JobKind.choices, default=JobKind.INGEST)
    collection = models.ForeignKey(
        "ingestion.Collection", on_delete=models.CASCADE, related_name="jobs"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    status = models.CharField(max_length=20, choices=JobStatus.choices, default=JobStatus.QUEUED)
    total = models.PositiveIntegerField(default=0)
    similarity_edges = models.PositiveIntegerField(default=0)
    section_types = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    # Who runs the final step ("host:pid"), so a restarted worker can tell a dead claim.
    worker = models.CharField(max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.collection} {self.created_at:%Y-%m-%d %H:%M} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (JobStatus.DONE, JobStatus.FAILED)

    def progress(self) -> float:
        """0..1 over the files, counting the stage a file in progress has reached."""
        if self.is_finished:
            return 1.0
        if not self.total:
            return 0.0
        reached = models.Case(
            models.When(status__in=TERMINAL, then=models.Value(1.0)),
            *(
                models.When(stage=stage, then=models.Value(share))
                for stage, share in STAGE_PROGRESS.items()
            ),
            default=models.Value(0.0),
            output_field=models.FloatField(),
        )
        done = self.items.aggregate(done=models.Sum(reached))["done"] or 0.0
        # The final step (similarity edges, section types) is the last few percent.
        return round(min(done / self.total, 1.0) * 0.95, 4)

    def throughput(self) -> dict[str, Any]:
        """Files and chunks finished, per second since the job started, and the seconds
        left at that pace (None until a file is finished)."""
        finished = self.items.filter(status__in=TERMINAL).aggregate(
            files=models.Count("id"), chunks=models.Sum("chunk_count")
        )
        files, chunks = finished["files"] or 0, finished["chunks"] or 0
        end = self.finished_at or timezone.now()
        elapsed = (end - self.started_at).total_seconds() if self.started_at else 0.0
        per_second = files / elapsed if elapsed > 0 else 0.0
        left = self.total - files
        seconds_left = round(left / per_second, 1) if per_second else None
        return {
            "files_done": files,
            "files_total": self.total,
            "chunks_done": chunks,
            "files_per_second": round(per_second, 2),
            "chunks_per_second": round(chunks / elapsed, 2) if elapsed > 0 else 0.0,
            "elapsed_seconds": round(elapsed, 1),
            "seconds_left": seconds_left if left else 0.0,
        }

    def counts(self) -> dict[str, Any]:
        by_status = dict(self.items.values_list("status").annotate(n=models.Count("id")).order_by())
        totals = self.items.aggregate(
            chunks=models.Sum("chunk_count"),
            sections=models.Sum("section_count"),
            entities=models.Sum("entity_count"),
            edges=models.Sum("edge_count"),
            images=models.Sum("image_count"),
        )
        return {
            **{status: by_status.get(status, 0) for status in ItemStatus.values},
            **{key: value or 0 for key, value in totals.items()},
            "similarity_edges": self.similarity_edges,
            "section_types": self.section_types,
        }


class JobItem(models.Model):
    """One file of a job: where it is, what it produced, how long each stage took."""

    job = models.ForeignKey(IngestionJob, on_delete=models.CASCADE, related_name="items")
    document = models.ForeignKey(
        "ingestion.Document", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The document a deletion job removes (kept once the row, and `document`, are gone).
    target = models.UUIDField(null=True, blank=True)
    file_name = models.CharField(max_length=255)
    file_path = models.CharField(max_length=1000)
    directory_name = models.CharField(max_length=255, blank=True)
    # The copy in storage the worker reads; it becomes the document's file on success.
    staged_file = models.CharField(max_length=500, blank=True)
    # The original's folder on this machine, when it came from one: pictures that Markdown
    # and HTML refer to by relative path are read from there.
    origin_dir = models.CharField(max_length=1000, blank=True)
    content_hash = models.CharField(max_length=64, blank=True)
    size = models.PositiveBigIntegerField(default=0)
    status = models.CharField(max_length=20, choices=ItemStatus.choices, default=ItemStatus.QUEUED)
    stage = models.CharField(max_length=20, default="queued")
    chunk_count = models.PositiveIntegerField(default=0)
    section_count = models.PositiveIntegerField(default=0)
    entity_count = models.PositiveIntegerField(default=0)
    edge_count = models.PositiveIntegerField(default=0)  # graph relationships written
    image_count = models.PositiveIntegerField(default=0)
    timings = models.JSONField(default=dict, blank=True)  # seconds per stage
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Who holds the file ("host:pid") while it is processed, and who processed it after.
    worker = models.CharField(max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["job", "id"]
        # Workers claim a job's queued files, and look for its abandoned ones, by status.
        indexes = [models.Index(fields=["job", "status"], name="jobitem_job_status")]

    def __str__(self) -> str:
        return f"{self.file_path} ({self.status})"

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL
