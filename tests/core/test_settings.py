import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_env_example_documents_every_setting() -> None:
    source = (ROOT / "config" / "settings.py").read_text()
    names = set(re.findall(r'env(?:\.\w+)?\(\s*"([A-Z_]+)"', source))
    names |= set(re.findall(r'"([A-Z_]+)" (?:not )?in env', source))
    example = (ROOT / ".env.example").read_text()
    missing = sorted(name for name in names if name not in example)
    assert names and not missing, f"undocumented in .env.example: {missing}"


def test_check_deploy_passes_with_production_values() -> None:
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "switchboard.example.com",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
