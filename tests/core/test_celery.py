from core.tasks import ping


def test_task_round_trip_through_redis_and_a_real_worker(celery_worker: str) -> None:
    result = ping.delay("hello").get(timeout=30)

    assert result["echo"] == "hello"
    assert result["worker"]  # answered by the worker process, not run in this one
    assert ping.delay("again").get(timeout=30)["echo"] == "again"
