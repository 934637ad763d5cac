"""A worker's processor driven without Kafka, and what its alerts must be (the replay's)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from streams.processor import Limits, Outcome, Processor, Unreplayable, archived
from streams.records import (
    StoredFact,
    decode_entries,
    encode_alert,
    encode_input,
)
from tracker import contract as ev
from tracker.host.replay import Replay, Sourced


def keyed(events: Sequence[ev.InputEvent]) -> list[Message]:
    return [(e.tournament_id.encode(), encode_input(e)) for e in events]


def expected_alerts(events: Sequence[ev.InputEvent]) -> dict[str, str]:
    run = Replay()
    out: dict[str, str] = {}
    for e in events:
        for alert in run.feed(Sourced(e, "test")):
            out[alert.alert_id] = alert.model_dump_json()
    return out


class Worker:
    """One worker process on partition 0, doing what ``streams.faust.agents.Tracker`` does: a
    processor, its table and changelog, the alerts it sent. The broker acknowledges every
    alert by the time the next message is handled (when the agent writes sent marks)."""

    def __init__(self, changelog: list[tuple[str, bytes | None]], limits: Limits | None = None):
        self.processor = Processor(topic="input", limits=limits or Limits())
        self.table: dict[str, bytes] = {}
        for key, value in changelog:
            self._apply(key, value)
        self.changelog = changelog
        self.sent: list[ev.OutputEvent] = []
        self.dead: list[dict[str, object]] = []
        self.in_flight: list[tuple[str, ...]] = []
        self.messages: Sequence[Message] = ()

    def _apply(self, key: str, value: bytes | None) -> None:
        if value is None:
            self.table.pop(key, None)
        else:
            self.table[key] = value

    def write(self, writes: Iterable[tuple[str, bytes | None]]) -> None:
        for key, value in writes:
            self._apply(key, value)
            self.changelog.append((key, value))

    def send(self, outcome: Outcome) -> None:
        self.write(outcome.writes)
        self.sent.extend(outcome.alerts)
        assert [encode_alert(a) for a in outcome.alerts] == list(outcome.payloads)
        if outcome.confirms:
            self.in_flight.append(outcome.confirms)
        if outcome.dead_letter:
            self.dead.append(json.loads(outcome.dead_letter.encode()))

    def acknowledged(self) -> None:
        for facts in self.in_flight:
            self.write(self.processor.acknowledged(0, facts))
        self.in_flight.clear()

    def lookup(self, key: str) -> bytes | None:
        return self.table.get(key)

    def process(self, offset: int) -> None:
        parsed = self.processor.parse(*self.messages[offset], 0, offset)
        if isinstance(parsed, Outcome):
            self.send(parsed)
            return
        if self.ready(parsed.tournament_id, offset):
            self.send(self.processor.apply(parsed, now=NOW))

    def ready(self, tid: str, offset: int | None = None) -> bool:
        proc = self.processor
        record = proc.archived.get(tid)
        if record is None and proc.unknown(tid):
            record = archived(self.lookup, tid, 0)
            if record is not None and offset is not None and offset < record.end:
                return False  # delivered again: handled before it retired
        if record is not None:
            wanted = tid.encode()
            proc.restore(
                record,
                [(o, v) for o, (k, v) in enumerate(self.messages) if k == wanted],
                now=NOW,
            )
        if tid in proc.pending:
            for outcome in proc.materialize(tid):
                self.send(outcome)
        return True

    def run(self, messages: Sequence[Message], offsets: Iterable[int]) -> None:
        """Handle the messages at ``offsets``, in that order, as Faust delivers them."""
        self.messages = messages
        for offset in offsets:
            if self.processor.already_handled(0, offset):
                continue
            if self.processor.needs_rebuild(0, offset):
                self.rebuild(messages, offset)
            self.acknowledged()
            try:
                self.process(offset)
            except Unreplayable:
                self.rebuild(messages, offset, from_start=True)
                self.process(offset)

    def rebuild(self, messages: Sequence[Message], upto: int, from_start: bool = False) -> None:
        self.messages = messages
        self.in_flight.clear()
        if from_start:
            begin = self.processor.restart(0)
        else:
            begin = self.processor.rebuild(0, upto, list(self.table.items()), self.lookup, NOW)
        try:
            for again in range(begin, upto):
                self.process(again)
            for tid in self.processor.overdue(0):
                self.ready(tid)
        except Unreplayable:
            self.rebuild(messages, upto, from_start=True)
            return
        self.processor.resume(0, upto)

    def retire(self, now: float) -> list[str]:
        self.acknowledged()
        due = self.processor.due(0, now)
        self.write(self.processor.retire(0, due))
        return due

    def facts(self) -> dict[str, StoredFact]:
        return {
            item.key(): item
            for v in self.table.values()
            for item in decode_entries(v)
            if isinstance(item, StoredFact)
        }


NOW = 1_000_000.0
"""The clock of these tests (``time.time()`` in the worker)."""


def deduped(alerts: Iterable[ev.OutputEvent]) -> dict[str, str]:
    out: dict[str, str] = {}
    for a in alerts:
        text = a.model_dump_json()
        assert out.setdefault(a.alert_id, text) == text, "same id, different alert"
    return out


Message = tuple[bytes | None, bytes]
