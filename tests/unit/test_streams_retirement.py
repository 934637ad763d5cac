"""Finished tournaments leave the worker's memory and its table, and come back from the input
topic when a late event arrives (no broker: the worker as in ``test_streams_processor``)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from streams.processor import Limits
from streams.records import (
    Archived,
    FactBatch,
    FactSent,
    SentMark,
    StoredFact,
    decode_stored,
)
from streams.synthetic import interleave, round_robin
from tests.support.processor import NOW, Worker, deduped, expected_alerts, keyed
from tracker import contract as ev

GRACE = 100.0
LIMITS = Limits(finished_grace=GRACE, idle_retire=10 * GRACE)


def three() -> list[ev.InputEvent]:
    """``a`` and ``b`` play to the end; ``c`` stops after its second round."""
    c = [e for e in round_robin("c", 6, seed=5) if getattr(e, "round", 0) <= 2]
    return interleave([round_robin("a", 4, seed=1), round_robin("b", 6, seed=2), c])


def stored(worker: Worker) -> list[tuple[str, object]]:
    return [(k, decode_stored(v)) for k, v in worker.table.items()]


def test_a_finished_tournament_leaves_memory_and_table_after_the_grace_period() -> None:
    messages = keyed(three())
    worker = Worker([], LIMITS)
    worker.run(messages, range(len(messages)))
    assert worker.retire(NOW + GRACE / 2) == []
    assert worker.retire(NOW + GRACE) == ["a", "b"]
    proc = worker.processor
    assert proc.tournaments() == ["c"]
    assert set(proc.partition_of) == set(proc.seq) == set(proc.touched) == {"c"}
    entries = stored(worker)
    records = {v.tournament_id: v for _, v in entries if isinstance(v, Archived)}
    assert set(records) == {"a", "b"}
    assert records["a"].first == 0  # the registrations come first
    assert records["a"].seq == sum(1 for m in messages if m[0] == b"a")  # no repeats here
    assert [v.tournament_id for _, v in entries if isinstance(v, SentMark)] == ["c"]
    # what is left of a and b: facts in batches that also hold c's, and one hollow span
    for _, v in entries:
        if isinstance(v, FactBatch) and v.facts:
            assert any(f.event.tournament_id == "c" for f in v.facts)
    hollow = sorted(
        (v for _, v in entries if isinstance(v, FactBatch) and not v.facts), key=lambda b: b.prev
    )
    assert hollow
    ends = {b.last for b in hollow}
    assert not any(b.prev in ends for b in hollow), "neighbouring hollow batches are merged"
    assert hollow[-1].last == len(messages) - 1  # rounds 3-5 of a and b: one span
    # an idle tournament goes too, after the longer period
    assert worker.retire(NOW + 10 * GRACE) == ["c"]
    assert worker.processor.tournaments() == []
    assert [type(v).__name__ for _, v in stored(worker)].count("FactBatch") == 1


def test_nothing_with_alerts_in_flight_retires() -> None:
    messages = keyed(round_robin("a", 4, seed=1))
    worker = Worker([], LIMITS)
    worker.run(messages, range(len(messages)))
    assert worker.in_flight  # the last round's alerts, not acknowledged yet
    assert worker.processor.due(0, NOW + GRACE) == []
    worker.acknowledged()
    assert worker.processor.due(0, NOW + GRACE) == ["a"]


def test_a_late_correction_reads_a_retired_tournament_back_from_the_input() -> None:
    events = round_robin("rr1", 10, seed=1)
    fix = ev.ResultCorrected(tournament_id="rr1", round=2, white=5, black=4, result="0-1")
    later = ev.ResultCorrected(tournament_id="rr1", round=2, white=5, black=4, result="1-0")
    messages = keyed([*events, fix, later])
    worker = Worker([], LIMITS)
    worker.run(messages, range(len(events)))
    before = worker.processor.states["rr1"]
    assert worker.retire(NOW + GRACE) == ["rr1"]
    assert worker.processor.states == {}
    worker.run(messages, [len(events)])  # the late correction
    assert deduped(worker.sent) == expected_alerts([*events, fix])
    assert any(a.type == "norm_revoked" for a in worker.sent)
    assert worker.processor.states["rr1"] != before
    # retired again, and a fresh worker takes over: it reads the tournament back (history
    # from the input, then the correction's stored fact) when the next event comes
    worker.acknowledged()
    assert worker.retire(NOW + 2 * GRACE) == ["rr1"]
    second = Worker(list(worker.changelog), LIMITS)
    second.run(messages, [len(events) + 1])
    assert deduped([*worker.sent, *second.sent]) == expected_alerts([*events, fix, later])
    assert second.processor.seq["rr1"] == sum(1 for _ in events) + 2


def test_a_rebuild_takes_only_the_tournaments_in_play() -> None:
    messages = keyed(three())
    first = Worker([], LIMITS)
    first.run(messages, range(len(messages)))
    final_a = first.processor.states["a"]
    assert first.retire(NOW + GRACE) == ["a", "b"]
    second = Worker(list(first.changelog), LIMITS)
    registration_of_a = 0
    assert messages[registration_of_a][0] == b"a"
    # a resent registration of a retired tournament: read back, a repeat, nothing sent
    second.run([*messages, messages[registration_of_a]], [len(messages)])
    assert set(second.processor.pending) == {"c"}
    assert second.processor.states["a"] == final_a
    assert second.sent == []
    assert second.dead == []


def test_old_messages_of_a_retired_tournament_delivered_again_are_skipped() -> None:
    """A worker whose commits lagged gets the whole history again: no read-backs."""
    messages = keyed(three())
    first = Worker([], LIMITS)
    first.run(messages, range(len(messages)))
    first.retire(NOW + GRACE)
    second = Worker(list(first.changelog), LIMITS)
    second.run(messages, range(len(messages)))
    assert set(second.processor.states) == {"c"}  # a and b stayed retired
    assert {a.tournament_id for a in second.sent} == {"c"}  # c's handled again, same ids
    assert second.dead == []


def test_leftover_facts_of_a_retired_tournament_are_ignored() -> None:
    """A changelog cut short after the archive record but before the batches went hollow."""
    messages = keyed(three())
    first = Worker([], LIMITS)
    first.run(messages, range(len(messages)))
    mark = len(first.changelog)
    first.retire(NOW + GRACE)
    archive = [i for i, (k, _) in enumerate(first.changelog) if k.endswith("/archived")]
    cut = first.changelog[: max(archive) + 1]
    assert len(cut) > mark
    second = Worker(cut, LIMITS)
    second.rebuild(messages, len(messages))
    assert set(second.processor.pending) == {"c"}
    assert second.sent == []


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_no_alert_is_lost_with_retirement_crashes_and_late_events(data: st.DataObject) -> None:
    """Tournament ``a`` finishes early and is retired while ``b`` plays on; the worker dies
    at any point with any prefix of its changelog kept; the next worker gets the rest, and a
    late correction of ``a``. Every alert replay prints arrives, nothing else."""
    events = interleave([round_robin("a", 4, seed=1), round_robin("b", 6, seed=2)])
    fix = next(e for e in events if isinstance(e, ev.GameResult) and e.tournament_id == "a")
    late = ev.ResultCorrected(**{**fix.model_dump(exclude={"type"}), "result": "0-1"})
    if fix.result == "0-1":
        late = ev.ResultCorrected(**{**fix.model_dump(exclude={"type"}), "result": "1-0"})
    messages = keyed([*events, late])
    n = len(messages)
    a_done = max(i for i, m in enumerate(messages[:-1]) if m[0] == b"a") + 1
    retire_at = data.draw(st.integers(a_done, n - 1), label="retire at")
    crashed_at = data.draw(st.integers(0, n), label="crashed at")
    committed = data.draw(st.integers(0, crashed_at), label="committed")
    first = Worker([], LIMITS)
    delivered: list[ev.OutputEvent] = []
    alerts_of: dict[str, tuple[ev.OutputEvent, ...]] = {}
    for offset in range(crashed_at):
        if offset == retire_at:
            first.retire(NOW + GRACE)
        before = len(first.sent)
        first.run(messages, [offset])
        if offset < committed:
            delivered.extend(first.sent[before:])
        for fact in first.facts().values():
            if fact.offset == offset:
                alerts_of[fact.key()] = tuple(first.sent[before:])
    kept = data.draw(st.integers(0, len(first.changelog)), label="changelog kept")
    for _, value in first.changelog[:kept]:
        item = decode_stored(value) if value is not None else None
        if isinstance(item, SentMark):
            for seq in range(item.upto + 1):
                delivered.extend(alerts_of.get(f"{item.tournament_id}/{seq}", ()))
    second = Worker(first.changelog[:kept], LIMITS)
    offsets = list(range(committed, n))
    second.run(messages, offsets)
    want = expected_alerts([*events, late])
    assert deduped([*delivered, *second.sent]) == want
    if offsets:
        facts = {k: f for k, f in second.facts().items() if f.event.tournament_id == "b"}
        assert [f.event for f in sorted(facts.values(), key=lambda f: f.seq)] == [
            e for e in events if e.tournament_id == "b"
        ]


def test_archive_records_round_trip() -> None:
    record = Archived(partition=3, tournament_id="t/1", first=10, end=99, seq=40)
    assert decode_stored(record.encode()) == record
    assert record.key() == "t/1/archived"
    hollow = FactBatch.hollow(3, 10, 9, 99)
    assert json.loads(hollow.encode()) == {"p": 3, "prev": 9, "last": 99, "facts": []}
    assert hollow.key() == "3@10"
    fact = StoredFact(3, 5, 4, 0, ev.RoundClosed(tournament_id="t", round=1), done=True)
    assert decode_stored(fact.encode()) == fact


def test_sent_marks_of_older_workers_still_count_and_go_with_their_tournament() -> None:
    """Workers before the per-tournament mark wrote one mark per fact under
    ``<tournament id>/<sequence number>/sent``."""
    messages = keyed(round_robin("a", 4, seed=1))
    first = Worker([], LIMITS)
    first.run(messages, range(len(messages)))
    first.acknowledged()
    old: list[tuple[str, bytes | None]] = []
    for key, value in first.changelog:
        item = decode_stored(value) if value is not None else None
        if not isinstance(item, SentMark):
            old.append((key, value))
    with_alerts = [f for f in first.facts().values() if f.alerts]
    for fact in with_alerts:
        body = json.dumps({"p": 0, "sent": fact.key()}).encode()  # what they wrote
        assert decode_stored(body) == FactSent(0, fact.key())
        old.append((f"{fact.key()}/sent", body))
    second = Worker(old, LIMITS)
    second.rebuild(messages, len(messages))
    assert second.processor.overdue(0) == []
    assert second.sent == []
    writes = second.processor.retire(0, ["a"])
    deleted = {k for k, v in writes if v is None}
    assert {f"{f.key()}/sent" for f in with_alerts} <= deleted


def test_a_tournament_with_no_planned_rounds_retires_after_an_announced_round() -> None:
    """With no number of rounds planned, "finished" is: a round announced, then the grace
    period with no new fact; more rounds bring it back."""
    events = [
        e.model_copy(update={"planned_rounds": None})
        if isinstance(e, ev.TournamentRegistered)
        else e
        for e in round_robin("open", 4, seed=2)
    ]
    first_round = [e for e in events if getattr(e, "round", 0) <= 1]
    messages = keyed(events)
    worker = Worker([], LIMITS)
    worker.run(messages, range(len(first_round)))
    assert worker.processor.states["open"].announced == 1
    assert worker.retire(NOW + GRACE) == ["open"]
    worker.run(messages, range(len(first_round), len(messages)))  # round 2 on: read back
    assert deduped(worker.sent) == expected_alerts(events)
