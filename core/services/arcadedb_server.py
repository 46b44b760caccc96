"""Runs ArcadeDB with its Bolt plugin in the foreground until SIGTERM.

Started by `manage.py services start` as a detached process whose working directory is
the server's own folder, because the engine writes a `log/` folder into the current one.
Kept free of Django so that the JVM process stays small.
"""

import argparse
import signal
import sys
import threading


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--bolt-port", type=int, required=True)
    parser.add_argument("--http-port", type=int, required=True)
    parser.add_argument("--heap", default="2g")
    args = parser.parse_args()

    from arcadedb_embedded.server import ArcadeDBServer

    server = ArcadeDBServer(
        root_path=args.root,
        root_password=args.password,
        config={
            "host": "127.0.0.1",
            "http_port": args.http_port,
            "server_plugins": "Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
            "bolt_port": args.bolt_port,
        },
        jvm_kwargs={"heap_size": args.heap},
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    server.start()
    if not server._java_server.existsDatabase(args.database):
        server.create_database(args.database)
    print(f"ready: bolt on 127.0.0.1:{args.bolt_port}, database {args.database}", flush=True)
    stop.wait()
    server.stop()
    sys.exit(0)


if __name__ == "__main__":
    main()
