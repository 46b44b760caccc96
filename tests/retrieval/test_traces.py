"""Every search writes a QueryTrace; the admin shows it read-only and exports JSONL."""

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from retrieval.models import QueryTrace
from retrieval.search import graphrag_search

from .conftest import SearchCorpus

pytestmark = pytest.mark.django_db


def test_a_search_writes_its_trace(search_corpus: SearchCorpus) -> None:
    outcome = graphrag_search(
        "Who did Sarah Chen work with at TechCorp?", user=search_corpus.reader, max_hops=2
    )
    assert outcome.trace_id is not None
    trace = QueryTrace.objects.get(pk=outcome.trace_id)
    assert trace.user == search_corpus.reader and trace.kind == "search"
    assert trace.question == "Who did Sarah Chen work with at TechCorp?"
    assert {"kind": "keywords", "text": " ".join(outcome.keywords)} in trace.rewritten_queries
    for stage in ("keyword_ms", "vector_ms", "graph_ms", "rerank_ms", "total_ms"):
        assert getattr(trace, stage) is not None and getattr(trace, stage) >= 0
    assert trace.total_ms is not None and trace.graph_ms is not None
    assert trace.total_ms >= trace.graph_ms
    assert trace.result_count == len(outcome.results)
    returned = [r for r in trace.retrieved if r["returned"]]
    assert [r["chunk_id"] for r in returned] == [r["metadata"]["chunk_id"] for r in outcome.results]
    for r in returned:
        assert {"vector", "keyword", "path", "proximity"} <= set(r["signals"])
        assert r["hybrid_score"] == pytest.approx(
            next(
                x["hybrid_score"]
                for x in outcome.results
                if x["metadata"]["chunk_id"] == r["chunk_id"]
            )
        )
    node_ids = {n["id"] for n in trace.subgraph["nodes"]}
    assert {r["chunk_id"] for r in trace.retrieved} <= node_ids
    expanded = [c for c in outcome.candidates[: len(trace.retrieved)] if c.hop]
    if expanded:
        assert trace.subgraph["edges"]
    for edge in trace.subgraph["edges"]:
        assert edge["source"] in node_ids and edge["target"] in node_ids
    assert trace.answer == ""


def test_admin_lists_traces_read_only_and_exports_jsonl(
    search_corpus: SearchCorpus, admin_client: Client
) -> None:
    first = graphrag_search("overtime pay rate", user=search_corpus.reader)
    second = graphrag_search("Kubernetes and Terraform", user=search_corpus.reader)
    changelist = reverse("admin:retrieval_querytrace_changelist")
    page = admin_client.get(changelist, {"q": "overtime"})
    assert page.status_code == 200
    assert b"overtime pay rate" in page.content and b"Kubernetes and Terraform" not in page.content
    assert admin_client.get(reverse("admin:retrieval_querytrace_add")).status_code == 403
    detail = admin_client.get(reverse("admin:retrieval_querytrace_change", args=[first.trace_id]))
    assert detail.status_code == 200 and b"Save" not in detail.content

    response = admin_client.post(
        changelist,
        {"action": "export_jsonl", "_selected_action": [first.trace_id, second.trace_id]},
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    lines: list[dict[str, Any]] = [
        json.loads(line) for line in response.content.decode().splitlines()
    ]
    assert {line["question"] for line in lines} == {"overtime pay rate", "Kubernetes and Terraform"}
    for line in lines:
        assert set(line["latency_ms"]) == {"keyword", "vector", "graph", "rerank", "total"}
        assert line["retrieved"] and line["user"] == search_corpus.reader.username
