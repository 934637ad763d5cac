"""A throwaway broker on loopback for CI, the tests, the benchmarks and local runs: Apache
Kafka (:mod:`streams.kafka_server`, the broker users deploy; needs Java and Maven) or Tansu
(:mod:`streams.tansu`, the light one for a machine without Java). The kind is always chosen,
never guessed: a Kafka that cannot start is an error, not a reason to run Tansu.

``python -m streams.broker [--kind kafka|tansu] [--port N] [--nodes 3]`` prints
``TRACKER_TEST_BROKER=kafka://127.0.0.1:N`` and ``TRACKER_TEST_BROKER_KIND=kafka``, then runs
until killed.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Literal, Protocol

Kind = Literal["kafka", "tansu"]
KINDS: tuple[Kind, ...] = ("kafka", "tansu")


class Broker(Protocol):
    """A running broker: :class:`streams.kafka_server.Cluster` or :class:`streams.tansu.Tansu`."""

    kind: str
    label: str

    @property
    def url(self) -> str: ...

    def stop(self) -> None: ...


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


QUICK_GROUP = {
    "TRACKER_SESSION_TIMEOUT": "3",
    "TRACKER_HEARTBEAT_INTERVAL": "1",
    "TRACKER_REBALANCE_TIMEOUT": "3",
}
"""Consumer-group timings for workers on a throwaway broker: a SIGKILLed worker's partitions
move after 3 s instead of 10 (the brokers started here allow sessions from 1 s; a stock
Kafka refuses less than 6 s, hence the defaults in :class:`streams.settings.Settings`)."""

TANSU_NEEDS = {"TRACKER_FETCH_MAX_WAIT_MS": "20", "TRACKER_WORKER_FETCH_WAIT_MS": "20"}
"""Settings a worker needs on Tansu only: it holds every Fetch for half the wait whatever
arrives (the plain readers' wait, and the worker's own consumer's)."""


def worker_env(kind: str | None) -> dict[str, str]:
    """``TRACKER_*`` settings for a worker on a throwaway broker of ``kind``."""
    return {**QUICK_GROUP, **(TANSU_NEEDS if kind == "tansu" else {})}


def label(kind: str | None) -> str:
    """What a broker of this kind is, in words (for test headers and benchmark tables)."""
    if kind == "kafka":
        from streams.kafka_server import LABEL

        return LABEL
    if kind == "tansu":
        from streams.tansu import LABEL

        return LABEL
    return "a broker of unknown kind (TRACKER_TEST_BROKER_KIND is not set)"


def launch(
    kind: Kind, folder: Path | None = None, port: int | None = None, nodes: int = 1
) -> Broker:
    """Start a broker of ``kind``, its files (logs, Kafka's data) in ``folder``."""
    folder = folder or Path(tempfile.mkdtemp(prefix=f"{kind}-broker-"))
    if kind == "kafka":
        from streams import kafka_server

        return kafka_server.start(folder, nodes=nodes, port=port)
    if nodes != 1:
        raise ValueError("Tansu runs one node only")
    from streams.tansu import Tansu

    folder.mkdir(parents=True, exist_ok=True)
    return Tansu(port or free_port(), folder / "tansu.log")


@contextlib.contextmanager
def running(kind: Kind, folder: Path | None = None, nodes: int = 1) -> Iterator[Broker]:
    """A broker for the duration of the block."""
    broker = launch(kind, folder, nodes=nodes)
    try:
        yield broker
    finally:
        broker.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m streams.broker", description=__doc__)
    parser.add_argument("--kind", choices=KINDS, default="kafka")
    parser.add_argument("--port", type=int, default=9092, help="the (first) broker's port")
    parser.add_argument("--nodes", type=int, default=1, help="Kafka nodes (default 1)")
    parser.add_argument("--dir", type=Path, help="logs and data here (default: a new temp dir)")
    args = parser.parse_args(argv)
    from streams.kafka_server import KafkaUnavailable

    try:
        broker = launch(args.kind, args.dir, args.port, args.nodes)
    except KafkaUnavailable as exc:
        parser.exit(1, f"python -m streams.broker: {exc}\n")
    print(f"TRACKER_TEST_BROKER={broker.url}", flush=True)
    print(f"TRACKER_TEST_BROKER_KIND={broker.kind}", flush=True)

    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        time.sleep(0.2)
    broker.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
