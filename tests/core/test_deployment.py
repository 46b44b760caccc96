"""The production path: the image's Dockerfile, compose.yaml (validated by docker-compose,
which needs no daemon) and the safe defaults the compose environment runs with."""

import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SERVICES = {"web", "worker", "beat", "postgres", "neo4j", "redis", "migrate"}


def _compose_command() -> list[str]:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    probe = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
    if shutil.which("docker") and probe.returncode == 0:
        return ["docker", "compose"]
    pytest.skip("neither docker-compose nor docker compose is installed")


@pytest.fixture(scope="module")
def compose(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """compose.yaml as docker-compose resolves it, with production.env.example's
    "change-me" values replaced by fresh secrets."""
    command = _compose_command()
    folder = tmp_path_factory.mktemp("compose")
    shutil.copy(ROOT / "compose.yaml", folder / "compose.yaml")
    example = (ROOT / "production.env.example").read_text()
    filled = re.sub(r"change-me", lambda _: secrets.token_urlsafe(50), example)
    (folder / "production.env").write_text(filled)
    result = subprocess.run(
        [*command, "--env-file", "production.env", "config"],
        cwd=folder, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    resolved: dict[str, Any] = yaml.safe_load(result.stdout)
    return resolved


def test_compose_runs_each_service_with_health_checks_and_start_order(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    assert set(services) == SERVICES
    for name in ("web", "worker", "postgres", "neo4j", "redis"):
        assert services[name]["healthcheck"]["test"], name
    for name in ("web", "worker", "beat"):
        depends = services[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["neo4j"]["condition"] == "service_healthy"
    for name in ("neo4j", "postgres", "redis"):
        assert services["migrate"]["depends_on"][name]["condition"] == "service_healthy"
    assert services["neo4j"]["image"].startswith("neo4j:5")
    assert "pgvector" in services["postgres"]["image"]
    # One image for every process of the app; the worker scales (no fixed name or port).
    images = {services[name]["image"] for name in ("web", "worker", "beat", "migrate")}
    assert len(images) == 1
    assert "container_name" not in services["worker"] and "ports" not in services["worker"]
    # Uploads are shared by the web processes that store them and the workers that read.
    assert services["web"]["volumes"] == services["worker"]["volumes"]


def test_compose_takes_secrets_from_the_env_file(compose: dict[str, Any]) -> None:
    web = compose["services"]["web"]["environment"]
    assert web["DEBUG"] == "false"
    assert web["SQL_DEFAULT_SCOPE"] == "none"
    password = compose["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"]
    assert len(password) > 40 and f":{password}@postgres:" in web["DATABASE_URL"]
    assert compose["services"]["neo4j"]["environment"]["NEO4J_AUTH"] == (
        f"neo4j/{web['GRAPH_PASSWORD']}"
    )
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "production.env" in ignored


def _settings_process(environment: dict[str, str], *arguments: str) -> subprocess.CompletedProcess:
    """manage.py with exactly this environment (no .env file read)."""
    base = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT, env={**base, **environment, "SWITCHBOARD_ENV_FILE": ""},
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip


def test_check_deploy_is_clean_with_the_compose_environment(compose: dict[str, Any]) -> None:
    environment = {k: str(v) for k, v in compose["services"]["web"]["environment"].items()}
    result = _settings_process(environment, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_nobody_sees_every_customer_unless_configured() -> None:
    show = [
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.SQL_DEFAULT_SCOPE)",
    ]
    secret = {"SECRET_KEY": secrets.token_urlsafe(50)}
    unset = _settings_process(secret, *show)
    assert unset.stdout.strip() == "none", unset.stderr
    demo = _settings_process({**secret, "SQL_DEFAULT_SCOPE": "all"}, *show)
    assert demo.stdout.strip() == "all", demo.stderr
    wrong = _settings_process({**secret, "SQL_DEFAULT_SCOPE": "everyone"}, *show)
    assert wrong.returncode != 0 and "must be all or none" in wrong.stderr
    # The .env that scripts/run writes (from .env.example) keeps the demo's "all".
    assert "\nSQL_DEFAULT_SCOPE=all\n" in (ROOT / ".env.example").read_text()


def test_the_image_runs_unprivileged_with_a_health_check() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.count("\nFROM ") >= 2  # build and runtime stages
    assert re.search(r"^USER (?!root|0\b)\S+", dockerfile, re.MULTILINE)
    assert "HEALTHCHECK" in dockerfile and "core.probe" in dockerfile
    assert "collectstatic" in dockerfile
    # Only the runtime requirements: the embedded services stay out of the image.
    assert "requirements/base.txt" in dockerfile and "dev.txt" not in dockerfile
    assert "embedded" not in (ROOT / "requirements" / "base.txt").read_text()


def test_the_pool_is_sized_from_the_environment() -> None:
    show = [
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; d = settings.DATABASES['default']; "
        "print(d.get('OPTIONS', {}).get('pool'), d['CONN_MAX_AGE'], "
        "d['DISABLE_SERVER_SIDE_CURSORS'])",
    ]
    secret = {"SECRET_KEY": secrets.token_urlsafe(50)}
    pooled = _settings_process({**secret, "DB_POOL_MAX_SIZE": "3"}, *show).stdout
    assert "'max_size': 3" in pooled and pooled.split()[-2:] == ["0", "False"]
    # Off: each thread keeps its own connection for CONN_MAX_AGE; PgBouncer's switch on.
    off = {**secret, "DB_POOL_MAX_SIZE": "0", "DB_DISABLE_SERVER_SIDE_CURSORS": "true"}
    assert _settings_process(off, *show).stdout.split() == ["None", "60", "True"]
