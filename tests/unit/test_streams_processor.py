"""The worker's processing and recovery logic, without Kafka: a partition is a list of
messages, the changelog a list of table writes, a crash a cut in both, and Faust's delivery
any sequence of offsets (with the gaps and repeats it produces after an assignment)."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streams.processor import FactBuffer
from streams.records import (
    SentMark,
    StoredFact,
    decode_entries,
    decode_stored,
)
from streams.synthetic import interleave, round_robin
from tests.support.processor import Worker, deduped, expected_alerts, keyed
from tracker import contract as ev


@functools.cache
def two_tournaments() -> tuple[ev.InputEvent, ...]:
    return tuple(interleave([round_robin("a", 6, seed=2), round_robin("b", 6, seed=3)]))


@functools.cache
def uninterrupted() -> Worker:
    events = two_tournaments()
    worker = Worker([])
    worker.run(keyed(events), range(len(events)))
    return worker


def test_uninterrupted_run_sends_what_replay_prints() -> None:
    events = two_tournaments()
    worker = uninterrupted()
    assert deduped(worker.sent) == expected_alerts(events)
    assert len(worker.sent) == len(expected_alerts(events))  # nothing twice
    assert worker.dead == []


def test_repeated_events_store_nothing_and_send_nothing() -> None:
    events = two_tournaments()
    doubled = [m for m in keyed(events) for _ in range(2)]
    worker = Worker([])
    worker.run(doubled, range(len(doubled)))
    assert len(worker.sent) == len(expected_alerts(events))
    assert deduped(worker.sent) == expected_alerts(events)
    facts = list(worker.facts().values())
    assert len(facts) == len(events)  # one per event, none for its repeat
    assert [f.event for f in facts] == [f.event for f in uninterrupted().facts().values()]


Draw = Callable[[st.SearchStrategy[Any], str], Any]
"""Draws a value from a strategy under a label (``data.draw``, or a scripted sequence)."""


@dataclasses.dataclass
class Crash:
    """What :func:`crash_and_recover` did: the alerts the broker holds from the first worker,
    the changelog the second one recovered, and the second worker."""

    delivered: list[ev.OutputEvent]
    recovered: list[tuple[str, bytes | None]]
    second: Worker


def crash_and_recover(draw: Draw) -> Crash:
    """A worker dies after handling ``crashed_at`` messages with offsets committed up to
    ``committed``; the changelog kept any prefix of its writes (plus stray later ones). The
    broker has every alert of the messages below ``committed`` (the producer is flushed
    before a commit) and those covered by a sent mark that survived, in the prefix or as a
    stray (a mark is written only once the broker has acknowledged the alerts it covers:
    ``streams.faust.agents.Tracker.mark_acknowledged``). The next worker gets the messages
    from ``committed`` on, with a gap and a repeat such as Faust produces. Together they
    send every alert replay prints, and nothing else."""
    events = two_tournaments()
    messages = keyed(events)
    n = len(messages)
    crashed_at = draw(st.integers(0, n), "crashed_at")
    committed = draw(st.integers(0, crashed_at), "committed")
    first = Worker([])
    delivered: list[ev.OutputEvent] = []
    alerts_of: dict[str, tuple[ev.OutputEvent, ...]] = {}
    for offset in range(crashed_at):
        before = len(first.sent)
        first.run(messages, [offset])
        if offset < committed:
            delivered.extend(first.sent[before:])
        for _, value in first.changelog:
            for item in decode_entries(value):
                if isinstance(item, StoredFact) and item.offset == offset:
                    alerts_of[item.key()] = tuple(first.sent[before:])
    kept = draw(st.integers(0, len(first.changelog)), "changelog kept")
    later = draw(st.lists(st.integers(0, max(0, n - 1)), max_size=4), "strays")
    recovered = first.changelog[:kept] + [
        first.changelog[i] for i in sorted(set(later)) if kept <= i < len(first.changelog)
    ]
    for _, value in recovered:
        item = decode_stored(value)
        if isinstance(item, SentMark):
            for seq in range(item.upto + 1):
                delivered.extend(alerts_of.get(f"{item.tournament_id}/{seq}", ()))

    offsets = list(range(committed, n))
    if len(offsets) > 1:  # a gap shows only when a later message comes
        gap_at = draw(st.integers(0, len(offsets) - 2), "gap at")
        gap = draw(st.integers(0, min(5, len(offsets) - 1 - gap_at)), "gap length")
        del offsets[gap_at : gap_at + gap]
    if offsets:
        again = draw(st.integers(0, len(offsets) - 1), "repeat at")
        offsets.insert(again + 1, offsets[again])
    second = Worker(list(recovered))  # it appends its own writes to the list it gets
    second.run(messages, offsets)

    want = expected_alerts(events)
    assert deduped([*delivered, *second.sent]) == want
    assert set(deduped(second.sent)) <= set(want)
    if offsets:  # the restarted worker saw a message, so rebuilt: the facts are whole again
        facts = second.facts()
        assert {k: facts[k] for k in uninterrupted().facts()} == uninterrupted().facts()
    return Crash(delivered, recovered, second)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_no_alert_is_lost_whatever_the_crash_and_the_delivery(data: st.DataObject) -> None:
    crash_and_recover(lambda strategy, label: data.draw(strategy, label=label))


def test_a_sent_mark_kept_as_a_stray_counts_as_delivered() -> None:
    """The draws hypothesis found (crashed_at 57, committed 47, changelog kept 13, strays
    [13], gap at 4 of length 5, repeat at 0): the stray is tournament a's sent mark up to
    fact 30, whose round-4 alerts (message 55, above the commit) the broker acknowledged
    before the mark was written. The restarted worker rightly does not send them again; the
    property's model once counted only the marks in the kept prefix, so it called them
    lost."""
    draws = iter([57, 47, 13, [13], 4, 5, 0])
    crash = crash_and_recover(lambda _strategy, _label: next(draws))
    assert next(draws, None) is None  # every scripted draw was taken
    stray = crash.recovered[-1][1]
    assert stray is not None
    assert decode_stored(stray) == SentMark(partition=0, tournament_id="a", upto=30)
    round_4 = [a for a in crash.delivered if a.tournament_id == "a" and a.round == 4]
    assert {a.type for a in round_4} == {"round_finished", "title_rating_reached"}
    ids = {a.alert_id for a in round_4}
    assert not ids & {a.alert_id for a in crash.second.sent}  # acknowledged: not sent twice


def test_alerts_marked_sent_are_not_sent_again() -> None:
    events = two_tournaments()
    messages = keyed(events)
    first = Worker([])
    first.run(messages, range(len(messages)))
    first.acknowledged()
    second = Worker(list(first.changelog))
    # after a restart, a repeated registration: its tournament replays, nothing is resent
    second.run([*messages, messages[0]], [len(messages)])
    assert second.processor.states["a"] == first.processor.states["a"]
    assert second.sent == []


def test_alerts_without_a_sent_mark_are_sent_again_at_once() -> None:
    events = two_tournaments()
    messages = keyed(events)
    first = Worker([])
    first.run(messages, range(len(messages)))  # the last message's alerts are not marked
    last = first.sent[-1]
    second = Worker(list(first.changelog))
    second.rebuild(messages, len(messages))  # a rebuild, no message of that tournament yet
    assert last in second.sent


def test_rebuild_falls_back_to_the_input_when_the_chain_is_corrupt() -> None:
    events = two_tournaments()
    messages = keyed(events)
    first = Worker([])
    first.run(messages, range(40))
    table = dict(first.changelog)
    key, value = next((k, v) for k, v in first.changelog if "facts" in json.loads(v))
    body = json.loads(value)
    body["facts"][-1]["s"] = 99  # a stored fact out of sequence
    table[key] = json.dumps(body).encode()
    second = Worker(list(table.items()))
    assert second.processor.rebuild(0, 40, list(second.table.values())) == 0


def test_stored_facts_the_core_refuses_send_the_worker_back_to_the_input() -> None:
    events = two_tournaments()
    messages = keyed(events)
    first = Worker([])
    first.run(messages, range(40))
    first.acknowledged()
    table = dict(first.changelog)
    key, body, fact = next(
        (k, body, f)
        for k, v in table.items()
        if "facts" in (body := json.loads(v))
        for f in body["facts"]
        if f["e"]["tournament_id"] == "a" and f["s"] > 0
    )
    fact["e"] = {"type": "round_closed", "tournament_id": "a", "round": 77}  # refused
    table[key] = json.dumps(body).encode()
    second = Worker(list(table.items()))
    second.run(messages, range(40, len(messages)))
    assert deduped([*first.sent, *second.sent]) == expected_alerts(events)
    assert second.facts() == uninterrupted().facts()


def test_a_take_over_replays_a_tournament_only_when_it_gets_a_message() -> None:
    events = two_tournaments()
    messages = keyed(events)
    first = Worker([])
    first.run(messages, range(len(messages)))
    first.acknowledged()
    second = Worker(list(first.changelog))
    second.processor.rebuild(0, len(messages), list(second.table.values()))
    assert set(second.processor.pending) == {"a", "b"}
    assert second.processor.overdue(0) == []
    assert second.processor.states == {}
    assert not second.processor.unknown("a")
    assert all(o.alerts == () for o in second.processor.materialize("a"))
    assert set(second.processor.pending) == {"b"}
    assert second.processor.states["a"] == first.processor.states["a"]


def test_a_correction_that_breaks_a_norm_revokes_it_once() -> None:
    events = round_robin("rr1", 10, seed=1)
    fix = ev.ResultCorrected(tournament_id="rr1", round=2, white=5, black=4, result="0-1")
    want = expected_alerts([*events, fix])
    assert any('"norm_revoked"' in a for a in want.values())
    messages = keyed([*events, fix, fix])
    worker = Worker([])
    worker.run(messages, range(len(messages)))
    assert deduped(worker.sent) == want
    assert len(worker.sent) == len(want)


@pytest.mark.parametrize(
    ("value", "key", "field", "reason"),
    [
        (b"{not json", b"t", None, "malformed JSON"),
        (b'{"type": "resignation", "tournament_id": "t"}', b"t", "type", "type"),
        (
            b'{"type": "round_closed", "tournament_id": "nope", "round": 1}',
            b"nope",
            "tournament_id",
            "unknown tournament 'nope'",
        ),
        (
            b'{"type": "pairing", "tournament_id": "t", "round": 1, "white": 1, "black": 77}',
            b"t",
            "black",
            "unknown player with start rank 77",
        ),
        (
            b'{"type": "game_result", "tournament_id": "t", "round": 1, "white": 1, '
            b'"black": 2, "result": "2-0"}',
            b"t",
            "result",
            "impossible result",
        ),
        (
            b'{"type": "pairing", "tournament_id": "t", "round": 1, "white": 3, "black": 3}',
            b"t",
            "black",
            "against themself",
        ),
        (
            b'{"type": "game_result", "tournament_id": "t", "round": 1, "white": 1, '
            b'"black": 2, "result": "0-1"}',
            b"t",
            "result",
            "already has the result",
        ),
        (
            b'{"type": "round_closed", "tournament_id": "t", "round": 1}',
            b"other",
            "tournament_id",
            "message key must be the tournament id",
        ),
    ],
)
def test_bad_input_goes_to_the_dead_letters_and_leaves_state_alone(
    value: bytes, key: bytes, field: str | None, reason: str
) -> None:
    setup: list[ev.InputEvent] = [
        ev.TournamentRegistered(tournament_id="t", start_date=date(2011, 1, 1), planned_rounds=3),
        *(
            ev.PlayerRegistered(tournament_id="t", rank=r, name=f"P{r}", federation="GER")
            for r in (1, 2, 3, 4)
        ),
        ev.GameResult(tournament_id="t", round=1, white=1, black=2, result="1-0"),
    ]
    worker = Worker([])
    messages = [*keyed(setup), (key, value)]
    worker.run(messages, range(len(setup)))
    before = worker.processor.states["t"]
    stored = len(worker.changelog)
    worker.run(messages, [len(setup)])
    assert len(worker.dead) == 1
    letter = worker.dead[0]
    assert letter["field"] == field
    assert reason in str(letter["reason"])
    assert letter["offset"] == len(setup)
    assert letter["partition"] == 0
    assert letter["raw"] == value.decode()
    assert worker.processor.states["t"] is before
    assert len(worker.changelog) == stored


def test_stored_fact_round_trip_is_compact() -> None:
    event = ev.GameResult(
        tournament_id="gm-roundrobin-2011", round=3, white=1, black=8, result="1/2-1/2"
    )
    fact = StoredFact(partition=2, offset=1234, prev=1200, seq=57, event=event, alerts=2)
    assert StoredFact.decode(fact.encode()) == fact
    assert decode_stored(fact.encode()) == fact
    assert len(fact.key()) + len(fact.encode()) < 200
    mark = SentMark(partition=2, tournament_id=fact.event.tournament_id, upto=fact.seq)
    assert decode_stored(mark.encode()) == mark


def test_facts_go_to_the_table_in_batches_closed_by_alerts_or_size() -> None:
    """One table entry (one changelog message) per round's worth of facts, not per game."""
    buffer = FactBuffer(size=3, max_bytes=1000)
    event = ev.RoundClosed(tournament_id="t", round=1)
    facts = [StoredFact(partition=1, offset=i, prev=i - 1, seq=i, event=event) for i in range(7)]
    assert buffer.add(facts[0], 50, alerts=False) is None
    assert buffer.add(facts[1], 50, alerts=False) is None
    full = buffer.add(facts[2], 50, alerts=False)  # the count is reached
    assert full is not None
    assert full.facts == tuple(facts[:3])
    closed = buffer.add(facts[3], 50, alerts=True)  # alerts close a batch
    assert closed is not None
    assert closed.facts == (facts[3],)
    assert decode_entries(closed.encode()) == (facts[3],)
    assert closed.key() == "1@3"
    assert buffer.add(facts[4], 600, alerts=False) is None
    big = buffer.add(facts[5], 600, alerts=False)  # the input bytes are reached
    assert big is not None
    assert big.facts == (facts[4], facts[5])
    assert buffer.add(facts[6], 50, alerts=False) is None
    buffer.drop(1)  # a rebuild: those facts are re-read from the input
    assert buffer.take(1) is None
