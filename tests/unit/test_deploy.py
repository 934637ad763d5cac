"""``deploy/`` as it would run (no Docker engine here): the Dockerfile's build context gives a
wheel with every package, the compose file and the manifests name the Kafka version CI runs,
and the topics they create pass the checks the worker makes at start."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import yaml

from streams.kafka_server import KAFKA_VERSION
from streams.settings import Settings
from streams.topics import Described, problems
from tests.support.paths import ROOT
from tests.support.topics import KAFKA_DEFAULTS

DEPLOY = ROOT / "deploy"
PACKAGES = ("tracker", "streams", "follow", "cli")
"""The top-level packages pyproject.toml installs."""


def copied(dockerfile: Path) -> list[str]:
    """The sources of the Dockerfile's ``COPY`` lines (paths in the build context, the root)."""
    out = []
    for line in dockerfile.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if parts[:1] == ["COPY"] and not any(p.startswith("--from") for p in parts):
            out.extend(parts[1:-1])
    return out


def test_the_dockerfile_installs_a_wheel_with_every_package(tmp_path: Path) -> None:
    """The Dockerfile runs ``pip install '.[streams]'`` on what it copied: build that wheel
    from exactly those files, as pip does, and look inside."""
    context = tmp_path / "context"
    context.mkdir()
    sources = copied(DEPLOY / "Dockerfile")
    for source in sources:
        path = ROOT / source
        if path.is_dir():
            shutil.copytree(path, context / source, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(path, context / source)
    assert "streams" in (DEPLOY / "Dockerfile").read_text(encoding="utf-8").split("'.[")[1]
    built = subprocess.run(
        [
            sys.executable,
            *("-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"),
            *("--wheel-dir", str(tmp_path / "dist"), str(context)),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    [wheel] = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {
        str(p.relative_to(ROOT))
        for top in PACKAGES
        for p in (ROOT / top).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert wanted - names == set(), "files of the packages missing from the image's wheel"
    assert any(n.endswith("entry_points.txt") for n in names)


def images(path: Path) -> set[str]:
    return set(re.findall(r"image:\s*(apache/kafka\S*)", path.read_text(encoding="utf-8")))


def test_compose_and_manifests_run_the_kafka_version_ci_runs() -> None:
    for path in (
        DEPLOY / "docker-compose.yml",
        DEPLOY / "k8s/kafka.yaml",
        DEPLOY / "k8s/topics.yaml",
    ):
        assert images(path) == {f"apache/kafka:{KAFKA_VERSION}"}, path


def created_topics(script: str, broker_defaults: dict[str, str]) -> dict[str, Described]:
    """The topics a ``kafka-topics.sh --create`` script makes (``for t in ...`` loops
    expanded), with the broker's defaults for what it does not set."""
    out: dict[str, Described] = {}
    loop: list[str] = []
    for line in script.splitlines():
        if m := re.search(r"for \w+ in ([^;]+); do", line):
            loop = m.group(1).split()
        if line.strip() == "done":
            loop = []
        if "--create" not in line:
            continue
        topic = re.search(r"--topic (\S+)", line).group(1)  # type: ignore[union-attr]
        partitions = int(re.search(r"--partitions (\d+)", line).group(1))  # type: ignore[union-attr]
        replicas = int(re.search(r"--replication-factor (\d+)", line).group(1))  # type: ignore[union-attr]
        configs = dict(c.split("=", 1) for c in re.findall(r"--config (\S+)", line))
        for name in loop if "$" in topic else [topic]:
            out[name] = Described(partitions, replicas, {**broker_defaults, **configs})
    return out


def worker_settings(env: dict[str, str]) -> Settings:
    return Settings(
        **{
            k.removeprefix("TRACKER_").lower(): v
            for k, v in env.items()
            if k.startswith("TRACKER_")
        }
    )


def broker_defaults(env: dict[str, str]) -> dict[str, str]:
    """Kafka's topic defaults with the broker's ``KAFKA_*`` overrides (the image's
    environment variables)."""
    overrides = {"KAFKA_MIN_INSYNC_REPLICAS": "min.insync.replicas"}
    return {**KAFKA_DEFAULTS, **{overrides[k]: v for k, v in env.items() if k in overrides}}


def documents(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]


def test_the_manifests_topics_pass_the_workers_checks() -> None:
    [statefulset] = [d for d in documents(DEPLOY / "k8s/kafka.yaml") if d["kind"] == "StatefulSet"]
    [broker] = statefulset["spec"]["template"]["spec"]["containers"]
    defaults = broker_defaults({e["name"]: e.get("value", "") for e in broker["env"]})
    [job] = documents(DEPLOY / "k8s/topics.yaml")
    [creator] = job["spec"]["template"]["spec"]["containers"]
    topics = created_topics(creator["args"][0], defaults)
    [config] = [d for d in documents(DEPLOY / "k8s/worker.yaml") if d["kind"] == "ConfigMap"]
    settings = worker_settings(config["data"])
    assert settings.replication_factor == 3
    assert len(topics) == 7, topics  # all but the changelogs, which the worker creates
    assert problems(settings, topics) == ([], [])
    assert defaults["min.insync.replicas"] == "2"


def test_the_compose_files_topics_pass_the_workers_checks() -> None:
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text(encoding="utf-8"))
    env = compose["services"]["worker"]["environment"]
    defaults = broker_defaults(compose["services"]["kafka"]["environment"])
    topics = created_topics(
        compose["services"]["topics"]["command"][0].replace("$$", "$"), defaults
    )
    assert len(topics) == 7, topics
    assert problems(worker_settings(env), topics) == ([], [])


def test_the_check_would_catch_a_manifest_that_shortens_the_input() -> None:
    """The parser reads what the script says: a shortened input would be refused."""
    script = (
        "k --create --topic tournament-events --partitions 24 --replication-factor 3 "
        "--config retention.ms=604800000"
    )
    topics = created_topics(script, broker_defaults({"KAFKA_MIN_INSYNC_REPLICAS": "2"}))
    errors, _ = problems(Settings(replication_factor=3, partitions=24), topics)
    assert errors == [
        "topic tournament-events has retention.ms=604800000: it is a source of truth and "
        "must be kept forever (retention.ms=-1)"
    ]
