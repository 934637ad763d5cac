"""Apache Kafka on loopback, from Kafka's own jars, for CI, the tests and the benchmarks.

The broker's classpath is ``org.apache.kafka:kafka_2.13`` :data:`KAFKA_VERSION` and what it
depends on, fetched once from Maven Central with Maven (``mvn dependency:copy-dependencies``
on a generated pom) into a cache outside the checkout (``$TRACKER_KAFKA_CACHE``, else
``~/.cache/fide-norm-tracker``), and reused by every later run. A node is a KRaft
broker-and-controller: ``kafka.tools.StorageTool format`` prepares its log folder, then
``kafka.Kafka server.properties`` runs it. :class:`Cluster` starts one node (CI) or three
(the leader-kill test), and kills and restarts a node on its own log folder.

Missing Java or Maven, or jars that cannot be fetched, raise :class:`KafkaUnavailable` with a
sentence saying which: there is no fallback to another broker (``python -m streams.broker
--kind tansu`` is the light one, chosen by hand).

The settings (:func:`node_properties`) are the production ones of ``deploy/`` where they
matter to the tests (no topic auto-creation, replication 3 with ``min.insync.replicas`` 2 on
three nodes), and quick where only speed differs: no initial rebalance delay, sessions from
1 s (the tests' workers use 3 s), 1 MB segments and a 1 s cleaner back-off so that
compaction happens within a benchmark.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from subprocess import PIPE, STDOUT

from streams.broker import free_port

KAFKA_VERSION = "4.1.1"
"""The Apache Kafka release CI runs, and the one ``deploy/`` names."""
LABEL = f"Apache Kafka {KAFKA_VERSION} (KRaft)"
SCALA_VERSION = "2.13"
LOG4J_VERSION = "2.24.3"
"""log4j-slf4j-impl, so that the broker's slf4j logging reaches log4j (Kafka's own
distribution ships it; the Maven artifact does not depend on it)."""
START_TIMEOUT = 120.0
"""Seconds a node may take to start (2-3 s on an idle 2-core machine)."""


def _die_with_parent() -> None:
    """In the child before it runs Java: killed when the process that started it dies, however
    it dies (Linux ``PR_SET_PDEATHSIG``), so no broker outlives a killed test or benchmark."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class KafkaUnavailable(RuntimeError):
    """Apache Kafka cannot run here; the message says what is missing."""


def cache_root() -> Path:
    override = os.environ.get("TRACKER_KAFKA_CACHE")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fide-norm-tracker"


def _pom(version: str) -> str:
    return f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>fide-norm-tracker</groupId>
  <artifactId>kafka-broker-classpath</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>kafka_{SCALA_VERSION}</artifactId>
      <version>{version}</version>
    </dependency>
    <dependency>
      <groupId>org.apache.logging.log4j</groupId>
      <artifactId>log4j-slf4j-impl</artifactId>
      <version>{LOG4J_VERSION}</version>
    </dependency>
  </dependencies>
</project>
"""


def _require(tool: str, what: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise KafkaUnavailable(
            f"Apache Kafka needs {what} ('{tool}' is not on PATH): install it (Debian: "
            "apt-get install openjdk-17-jre-headless maven), or run the light test broker "
            "with `python -m streams.broker --kind tansu`"
        )
    return path


def libs(version: str = KAFKA_VERSION) -> Path:
    """The folder of the broker's jars, fetched with Maven the first time."""
    _require("java", "Java 17 or later")
    folder = cache_root() / f"kafka_{SCALA_VERSION}-{version}" / "libs"
    if folder.is_dir():
        return folder
    mvn = _require("mvn", "Maven to fetch its jars")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent) as work:
        pom = Path(work) / "pom.xml"
        pom.write_text(_pom(version), encoding="utf-8")
        fetched = Path(work) / "libs"
        done = subprocess.run(
            [
                mvn,
                "-q",
                "-B",
                "-f",
                str(pom),
                "dependency:copy-dependencies",
                f"-DoutputDirectory={fetched}",
                "-DincludeScope=runtime",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or not any(fetched.glob(f"kafka_{SCALA_VERSION}-*.jar")):
            raise KafkaUnavailable(
                f"Maven could not fetch org.apache.kafka:kafka_{SCALA_VERSION}:{version}:\n"
                f"{(done.stdout + done.stderr)[-3000:]}"
            )
        try:
            fetched.rename(folder)  # atomic: a folder that exists is complete
        except OSError:
            if not folder.is_dir():  # not another process's copy landing first
                raise
    return folder


def new_cluster_id(draw: Callable[[], uuid.UUID] = uuid.uuid4) -> str:
    """A KRaft cluster id: a random UUID in URL-safe base64 without padding, as
    ``kafka-storage random-uuid`` makes it, and like it never starting with ``-``: the
    storage tool's argument parser reads such an id as an option and refuses to format
    (``argument --cluster-id/-t: expected one argument``), which failed 1 start in 64.

    >>> ids = iter([uuid.UUID(bytes=b"\\xf8" + bytes(15)), uuid.UUID(int=1)])
    >>> new_cluster_id(lambda: next(ids))
    'AAAAAAAAAAAAAAAAAAAAAQ'
    """
    while True:
        found = base64.urlsafe_b64encode(draw().bytes).decode().rstrip("=")
        if not found.startswith("-"):
            return found


def node_properties(node_id: int, nodes: dict[int, tuple[int, int]], log_dir: Path) -> str:
    """``server.properties`` of node ``node_id`` of a cluster whose nodes are ``{id: (broker
    port, controller port)}``, every one a broker and a controller on 127.0.0.1."""
    port, controller = nodes[node_id]
    count = len(nodes)
    replicas = min(3, count)
    in_sync = min(2, count)
    voters = ",".join(f"{i}@127.0.0.1:{c}" for i, (_, c) in sorted(nodes.items()))
    settings = {
        "process.roles": "broker,controller",
        "node.id": node_id,
        "controller.quorum.voters": voters,
        "listeners": f"PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{controller}",
        "advertised.listeners": f"PLAINTEXT://127.0.0.1:{port}",
        "controller.listener.names": "CONTROLLER",
        "inter.broker.listener.name": "PLAINTEXT",
        "listener.security.protocol.map": "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
        "log.dirs": log_dir,
        # as deploy/: topics are created on purpose, with replication 3 and 2 in sync
        "auto.create.topics.enable": "false",
        "default.replication.factor": replicas,
        "min.insync.replicas": in_sync,
        "offsets.topic.replication.factor": replicas,
        "offsets.topic.num.partitions": 8,
        "transaction.state.log.replication.factor": replicas,
        "transaction.state.log.min.isr": in_sync,
        "transaction.state.log.num.partitions": 8,
        # quick where only speed differs
        "group.initial.rebalance.delay.ms": 0,
        "group.min.session.timeout.ms": 1000,
        # a killed node is fenced, and its partitions led by others, after 3 s (not 9)
        "broker.session.timeout.ms": 3000,
        "broker.heartbeat.interval.ms": 1000,
        "log.segment.bytes": 1024 * 1024,
        "log.cleaner.backoff.ms": 1000,
        "num.network.threads": 2,
        "num.io.threads": 4,
        "num.recovery.threads.per.data.dir": 2,
    }
    return "".join(f"{key}={value}\n" for key, value in settings.items())


LOG4J = """status = warn
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.out.ref = out
logger.server.name = kafka.server.KafkaRaftServer
logger.server.level = info
logger.cleaner.name = kafka.log.LogCleaner
logger.cleaner.level = info
"""
"""Warnings and errors, the start line and what the log cleaner does."""

STARTED = "Kafka Server started"


@dataclasses.dataclass
class Node:
    node_id: int
    port: int
    controller_port: int
    folder: Path
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def log(self) -> Path:
        return self.folder / f"kafka-{self.starts}.log"

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


class Cluster:
    """Apache Kafka nodes on loopback, each a broker and a KRaft controller."""

    kind = "kafka"
    label = LABEL

    def __init__(self, folder: Path, nodes: int = 1, port: int | None = None) -> None:
        self.folder = folder
        self.libs = libs()
        ports = [(port or free_port(), free_port())]
        ports += [(free_port(), free_port()) for _ in range(nodes - 1)]
        self.nodes = {
            i: Node(i, p, c, folder / f"node-{i}") for i, (p, c) in enumerate(ports, start=1)
        }
        cluster_id = new_cluster_id()
        addresses = {i: (n.port, n.controller_port) for i, n in self.nodes.items()}
        formats = []
        for node in self.nodes.values():
            node.folder.mkdir(parents=True, exist_ok=True)
            props = node_properties(node.node_id, addresses, node.folder / "data")
            (node.folder / "server.properties").write_text(props, encoding="utf-8")
            (node.folder / "log4j2.properties").write_text(LOG4J, encoding="utf-8")
            # a short-lived tool: no optimising compiler, and the nodes' formats side by side
            command = self._command(
                "-XX:TieredStopAtLevel=1",
                "kafka.tools.StorageTool",
                "format",
                "-t",
                cluster_id,
                "-c",
                str(node.folder / "server.properties"),
            )
            formats.append(subprocess.Popen(command, stdout=PIPE, stderr=STDOUT, text=True))
        for formatting in formats:
            out, _ = formatting.communicate(timeout=START_TIMEOUT)
            if formatting.returncode != 0:
                raise KafkaUnavailable(f"kafka.tools.StorageTool format failed:\n{out}")

    @property
    def url(self) -> str:
        return "kafka://" + ",".join(f"127.0.0.1:{n.port}" for n in self.nodes.values())

    def _command(self, *args: str, heap: str = "256m") -> list[str]:
        return [
            _require("java", "Java 17 or later"),
            f"-Xmx{heap}",
            "-Djava.awt.headless=true",
            "-cp",
            str(self.libs / "*"),
            *args,
        ]

    def start(self, node_id: int | None = None) -> Cluster:
        """Start the node (every node when ``None``) and wait until it has started."""
        chosen = list(self.nodes.values()) if node_id is None else [self.nodes[node_id]]
        for node in chosen:
            node.starts += 1
            node.proc = subprocess.Popen(
                self._command(
                    f"-Dlog4j2.configurationFile={node.folder / 'log4j2.properties'}",
                    "kafka.Kafka",
                    str(node.folder / "server.properties"),
                    heap="512m",
                ),
                stdout=node.log.open("wb"),
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C of the caller does not reach it first
                preexec_fn=_die_with_parent,
            )
        deadline = time.monotonic() + START_TIMEOUT
        for node in chosen:
            while STARTED not in node.text():
                if not node.running():
                    raise KafkaUnavailable(
                        f"Kafka node {node.node_id} exited while starting:\n{node.text()[-3000:]}"
                    )
                if time.monotonic() > deadline:
                    self.stop()
                    raise KafkaUnavailable(f"Kafka node {node.node_id} did not start in time")
                time.sleep(0.1)
        return self

    def kill(self, node_id: int, sig: int = signal.SIGKILL) -> None:
        """End a node at once (SIGKILL: a crash) or cleanly (SIGTERM)."""
        node = self.nodes[node_id]
        if node.proc is not None and node.proc.poll() is None:
            node.proc.send_signal(sig)
            try:
                node.proc.wait(60)
            except subprocess.TimeoutExpired:
                node.proc.kill()
                node.proc.wait()

    def stop(self) -> None:
        """Stop every node (SIGKILL: the folders are thrown away with the cluster)."""
        for node_id in self.nodes:
            self.kill(node_id)


def start(folder: Path | None = None, nodes: int = 1, port: int | None = None) -> Cluster:
    """A started cluster in ``folder`` (a new temporary folder by default)."""
    folder = folder or Path(tempfile.mkdtemp(prefix=f"kafka-{uuid.uuid4().hex[:6]}-"))
    return Cluster(folder, nodes, port).start()


__all__ = ["KAFKA_VERSION", "LABEL", "Cluster", "KafkaUnavailable", "cache_root", "libs", "start"]
