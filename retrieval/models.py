import json
from typing import Any

from django.conf import settings
from django.db import models


class QueryTrace(models.Model):
    """What one question did: the chunks it found with each signal's score, the subgraph it
    walked, the answer when one was given, tokens and time per stage."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=30, default="search")  # search, relationship, graph...
    question = models.TextField()
    rewritten_queries = models.JSONField(default=list, blank=True)
    parameters = models.JSONField(default=dict, blank=True)
    collection_ids = models.JSONField(default=list, blank=True)  # what the user could read
    retrieved = models.JSONField(default=list, blank=True)  # chunks with per-signal scores
    subgraph = models.JSONField(default=dict, blank=True)  # {"nodes": [...], "edges": [...]}
    # Filled by whoever answers; empty while no answer was given.
    answer = models.TextField(blank=True)
    token_usage = models.JSONField(default=dict, blank=True)
    keyword_ms = models.FloatField(null=True, blank=True)
    vector_ms = models.FloatField(null=True, blank=True)
    graph_ms = models.FloatField(null=True, blank=True)
    rerank_ms = models.FloatField(null=True, blank=True)
    total_ms = models.FloatField(null=True, blank=True)
    timings = models.JSONField(default=dict, blank=True)  # every stage, embedding included
    result_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.question[:60]}"

    def export_row(self) -> dict[str, Any]:
        return {
            "id": self.pk,
            "created_at": self.created_at.isoformat(),
            "user": self.user.get_username() if self.user else None,
            "kind": self.kind,
            "question": self.question,
            "rewritten_queries": self.rewritten_queries,
            "parameters": self.parameters,
            "collection_ids": self.collection_ids,
            "retrieved": self.retrieved,
            "subgraph": self.subgraph,
            "answer": self.answer,
            "token_usage": self.token_usage,
            "latency_ms": {
                "keyword": self.keyword_ms,
                "vector": self.vector_ms,
                "graph": self.graph_ms,
                "rerank": self.rerank_ms,
                "total": self.total_ms,
            },
            "timings": self.timings,
            "result_count": self.result_count,
        }

    def export_line(self) -> str:
        return json.dumps(self.export_row(), ensure_ascii=False, default=str)


class ChunkTerm(models.Model):
    """BM25's postings: one lexeme of one chunk's full-text vector, with how often the chunk
    holds it. Database triggers on ingestion_chunk write and remove them (migration 0002) in
    the statement that writes or deletes the chunk, whatever writes it, so the statistics
    survive restarts and stay right under concurrent ingestion in several processes."""

    pk = models.CompositePrimaryKey("chunk_id", "term")
    chunk_id = models.UUIDField()
    collection_id = models.IntegerField()
    term = models.TextField()
    tf = models.PositiveIntegerField()
    length = models.PositiveIntegerField()  # the chunk's lexemes counted with repeats

    class Meta:
        indexes = [
            # Covers the scoring query: a term's postings in the readable collections.
            models.Index(
                fields=["term", "collection_id"],
                include=["chunk_id", "tf", "length"],
                name="chunkterm_term_collection",
            )
        ]

    def __str__(self) -> str:
        return f"{self.chunk_id}: {self.term} x{self.tf}"


class KeywordStatistics(models.Model):
    """Per collection, the chunk count and total length BM25 needs (N and the average
    length), kept by the same triggers as the postings."""

    collection_id = models.IntegerField(primary_key=True)
    chunks = models.BigIntegerField(default=0)
    length = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"collection {self.collection_id}: {self.chunks} chunks"
