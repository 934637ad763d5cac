"""The worker's title applications without Kafka (:mod:`streams.titles`): title facts from
the tournament alerts, the ``titles`` table, and reading a partition back after a gap."""

from __future__ import annotations

from streams.titles import Titles, offset_key, title_messages
from tests.support.builders import FIDE_2024
from tests.support.titles import CANDIDATE, seed_events
from tracker import contract as ev
from tracker.host.replay import Replay, Sourced


def messages() -> list[tuple[bytes, bytes]]:
    """The title facts the seeds' alerts give, in the order the worker sends them."""
    out = []
    for events in seed_events().values():
        run = Replay()
        for e in events:
            alerts = run.feed(Sourced(e, ""))
            out += title_messages(alerts, run.states[e.tournament_id].tournament)
    return out


def handle_all(
    titles: Titles, table: dict[str, bytes], found: list[tuple[bytes, bytes]], first: int = 0
) -> list[ev.OutputEvent]:
    alerts: list[ev.OutputEvent] = []
    for offset, (key, value) in enumerate(found, first):
        outcome = titles.handle(table.get, key, value, 0, offset)
        alerts += outcome.alerts
        table.update(outcome.writes)
    return alerts


def test_the_seeds_facts_complete_the_application_once() -> None:
    found = messages()
    assert {key for key, _ in found} >= {str(CANDIDATE).encode()}
    table: dict[str, bytes] = {}
    alerts = handle_all(Titles("title-facts", rules=lambda: FIDE_2024), table, found)
    complete = [a for a in alerts if a.type == "title_application_complete"]
    assert len(complete) == 1
    assert complete[0].tournament_id == "titles-3-2025-09"
    assert table[offset_key(0)] == str(len(found) - 1).encode()
    # the same facts again (a partition read back) change nothing and say nothing
    assert handle_all(Titles("title-facts", rules=lambda: FIDE_2024), table, found) == []


def test_after_a_gap_the_partition_is_read_back_from_the_table_s_offset() -> None:
    titles = Titles("title-facts", rules=lambda: FIDE_2024)
    table: dict[str, bytes] = {}
    assert titles.resume_from(table.get, 0, 0) is None  # nothing before the first message
    assert titles.resume_from(table.get, 0, 5) == 0
    handle_all(titles, table, messages()[:3])
    assert titles.resume_from(table.get, 0, 3) is None  # the next one: no gap
    fresh = Titles("title-facts")
    assert fresh.resume_from(table.get, 0, 7) == 3  # a new worker: 3 to 6 are read back


def test_an_unreadable_title_fact_is_dead_lettered() -> None:
    titles = Titles("title-facts", rules=lambda: FIDE_2024)
    outcome = titles.handle({}.get, b"1", b'{"type": "norm_recorded"}', 2, 9)
    assert outcome.dead_letter is not None
    assert (outcome.dead_letter.topic, outcome.dead_letter.offset) == ("title-facts", 9)
    assert outcome.writes == ((offset_key(2), b"9"),)
