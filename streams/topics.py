"""The settings each topic of the worker needs, to create it with and to check at start
(``deploy/README.md``, "Topics", says why each one matters). No Kafka here:
:func:`streams.kafka.prepare` describes the topics and passes what the broker said.

* the **input** topic is the source of truth: never compacted, never shortened
  (``cleanup.policy=delete``, ``retention.ms=-1``, ``retention.bytes=-1``); so is the
  internal **title-facts** topic for the ``titles`` table (:mod:`streams.titles`), which reads
  it back after a gap (keyed by FIDE id: compaction would keep one fact per player);
* the **changelogs** of the ``facts`` and ``titles`` tables are compacted, and only compacted
  (``delete`` would drop the facts of tournaments in play), with room for the largest record;
* the **alert** topics have room for the largest record (``max.message.bytes``); their
  retention is the subscribers' choice;
* every topic has at least ``TRACKER_REPLICATION_FACTOR`` replicas, and with 3 or more
  ``min.insync.replicas`` of at least 2, so that a write acknowledged under ``acks=all``
  survives the loss of its leader.

>>> s = Settings(replication_factor=3)
>>> creation_configs(s, "changelog")["cleanup.policy"]
'compact'
>>> creation_configs(s, "input")["min.insync.replicas"]
'2'
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from streams.settings import Settings

Role = Literal["input", "alerts", "dead_letters", "changelog"]
"""What a topic is to the worker; the internal title-facts topic has the input's role."""


@dataclasses.dataclass(frozen=True)
class Described:
    """What the broker says of a topic: partitions, replicas and its configuration (with the
    broker's defaults filled in; Tansu reports only what was set at creation)."""

    partitions: int
    replicas: int
    configs: dict[str, str]


def min_in_sync(settings: Settings) -> int:
    """The ``min.insync.replicas`` the topics need: 2 from replication 3 on, else none."""
    return 2 if settings.replication_factor >= 3 else 1


def creation_configs(settings: Settings, role: Role) -> dict[str, str]:
    """The configuration a topic of ``role`` is created with."""
    configs: dict[str, str] = {}
    if min_in_sync(settings) > 1:
        configs["min.insync.replicas"] = str(min_in_sync(settings))
    if role == "input":
        configs.update({"cleanup.policy": "delete", "retention.ms": "-1", "retention.bytes": "-1"})
    if role in ("alerts", "changelog"):
        configs["max.message.bytes"] = str(settings.record_room)
    if role == "changelog":
        configs["cleanup.policy"] = "compact"
    return configs


def roles(settings: Settings) -> dict[str, Role]:
    """The worker's topics by name (the changelog named as Faust names it)."""
    out: dict[str, Role] = {settings.topic("input"): "input"}
    out.update(dict.fromkeys(settings.output_topics.values(), "alerts"))
    out[settings.topic("dead_letters")] = "dead_letters"
    out[settings.topic("title_facts")] = "input"
    out[changelog_topic(settings)] = "changelog"
    out[changelog_topic(settings, "titles")] = "changelog"
    return out


def changelog_topic(settings: Settings, table: str = "facts") -> str:
    """A table's changelog (Faust names it ``<app id>-<table>-changelog``): by default the
    ``facts`` table's; the ``titles`` table's (:mod:`streams.titles`) with ``table``."""
    return f"{settings.app_id}-{table}-changelog"


def problems(settings: Settings, described: dict[str, Described]) -> tuple[list[str], list[str]]:
    """What is wrong with the topics (each a sentence naming the topic and the setting), and
    what the broker did not say (warnings: not checked)."""
    errors: list[str] = []
    unknown: list[str] = []
    for name, role in roles(settings).items():
        topic = described.get(name)
        if topic is None:
            continue
        configs = topic.configs

        def value(key: str, name: str = name, configs: dict[str, str] = configs) -> str | None:
            if key not in configs:
                unknown.append(f"{name}: {key}")
            return configs.get(key)

        if role in ("input", "changelog") and topic.partitions != settings.partitions:
            errors.append(
                f"topic {name} has {topic.partitions} partitions, but TRACKER_PARTITIONS "
                f"is {settings.partitions}: set TRACKER_PARTITIONS={topic.partitions}, or "
                "use new topics (TRACKER_TOPIC_PREFIX and TRACKER_APP_ID); a partition "
                "count cannot change in place (deploy/README.md, Partitions)"
            )
        if topic.replicas < settings.replication_factor:
            errors.append(
                f"topic {name} has {topic.replicas} replicas, but TRACKER_REPLICATION_FACTOR "
                f"is {settings.replication_factor}"
            )
        need = min_in_sync(settings)
        in_sync = value("min.insync.replicas")
        if need > 1 and in_sync is not None and int(in_sync) < need:
            errors.append(
                f"topic {name} has min.insync.replicas={in_sync}: with acks=all a write held "
                f"by one broker would be acknowledged; set it to {need}"
            )
        policy = value("cleanup.policy")
        if role == "input":
            if policy is not None and "compact" in policy:
                errors.append(
                    f"topic {name} is compacted (cleanup.policy={policy}): it is a source of "
                    "truth, compaction would keep one message per key"
                )
            for key in ("retention.ms", "retention.bytes"):
                kept = value(key)
                if kept is not None and kept != "-1":
                    errors.append(
                        f"topic {name} has {key}={kept}: it is a source of truth and must "
                        f"be kept forever ({key}=-1)"
                    )
        if role == "changelog" and policy is not None and policy != "compact":
            errors.append(
                f"topic {name} has cleanup.policy={policy}: the facts' changelog must be "
                "compacted only (cleanup.policy=compact), or facts of tournaments in play "
                "are deleted"
            )
        if role in ("alerts", "changelog"):
            room = value("max.message.bytes")
            if room is not None and int(room) < settings.record_room:
                errors.append(
                    f"topic {name} has max.message.bytes={room}: the worker writes records "
                    f"of up to {settings.record_room} bytes (TRACKER_MAX_MESSAGE_BYTES + 64 kB)"
                )
    return errors, unknown


__all__ = [
    "Described",
    "Role",
    "changelog_topic",
    "creation_configs",
    "min_in_sync",
    "problems",
    "roles",
]
