"""The container health probe: `python -m core.probe` exits 0 when this machine's server
answers /healthz with 200 (every required dependency is up), else 1.

Standard library only, no Django: it runs every 30 s beside the server. The Host header is
the first of ALLOWED_HOSTS, so the request passes the host check.
"""

import json
import os
import sys
import urllib.error
import urllib.request


def main() -> int:
    port = os.environ.get("PORT", "8000")
    host = (os.environ.get("ALLOWED_HOSTS") or "localhost").split(",")[0].strip()
    host = "localhost" if host in ("", "*") or host.startswith(".") else host
    request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=8) as response:  # noqa: S310
            return 0 if response.status == 200 else 1
    except urllib.error.HTTPError as error:
        print(f"unhealthy: {error.code} {_failing(error.read())}", file=sys.stderr)
    except (urllib.error.URLError, OSError) as error:
        print(f"unhealthy: {error}", file=sys.stderr)
    return 1


def _failing(body: bytes) -> str:
    """The required checks that failed, from /healthz's JSON body."""
    try:
        checks = json.loads(body)["checks"].values()
    except (ValueError, KeyError, AttributeError):
        return ""
    return "; ".join(
        f"{check['name']}: {check['detail']}"
        for check in checks
        if check.get("required") and not check.get("ok")
    )


if __name__ == "__main__":
    sys.exit(main())
