"""Serve the app: one uvicorn process per core, each listening on a socket of its own.

The sockets share the port through SO_REUSEPORT, so the kernel spreads new connections
over the processes. With one shared socket (`uvicorn --workers`) whichever process wakes
first accepts a whole burst of connections, and one core answers most of the questions
while the other idles. A process that dies is started again.
"""

import multiprocessing
import os
import signal
import socket
import threading
import time
from multiprocessing.process import BaseProcess
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.module_loading import import_string

from core.databases.agent_login import AgentLoginCanWrite
from core.databases.connect import check_at_start

APPLICATION = "config.asgi:application"
STOP_SECONDS = 15
FAILED_START_SECONDS = 20  # a process that ends this soon failed to start: give up


def _listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


def _stop_with_parent() -> None:
    """A parent killed outright cannot stop its children: each stops itself instead."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os.kill(os.getpid(), signal.SIGTERM)  # uvicorn's own graceful stop

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def serve_one(host: str, port: int, access_log: bool) -> None:
    """One server process (the target of each child)."""
    import uvicorn

    config = uvicorn.Config(
        APPLICATION,
        lifespan="off",  # Django has no lifespan events
        access_log=access_log,
        timeout_graceful_shutdown=10,
        # The chat streams many small JSON frames; compressing each one was 1.4-2.5 % of
        # the server's samples under fifty conversations at once.
        ws_per_message_deflate=False,
    )
    _stop_with_parent()
    server = uvicorn.Server(config)
    config.load()  # imports the app, which sets Django up
    if settings.SERVER_WARMUP:
        import_string(settings.SERVER_WARMUP)()
    server.run(sockets=[_listening_socket(host, port)])


def _port_taken(host: str, port: int) -> bool:
    """Taken by anything, another SO_REUSEPORT server included (a plain bind fails then)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


class Command(BaseCommand):
    help = "Serve the app with one server process per core (or --workers)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--workers",
            type=int,
            default=0,
            help="server processes (default: WEB_CONCURRENCY, else one per core)",
        )
        parser.add_argument("--no-access-log", action="store_true")

    def _check_agent_login(self) -> None:
        try:
            self.stdout.write(check_at_start())
        except AgentLoginCanWrite as error:
            raise CommandError(f"not serving: {error}") from error

    def handle(self, *args: Any, **options: Any) -> None:
        workers = options["workers"] or int(os.environ.get("WEB_CONCURRENCY") or 0)
        workers = workers or os.cpu_count() or 1
        host, port = options["host"], options["port"]
        if _port_taken(host, port):
            raise CommandError(f"{host}:{port} is already taken")
        self._check_agent_login()
        spawn = multiprocessing.get_context("spawn")  # a fresh interpreter, no forked threads
        arguments = (host, port, not options["no_access_log"])

        started: dict[int, float] = {}

        def start() -> BaseProcess:
            process = spawn.Process(target=serve_one, args=arguments, daemon=False)
            process.start()
            started[id(process)] = time.monotonic()
            return process

        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        processes = [start() for _ in range(workers)]
        self.stdout.write(f"serving on http://{host}:{port} with {workers} processes")
        failed = ""
        while not stopping:
            time.sleep(0.5)
            for i, process in enumerate(processes):
                if stopping or process.exitcode is None:
                    continue
                if time.monotonic() - started[id(process)] < FAILED_START_SECONDS:
                    failed = f"a server process failed to start (exit code {process.exitcode})"
                    stopping = True
                    break
                self.stderr.write(f"server process {process.pid} ended; starting another")
                processes[i] = start()
        for process in processes:
            process.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
        if failed:
            raise CommandError(failed)
