"""How the agent reaches a MariaDB / MySQL warehouse."""

import pytest

from core.databases.mysql import _loopback


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.53", True),
        ("::1", True),
        ("localhost", True),
        ("10.0.0.7", False),
        ("db.example.com", False),
        ("localhost.example.com", False),
    ],
)
def test_tls_is_left_out_only_on_loopback(host: str, loopback: bool) -> None:
    assert _loopback(host) is loopback
