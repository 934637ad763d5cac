"""The topic settings the worker checks at start (:mod:`streams.topics`): what a production
cluster needs on each topic, every departure named with its topic and setting."""

from __future__ import annotations

from streams.settings import Settings
from streams.topics import Described, creation_configs, problems, roles
from tests.support.topics import KAFKA_DEFAULTS

S = Settings(app_id="app", replication_factor=3, partitions=4)


def as_created(settings: Settings = S) -> dict[str, Described]:
    """The topics as the worker creates them on Apache Kafka (its defaults filled in)."""
    return {
        name: Described(
            settings.partitions,
            settings.replication_factor,
            {**KAFKA_DEFAULTS, **creation_configs(settings, role)},
        )
        for name, role in roles(settings).items()
    }


def test_topics_as_the_worker_creates_them_pass() -> None:
    assert problems(S, as_created()) == ([], [])
    assert set(roles(S)) == {
        "tournament-events",
        "norm-alerts",
        "title-alerts",
        "ignorable-games",
        "round-summaries",
        "tournament-events-dead-letters",
        "title-facts",
        "app-facts-changelog",
        "app-titles-changelog",
    }


def test_a_compacted_or_shortened_input_is_refused() -> None:
    topics = as_created()
    topics["tournament-events"].configs.update(
        {"cleanup.policy": "compact", "retention.ms": "604800000"}
    )
    errors, _ = problems(S, topics)
    assert len(errors) == 2
    assert "tournament-events is compacted" in errors[0]
    assert "retention.ms=604800000" in errors[1]


def test_title_facts_are_kept_as_the_input_is() -> None:
    """The titles table reads its facts back after a gap, and they are keyed by FIDE id."""
    topics = as_created()
    topics["title-facts"].configs["cleanup.policy"] = "compact"
    [error], _ = problems(S, topics)
    assert "topic title-facts is compacted" in error


def test_a_changelog_that_deletes_is_refused() -> None:
    topics = as_created()
    topics["app-facts-changelog"].configs["cleanup.policy"] = "compact,delete"
    [error], _ = problems(S, topics)
    assert "app-facts-changelog has cleanup.policy=compact,delete" in error


def test_replication_and_in_sync_replicas() -> None:
    topics = as_created()
    topics["norm-alerts"] = Described(4, 1, topics["norm-alerts"].configs)
    topics["title-alerts"].configs["min.insync.replicas"] = "1"
    errors, _ = problems(S, topics)
    assert errors == [
        "topic norm-alerts has 1 replicas, but TRACKER_REPLICATION_FACTOR is 3",
        "topic title-alerts has min.insync.replicas=1: with acks=all a write held by one "
        "broker would be acknowledged; set it to 2",
    ]
    single = Settings(app_id="app")  # one broker: nothing to ask of replication
    assert problems(single, as_created(single)) == ([], [])


def test_alert_topics_and_changelog_need_room_for_the_largest_record() -> None:
    topics = as_created()
    topics["round-summaries"].configs["max.message.bytes"] = "1048588"
    topics["tournament-events-dead-letters"].configs["max.message.bytes"] = "1048588"
    [error], _ = problems(S, topics)
    assert error.startswith("topic round-summaries has max.message.bytes=1048588")
    assert str(S.record_room) in error


def test_a_partition_count_other_than_the_settings() -> None:
    topics = as_created()
    topics["tournament-events"] = Described(6, 3, topics["tournament-events"].configs)
    [error], _ = problems(S, topics)
    assert "has 6 partitions, but TRACKER_PARTITIONS is 4" in error


def test_settings_the_broker_does_not_report_are_named_not_guessed() -> None:
    """Tansu reports only the settings given at creation."""
    reported = {name: Described(4, 3, creation_configs(S, role)) for name, role in roles(S).items()}
    errors, unknown = problems(S, reported)
    assert errors == []
    assert "norm-alerts: cleanup.policy" in unknown
    assert "tournament-events: max.message.bytes" not in unknown  # not asked of the input
