"""Whatever comes in, what the worker writes has a bounded size, and no message can make it
fail forever (no broker: the worker as in ``test_streams_processor``)."""

from __future__ import annotations

import hashlib
import json

from streams.processor import Limits, Outcome, Processor
from streams.records import RAW_PREFIX_BYTES, Attempt, DeadLetter, decode_stored
from streams.synthetic import round_robin
from tests.support.processor import Worker, deduped, expected_alerts, keyed
from tracker import contract as ev


def poison() -> list[tuple[bytes | None, bytes]]:
    control = bytes(range(32)) * 10_000  # 320 kB of control bytes
    deep = b"[" * 100_000 + b"]" * 100_000
    name = json.dumps(
        {
            "type": "player_registered",
            "tournament_id": "good",
            "rank": 11,
            "name": "N" * 1_000_000,
            "federation": "GER",
        }
    ).encode()
    return [(b"good", control), (b"good", deep), (b"good", name), (b"x" * 50_000, b"{")]


def test_poison_messages_give_small_dead_letters_and_spare_the_others() -> None:
    good = round_robin("good", 6, seed=3)
    messages = [*keyed(good[:7]), *poison(), *keyed(good[7:])]
    worker = Worker([])
    worker.run(messages, range(len(messages)))
    assert deduped(worker.sent) == expected_alerts(good)
    assert len(worker.dead) == len(poison())
    for letter, (_, value) in zip(worker.dead, poison(), strict=True):
        assert len(json.dumps(letter)) < 6 * RAW_PREFIX_BYTES + 3000
        assert letter["raw_bytes"] == len(value)
        assert letter["raw_sha256"] == hashlib.sha256(value).hexdigest()
        assert letter["truncated"] == (len(value) > RAW_PREFIX_BYTES)
        assert len(str(letter["key"])) <= 200
    assert "65536 bytes" in str(worker.dead[0]["reason"])


def test_deep_json_under_the_size_limit_is_refused_not_raised() -> None:
    proc = Processor(topic="in", limits=Limits(max_input_bytes=1_000_000))
    deep = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
    outcome = proc.parse(b"t", deep, 0, 0)
    assert isinstance(outcome, Outcome)
    letter = outcome.dead_letter
    assert letter is not None
    assert letter.raw_bytes == len(deep)


def test_an_alert_too_large_for_a_record_refuses_its_event() -> None:
    events = round_robin("big", 6, seed=1)
    largest = max(len(v) for v in expected_alerts(events).values())
    limits = Limits(max_message_bytes=largest + 200)  # room for all but the largest
    worker = Worker([], limits)
    messages = keyed(events)
    worker.run(messages, range(len(messages)))
    refused = [d for d in worker.dead if "bytes (TRACKER_MAX_MESSAGE_BYTES)" in str(d["reason"])]
    assert refused
    assert all(len(a.model_dump_json()) < largest for a in worker.sent)
    assert refused[0]["raw"] == messages[int(str(refused[0]["offset"]))][1].decode()


def test_a_message_the_worker_keeps_failing_on_is_dead_lettered_after_the_attempts() -> None:
    events = round_robin("t", 4, seed=0)
    messages = keyed(events)
    first = Worker([])
    first.run(messages, range(5))
    bad = 5
    changelog = list(first.changelog)
    for count in range(1, 4):  # three workers die on the message, each recording it
        worker = Worker(list(changelog))
        worker.rebuild(messages, bad)
        key, value = worker.processor.failed(0, bad, "RecursionError: too deep")
        assert decode_stored(value) == Attempt(0, bad, count, "RecursionError: too deep")
        changelog.append((key, value))
    fourth = Worker(list(changelog))
    fourth.run(messages, range(bad, len(messages)))
    [letter] = fourth.dead
    assert letter["offset"] == bad
    assert "failed on it 3 times: RecursionError" in str(letter["reason"])
    # the tournament goes on without that message's fact (a pairing of round 1)
    assert isinstance(events[bad], ev.Pairing)


def test_entries_of_other_partitions_are_not_read_in_a_rebuild() -> None:
    proc = Processor(topic="in")
    recovery = proc.recover(0, 10, now=0.0)
    recovery.take(b"1@5", b"not json at all")
    recovery.take(b"2@7/attempt", b"neither")
    assert recovery.entries == 0
    recovery.take(b"0@3", b"unreadable")  # its own: read (and found unreadable)
    assert recovery.entries == 1
    assert recovery.finish(lambda _key: None) == 0


def test_dead_letters_of_old_workers_still_read() -> None:
    old = b'{"reason":"r","field":null,"raw":"x","key":null,"topic":"t","partition":0,"offset":1}'
    letter = DeadLetter.model_validate_json(old)
    assert letter.raw_bytes is None
    assert letter.truncated is False
