"""Stored facts compacted (issue 22, point 6): a correction's fact carries the tournament's
state, and once its alerts are acknowledged the facts before it are released (their batches
hollow). A tournament corrected again and again is stored, and rebuilt by the next worker, as
its latest state and the few facts after it, not as the history of its corrections; and a
worker that dies anywhere in that history loses no alert."""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from streams.records import Released, StoredFact, decode_entries
from tests.support.corrections import cases, feed, rr
from tests.support.processor import Worker, deduped, expected_alerts, keyed
from tests.support.round_robins import RR, rr_events
from tracker import contract as ev

CYCLES = 30


def cycle(tid: str, last: ev.GameResult) -> list[ev.InputEvent]:
    """The last round reopened, its last board taken back, paired and played again."""
    board = {"tournament_id": tid, "round": last.round, "white": last.white, "black": last.black}
    return [
        ev.RoundReopened(tournament_id=tid, round=last.round),
        ev.PairingRemoved(**board),
        ev.Pairing(**board),
        last,
    ]


@functools.cache
def corrected(cycles: int = CYCLES) -> tuple[ev.InputEvent, ...]:
    events = rr_events(close_rounds=False)
    last = next(e for e in reversed(events) if isinstance(e, ev.GameResult))
    return (*events, *[e for _ in range(cycles) for e in cycle(RR, last)])


def stored_facts(worker: Worker) -> list[StoredFact]:
    return [
        item
        for value in worker.table.values()
        for item in decode_entries(value)
        if isinstance(item, StoredFact)
    ]


def test_a_tournament_corrected_again_and_again_is_stored_as_its_latest_state() -> None:
    events = corrected()
    worker = Worker([])
    worker.run(keyed(events), range(len(events)))
    worker.acknowledged()
    assert deduped(worker.sent) == expected_alerts(events)
    facts = stored_facts(worker)
    # the last cycle's pairing_removed carries the state; its pairing and result follow
    assert [type(f.event).__name__ for f in sorted(facts, key=lambda f: f.seq)] == [
        "PairingRemoved",
        "Pairing",
        "GameResult",
    ]
    assert [f.state is not None for f in sorted(facts, key=lambda f: f.seq)] == [
        True,
        False,
        False,
    ]

    again = Worker(list(worker.changelog))
    again.processor.rebuild(0, len(events), list(again.table.items()), again.lookup)
    assert len(again.processor.pending[RR]) == 3  # not the 100-odd facts of the history
    assert again.processor.peek(RR) == worker.processor.states[RR]
    # and the next correction gives the same alerts from both
    extra = cycle(RR, next(e for e in reversed(events) if isinstance(e, ev.GameResult)))
    messages = keyed([*events, *extra])
    before = len(worker.sent)
    worker.run(messages, range(len(events), len(messages)))
    again.run(messages, range(len(events), len(messages)))
    assert [a.alert_id for a in again.sent] == [a.alert_id for a in worker.sent[before:]]


@pytest.mark.parametrize("crash", range(4 * 2))
def test_a_worker_dying_in_a_correction_loses_no_alert(crash: int) -> None:
    """The first worker handles the messages up to one of the last two cycles' messages,
    whose alerts the broker never acknowledged; the next one takes over from its changelog
    and the message again: together they send every alert, none lost."""
    events = corrected(4)
    messages = keyed(events)
    at = len(events) - 4 * 2 + crash
    first = Worker([])
    first.run(messages, range(at))
    first.acknowledged()
    first.run(messages, [at])  # handled; its alerts sent, never acknowledged
    second = Worker(list(first.changelog))
    second.run(messages, range(at, len(messages)))
    assert deduped([*first.sent, *second.sent]) == expected_alerts(events)


@functools.cache
def sixteen() -> tuple[tuple[ev.InputEvent, ...], int, int]:
    """The sixteen mistakes of ``tests/support/corrections.py`` (rounds open or closed), each
    in its own round robin, all on one partition and interleaved: the feeds with the mistakes,
    the corrections with the feeds again, then a correction and its undoing each; and where
    the second and third parts start."""
    rng = random.Random(5)
    parts: list[list[list[ev.InputEvent]]] = [[], [], []]
    for close in (False, True):
        for i, name in enumerate(sorted(cases())):
            tid = f"fix{i}{'c' if close else 'o'}"
            mistake, fix = cases(tid)[name]
            events = rr(close, tid)
            last = next(
                e for e in reversed(events) if isinstance(e, ev.GameResult) and e.result != "1-0"
            )
            draw = ev.ResultCorrected(**{**last.model_dump(exclude={"type"}), "result": "1-0"})
            back = ev.ResultCorrected(**last.model_dump(exclude={"type"}))
            for part, more in zip(
                parts, (mistake(events), [*fix, *events], [draw, back]), strict=True
            ):
                part.append(more)
    out: list[ev.InputEvent] = []
    starts = []
    for lanes in parts:
        starts.append(len(out))
        queues = [list(q) for q in lanes]
        while queues:  # interleaved, each tournament in its order
            queue = rng.choice(queues)
            out.append(queue.pop(0))
            if not queue:
                queues.remove(queue)
    return tuple(out), starts[1], starts[2]


@pytest.mark.parametrize("crash", ["in the corrections", "after them"])
def test_tournaments_sharing_batches_are_rebuilt_from_their_states(
    crash: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Released facts of one tournament leave gaps in batches the others keep: a worker taking
    over skips everything before each tournament's acknowledged state, without re-reading
    the partition from the start, and the three workers send what the feed gives."""
    events, corrected, later = sixteen()
    messages = keyed(events)
    at = corrected + 100 if crash == "in the corrections" else later
    first = Worker([])
    first.run(messages, range(at))
    first.acknowledged()
    second = Worker(list(first.changelog))
    second.run(messages, range(at, later))
    second.acknowledged()
    third = Worker(list(second.changelog))
    third.run(messages, range(later, len(messages)))
    assert "re-reading the input from the start" not in caplog.text
    want = {}  # the transition's alerts, the refused facts left out (dead-lettered)
    for tid in {e.tournament_id for e in events}:
        _, alerts, _ = feed([e for e in events if e.tournament_id == tid])
        want.update({a.alert_id: a.model_dump_json() for a in alerts})
    assert deduped([*first.sent, *second.sent, *third.sent]) == want


@pytest.mark.parametrize("stale", ["in the round robin", "in the corrections"])
def test_a_rebuild_from_a_stale_commit_reads_released_history_from_the_input(
    stale: str,
) -> None:
    """Faust may deliver a partition again from an offset long handled (a commit lost or
    lagging): the rebuild must give the tournament its state at that offset, and its facts
    before the latest state were released. It is read back from the input topic, and the
    messages from that offset on are handled again: the same alerts, under the same ids."""
    events = corrected()
    messages = keyed(events)
    first = Worker([])
    first.run(messages, range(len(events)))
    first.acknowledged()
    at = 40 if stale == "in the round robin" else len(events) - 4 * CYCLES // 2
    second = Worker(list(first.changelog))
    second.run(messages, range(at, len(messages)))
    assert deduped([*first.sent, *second.sent]) == expected_alerts(events)
    assert second.processor.states[RR] == first.processor.states[RR]


def test_a_state_lost_from_the_buffer_after_its_release_is_read_from_the_input() -> None:
    """A correction with no alert of its own waits in the buffer; the acknowledgement of an
    earlier fact's alerts may release the history before it meanwhile. The worker dies
    there: the changelog has the release and the hollow batches, never the state. The next
    worker, delivered the partition from a later offset, reads the tournament back from the
    input up to the end of its stored chain and handles the rest again."""
    events = corrected()
    messages = keyed(events)
    first = Worker([])
    first.run(messages, range(len(events)))
    first.acknowledged()
    at = max(i for i, (key, _) in enumerate(first.changelog) if key.endswith("/released"))
    [released] = decode_entries(first.changelog[at][1] or b"")
    assert isinstance(released, Released)
    hollow = itertools.takewhile(
        lambda w: w[1] is None or b'"facts":[]' in w[1], first.changelog[at + 1 :]
    )
    died = [
        (key, value)
        for key, value in [*first.changelog[: at + 1], *hollow]
        if not any(f.offset == released.end for f in _facts(value))  # still in the buffer
    ]
    second = Worker(died)
    second.run(messages, range(released.end + 2, len(messages)))
    assert deduped([*first.sent, *second.sent]) == expected_alerts(events)
    assert second.processor.states[RR] == first.processor.states[RR]
    assert second.dead == []


def test_a_hollow_batch_kept_without_its_released_record_loses_no_tournament() -> None:
    """Found by the crash property run with corrections (changelog kept: nothing but one
    stray hollow batch). A release writes its :class:`Released` record, then the hollow
    batches; a changelog that keeps a hollow batch but not the record (the property's
    "stray later entries") gives a rebuild a chain through offsets whose facts no record
    stands for: here the tournament's registration, so every later message of it is a dead
    letter ("unknown tournament") and none of its alerts goes out. With two tournaments the
    same cut skips one game result in the middle: a wrong state, then wrong alerts."""
    events = corrected(4)
    messages = keyed(events)
    first = Worker([])
    first.run(messages, range(len(messages)))
    first.acknowledged()
    stray = next((k, v) for k, v in first.changelog if v is not None and b'"facts":[]' in v)
    second = Worker([stray])
    second.run(messages, [1, *range(1, len(messages))])  # a start, then Faust's repeat
    assert second.dead == []
    assert second.processor.states[RR] == first.processor.states[RR]


def _facts(value: bytes | None) -> list[StoredFact]:
    if value is None:
        return []
    return [item for item in decode_entries(value) if isinstance(item, StoredFact)]
