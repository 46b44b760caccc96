"""Schemathesis against the real server, every check on, as a plain user and as an admin:
no server error, no response unlike the schema, no schema-valid request refused, no invalid
one accepted, no undocumented status code. Schemathesis runs with its defaults otherwise
(its error feedback, which learns from 4xx bodies, included). The seed is fixed, so a
failure replays. One worker: on CPython 3.11 before 3.11.8, `ast.parse` in two threads at
once (Hypothesis describes its filters that way) can fail with "AST constructor recursion
depth mismatch", an interpreter error that says nothing of the API."""

import subprocess
import sys

import pytest

from ..conftest import ROOT
from .conftest import Api

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]


@pytest.mark.parametrize("who", ["plain", "admin"])
def test_schemathesis_finds_nothing(api: Api, who: str) -> None:
    token = api.plain_token if who == "plain" else api.admin_token
    command = [
        sys.executable, "-m", "schemathesis.cli", "run",
        f"{api.base}/api/schema/?format=json", "--header", f"Authorization: Token {token}",
        "--checks", "all", "--seed", "1", "--max-examples", "20", "--workers", "1",
        "--generation-database", "none", "--no-color",
    ]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=840)

    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:]
