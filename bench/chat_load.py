"""Load on the chat websocket: N conversations at once against a real server on loopback.

    python bench/chat_load.py [--url http://127.0.0.1:8000] [-n 50] [--username demo]

Without --url it starts the server as `scripts/run` does (`manage.py serve`: one uvicorn
process per core unless --workers says otherwise; DEBUG off, static files collected) on a
free loopback port with the project's settings (`.env`) and no LLM, and stops it at the
end. The server needs the demo data that `scripts/run` loads (the warehouse, its registry,
the demo documents and the demo user; DEMO_USERNAME / DEMO_PASSWORD as for
`manage.py ensure_demo_user`).

The questions are the standalone SQL, document, graph and general questions of
demo/questions/routing.jsonl, interleaved, each asked once: no answer, embedding or plan
cached from an earlier ask helps. Each conversation logs in through the login page (a
session cookie of its own), creates a chat session through the API, opens /ws/chat/ and
asks one question. A warm-up first asks a few questions kept out of the measured set (the
first question of a fresh process loads the models; its time is reported apart). Then
every conversation asks at the same moment and the clock runs from each one's ask: time
to the first event (`accepted`), to the first orchestrator event, to the first token and
to `complete`, with p50 / p95 / max and the errors. The sessions it created are deleted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import psutil
import websockets

ROOT = Path(__file__).resolve().parent.parent

QUESTIONS = ROOT / "demo" / "questions" / "routing.jsonl"
ROUTES = ("sql", "documents", "graph", "general")
WARM_UP = 8  # questions per worker process, kept out of the measured set
# Where a round's CPU goes, by words in a process's name or command line.
PROCESS_GROUPS = (
    ("PostgreSQL", ("postgres",)),
    ("graph database", ("arcadedb", "neo4j", "java")),
    ("Redis", ("redis",)),
    ("MariaDB", ("mariadb", "mysqld")),
)
# Served as scripts/run serves it: without Django's debug mode (which keeps every query),
# over plain HTTP on loopback.
PRODUCTION_SWITCHES = {
    "DEBUG": "false",
    "SECURE_SSL_REDIRECT": "false",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "SECURE_HSTS_SECONDS": "0",
}
LOGINS_AT_ONCE = 4  # password hashing is deliberately slow; logins are not what is measured
# The app database's port, to count the server's connections (the embedded default).
DATABASE_PORT = urlsplit(os.environ.get("DATABASE_URL", "")).port or int(
    os.environ.get("EMBEDDED_POSTGRES_PORT", "55432")
)


@dataclass
class Conversation:
    question: str
    cookies: dict[str, str] = field(default_factory=dict)
    session_id: str = ""
    first_event: float | None = None
    first_orchestrator_event: float | None = None
    first_token: float | None = None
    complete: float | None = None
    error: str = ""


def question_pool() -> list[str]:
    """Standalone questions of each route, interleaved so that any prefix is a mix."""
    by_route: dict[str, list[str]] = {route: [] for route in ROUTES}
    for line in QUESTIONS.read_text().splitlines():
        row = json.loads(line)
        if row["route"] in by_route and not row.get("history") and not row.get("attachments"):
            by_route[row["route"]].append(row["question"])
    pool: list[str] = []
    for rank in range(max(len(q) for q in by_route.values())):
        pool.extend(q[rank] for q in by_route.values() if rank < len(q))
    return pool


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def server(workers: int) -> Iterator[tuple[str, int]]:
    port = free_port()
    env = {**os.environ, "OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", "OPENAI_MODEL": ""}
    env.update(PRODUCTION_SWITCHES)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    log_path = ROOT / "var" / "bench-chat-server.log"
    log_path.parent.mkdir(exist_ok=True)
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--port", str(port),
             "--workers", str(workers), "--no-access-log"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start; see {log_path}")
                try:
                    if httpx.get(f"{url}/accounts/login/", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.5)
            yield url, process.pid
        finally:
            process.terminate()
            process.wait(timeout=60)


async def log_in(url: str, username: str, password: str) -> dict[str, str]:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        await http.get("/accounts/login/")
        response = await http.post(
            "/accounts/login/",
            data={
                "username": username,
                "password": password,
                "csrfmiddlewaretoken": http.cookies["csrftoken"],
            },
            headers={"Referer": f"{url}/accounts/login/"},
        )
        if response.status_code != 302 or "sessionid" not in http.cookies:
            raise SystemExit(f"could not log in as {username!r} ({response.status_code})")
        return dict(http.cookies.items())


def api(url: str, cookies: dict[str, str]) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=url, cookies=cookies, headers={"X-CSRFToken": cookies["csrftoken"]}, timeout=60
    )


async def prepare(url: str, conversation: Conversation, credentials: tuple[str, str]) -> None:
    conversation.cookies = await log_in(url, *credentials)
    async with api(url, conversation.cookies) as http:
        response = await http.post("/api/chat/sessions", json={"title": "load test"})
        response.raise_for_status()
        conversation.session_id = response.json()["id"]


async def converse(
    url: str, conversation: Conversation, start: asyncio.Event, timeout: float
) -> None:
    headers = {
        "Cookie": "; ".join(f"{k}={v}" for k, v in conversation.cookies.items()),
        "Origin": url,
    }
    request_id = uuid.uuid4().hex
    ws_url = url.replace("http", "ws", 1) + "/ws/chat/"
    try:
        async with websockets.connect(
            ws_url, additional_headers=headers, max_size=None, open_timeout=60
        ) as socket_:
            await start.wait()
            asked = time.perf_counter()
            await socket_.send(
                json.dumps({"type": "ask", "request_id": request_id,
                            "session_id": conversation.session_id,
                            "content": conversation.question})
            )  # fmt: skip
            async with asyncio.timeout(timeout):
                while True:
                    event = json.loads(await socket_.recv())
                    if event.get("request_id") != request_id:
                        continue
                    now = time.perf_counter() - asked
                    name = event["event"]
                    if conversation.first_event is None:
                        conversation.first_event = now
                    if name != "accepted" and conversation.first_orchestrator_event is None:
                        conversation.first_orchestrator_event = now
                    if name == "token" and conversation.first_token is None:
                        conversation.first_token = now
                    if name == "error":
                        conversation.error = f"{event.get('code')}: {event.get('message')}"
                        return
                    if name == "complete":
                        conversation.complete = now
                        return
    except TimeoutError:
        conversation.error = f"no complete within {timeout:g} s"
    except (OSError, websockets.WebSocketException) as error:
        conversation.error = f"{type(error).__name__}: {error}"


async def clean_up(url: str, conversations: list[Conversation]) -> None:
    for conversation in conversations:
        if conversation.session_id:
            async with api(url, conversation.cookies) as http:
                await http.delete(f"/api/chat/sessions/{conversation.session_id}")


@dataclass
class Clock:
    """Wall time and CPU time of one round: the whole machine's (every process, this
    script's 50 sockets included) and, when this script started it, the server's."""

    server_pid: int | None = None
    wall: float = 0.0
    machine_cpu: float = 0.0
    server_cpu: float | None = None

    peak_connections: int = 0
    by_process: dict[str, float] = field(default_factory=dict)  # CPU seconds per group

    def _process_group(self, process: psutil.Process, server: set[int]) -> str:
        """Which part of the system a process is: what a round's CPU is spent on."""
        if process.pid in server:
            return "server"
        if process.pid == os.getpid():
            return "this script"
        words = " ".join([process.name(), *process.cmdline()[:3]]).lower()
        for group, marks in PROCESS_GROUPS:
            if any(mark in words for mark in marks):
                return group
        return "other"

    def _cpu_by_group(self) -> dict[str, float]:
        server: set[int] = set()
        if self.server_pid is not None:
            root = psutil.Process(self.server_pid)
            server = {root.pid, *(p.pid for p in root.children(recursive=True))}
        seconds: dict[str, float] = {}
        for process in psutil.process_iter():
            try:
                group = self._process_group(process, server)
                times = process.cpu_times()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            seconds[group] = seconds.get(group, 0.0) + times.user + times.system
        return seconds

    def _server_cpu(self) -> float | None:
        if self.server_pid is None:
            return None
        root = psutil.Process(self.server_pid)
        times = [p.cpu_times() for p in (root, *root.children(recursive=True))]
        return sum(t.user + t.system for t in times)

    def database_connections(self) -> int | None:
        """PostgreSQL connections the server's processes hold now (the pool bounds them)."""
        if self.server_pid is None:
            return None
        root = psutil.Process(self.server_pid)
        return sum(
            1
            for process in (root, *root.children(recursive=True))
            for c in process.net_connections("tcp")
            if c.raddr and c.raddr.port == DATABASE_PORT and c.status == psutil.CONN_ESTABLISHED
        )

    def _watch_connections(self, stop: threading.Event) -> None:
        while not stop.wait(0.2):
            self.peak_connections = max(self.peak_connections, self.database_connections() or 0)

    @contextmanager
    def running(self) -> Iterator[None]:
        machine, server, began = psutil.cpu_times(), self._server_cpu(), time.perf_counter()
        groups = self._cpu_by_group()
        stop = threading.Event()
        watch = threading.Thread(target=self._watch_connections, args=(stop,), daemon=True)
        if self.server_pid is not None:
            watch.start()
        yield
        stop.set()
        self.wall = time.perf_counter() - began
        after = psutil.cpu_times()
        self.machine_cpu = (after.user + after.system) - (machine.user + machine.system)
        groups_after = self._cpu_by_group()
        self.by_process = {
            group: seconds - groups.get(group, 0.0) for group, seconds in groups_after.items()
        }
        server_after = self._server_cpu()
        if server is not None and server_after is not None:
            self.server_cpu = server_after - server


async def run_round(
    url: str, questions: list[str], credentials: tuple[str, str], timeout: float, clock: Clock
) -> list[Conversation]:
    conversations = [Conversation(q) for q in questions]
    logins = asyncio.Semaphore(LOGINS_AT_ONCE)

    async def prepared(conversation: Conversation) -> None:
        async with logins:
            await prepare(url, conversation, credentials)

    await asyncio.gather(*(prepared(c) for c in conversations))
    start = asyncio.Event()
    tasks = [asyncio.create_task(converse(url, c, start, timeout)) for c in conversations]
    await asyncio.sleep(1.0)  # every socket is open and waiting
    with clock.running():
        start.set()
        await asyncio.gather(*tasks)
    await clean_up(url, conversations)
    return conversations


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


def report(conversations: list[Conversation], clock: Clock) -> None:
    n = len(conversations)
    print(f": {n} concurrent conversations, wall time {clock.wall:.2f} s")
    print(f"  CPU: machine {clock.machine_cpu:.2f} s", end="")
    if clock.server_cpu is not None:
        each = clock.server_cpu / n * 1000
        print(f", server {clock.server_cpu:.2f} s ({each:.0f} ms a question)")
    else:
        print()
    spent = sorted(clock.by_process.items(), key=lambda item: -item[1])
    print("  CPU by process: " + ", ".join(f"{g} {s:.2f} s" for g, s in spent if s >= 0.01))
    print(f"{'':28}{'p50':>9}{'p95':>9}{'max':>9}   (seconds from the ask)")
    for label, attribute in (
        ("first event (accepted)", "first_event"),
        ("first orchestrator event", "first_orchestrator_event"),
        ("first token", "first_token"),
        ("complete", "complete"),
    ):
        values = [getattr(c, attribute) for c in conversations]
        values = [v for v in values if v is not None]
        if values:
            print(
                f"  {label:<26}{percentile(values, 0.5):>9.3f}{percentile(values, 0.95):>9.3f}"
                f"{max(values):>9.3f}   n={len(values)}"
            )
    errors = [c for c in conversations if c.error]
    print(f"  errors: {len(errors)}")
    for conversation in errors[:5]:
        print(f"    {conversation.question!r}: {conversation.error}")


def machine() -> str:
    meminfo = Path("/proc/meminfo")
    memory = "?"
    if meminfo.exists():
        kib = int(meminfo.read_text().split("MemTotal:")[1].split()[0])
        memory = f"{kib / 1024 / 1024:.0f} GiB"
    return f"{os.cpu_count()} cores, {memory} memory"


async def bench(
    url: str,
    count: int,
    rounds: int,
    credentials: tuple[str, str],
    timeout: float,
    server_pid: int | None = None,
) -> int:
    print(f"server {url}; machine: {machine()}")
    pool = question_pool()
    measured, warm_up = pool[:-WARM_UP], pool[-WARM_UP:]
    if count * rounds > len(measured):
        print(f"note: {count} x {rounds} asks but {len(measured)} questions; some repeat")
    clock = Clock(server_pid)
    [first] = await run_round(url, warm_up[:1], credentials, 300, clock)
    note = f" ({first.error})" if first.error else ""
    print(f"cold start: the first question of the process took {first.complete or 0:.2f} s{note}")
    await run_round(url, warm_up, credentials, 300, clock)  # every worker process, not measured
    failed = False
    p95s: list[float] = []
    for n in range(rounds):
        # Each round asks the next questions of the pool: a question seen before is cheaper.
        questions = [measured[(n * count + i) % len(measured)] for i in range(count)]
        conversations = await run_round(url, questions, credentials, timeout, clock)
        print(f"\nround {n + 1} of {rounds}", end="")
        report(conversations, clock)
        failed |= any(c.error for c in conversations)
        done = [c.complete for c in conversations if c.complete is not None]
        if done:
            p95s.append(percentile(done, 0.95))
    if rounds > 1 and p95s:
        listed = ", ".join(f"{p:.2f}" for p in p95s)
        print(f"\ncomplete p95 per round: {listed} s; median {percentile(p95s, 0.5):.2f} s")
    if server_pid is not None:
        await asyncio.sleep(5)
        print(
            f"PostgreSQL connections of the server: at most {clock.peak_connections} during "
            f"the rounds, {clock.database_connections()} held 5 s after"
        )
    return 1 if failed else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server (default: start one here)")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1,
        help="server worker processes when starting one (default: one per core)",
    )  # fmt: skip
    parser.add_argument("-n", "--conversations", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=1, help="measured rounds, one after another")
    parser.add_argument("--username", default=os.environ.get("DEMO_USERNAME", "demo"))
    parser.add_argument("--password", default=os.environ.get("DEMO_PASSWORD", "switchboard-demo"))
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per conversation")
    options = parser.parse_args()
    credentials = (options.username, options.password)
    if options.url:
        code = asyncio.run(
            bench(
                options.url.rstrip("/"),
                options.conversations,
                options.rounds,
                credentials,
                options.timeout,
            )
        )
    else:
        with server(options.workers) as (url, pid):
            code = asyncio.run(
                bench(
                    url,
                    options.conversations,
                    options.rounds,
                    credentials,
                    options.timeout,
                    server_pid=pid,
                )
            )
    sys.exit(code)


if __name__ == "__main__":
    main()
