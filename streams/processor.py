"""The worker's view of the tournaments on its partitions, with no Kafka in it.

:meth:`Processor.handle` takes one input message and returns what the agent must do: the
fact to store, the alerts to send, or the dead letter. Every decision is
:func:`tracker.transition.apply`'s.

**Never losing an alert.** The input topic is the source of truth; the ``facts`` table (its
changelog) is a compact copy of the events that changed a tournament, in processing order,
each with the number of alerts it produced, and a *sent mark* per fact once the broker has
acknowledged all of that fact's alerts.

A tournament's in-memory state is valid only while its partition's messages arrive in
unbroken offset order. When a message arrives at any other offset (the first after a start,
a rebalance or a crash, but also the gaps and repeats Faust 0.15 produces right after an
assignment) the partition is rebuilt before the message is handled:

1. its stored facts are taken along their ``prev`` chain, stopping at the first gap (a
   changelog cut short, as the Tansu test broker's wrong ``ListOffsets(LATEST)`` makes Faust's
   recovery) and at facts from the message's offset on (those will be handled again);
2. the input topic is re-read from just after the chain's last fact up to the message, and
   handled again, alerts and dead letters *sent* (those messages may never have been handled:
   Faust sometimes skips some and commits past them);
3. each tournament's facts are replayed through ``apply`` when its next message arrives
   (:meth:`materialize`), so a take-over costs no core work up front -- except tournaments
   with a fact whose alerts carry no sent mark: those are replayed at once and the alerts
   of such facts sent again.

Alerts go out again only when the table cannot prove they were acknowledged, and always under
the same deterministic ``alert_id``: subscribers drop the repeat.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import Iterable, Iterator

from streams.records import (
    DeadLetter,
    FactBatch,
    SentMark,
    StoredFact,
    decode_entries,
    raw_text,
)
from tracker import events as ev
from tracker.state import TournamentState
from tracker.transition import Rejected, apply

log = logging.getLogger(__name__)

YIELD_EVERY = 50
"""Facts replayed between two pauses of :meth:`Processor.materialize`."""

BATCH_FACTS = 64
"""Facts of a partition gathered into one table entry at most (see :class:`FactBuffer`)."""

Alerts = tuple[ev.OutputEvent, ...]


class Unreplayable(Exception):
    """A partition's stored facts that the core refuses: re-read its input from the start."""

    def __init__(self, partition: int) -> None:
        super().__init__(f"partition {partition}: stored facts do not replay")
        self.partition = partition


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """What one input message (or one replay) leads to."""

    fact: StoredFact | None = None
    alerts: Alerts = ()
    confirms: tuple[str, ...] = ()
    """Keys of the facts whose alerts are all in ``alerts``: store a :class:`SentMark` for
    each once every alert is acknowledged."""
    dead_letter: DeadLetter | None = None


@dataclasses.dataclass
class Processor:
    topic: str
    """The input topic (named in dead letters)."""
    states: dict[str, TournamentState] = dataclasses.field(default_factory=dict)
    seq: dict[str, int] = dataclasses.field(default_factory=dict)
    """Facts stored so far, per tournament (the next fact's sequence number)."""
    partition_of: dict[str, int] = dataclasses.field(default_factory=dict)
    next_offset: dict[int, int] = dataclasses.field(default_factory=dict)
    last_fact: dict[int, int] = dataclasses.field(default_factory=dict)
    """Per partition, the input offset of the last stored fact (the chain's end)."""
    pending: dict[str, list[StoredFact]] = dataclasses.field(default_factory=dict)
    """Stored facts of tournaments not replayed since the last rebuild."""
    unsent: dict[str, set[int]] = dataclasses.field(default_factory=dict)
    """Per tournament, the pending facts whose alerts have no sent mark."""

    # ------------------------------------------------------------------ live

    def needs_rebuild(self, partition: int, offset: int) -> bool:
        return self.next_offset.get(partition) != offset

    def handle(
        self, key: bytes | str | None, value: bytes | str | None, partition: int, offset: int
    ) -> Outcome:
        """Handle one input message (live, or again while rebuilding). Raises
        :exc:`Unreplayable` if the tournament's stored facts turn out not to replay."""
        self.next_offset[partition] = offset + 1
        key_text = key if key is None or isinstance(key, str) else raw_text(key)
        if value is None:
            reason = "empty message (no value)"
            return self._refuse(None, reason, key_text, value, partition, offset)
        try:
            event = ev.parse_input(value)
        except ev.InvalidEvent as exc:
            reason = str(exc)
            return self._refuse(_field_of(reason), reason, key_text, value, partition, offset)
        tid = event.tournament_id
        if key_text != tid:
            reason = f"the message key must be the tournament id {tid!r}, not {key_text!r}"
            return self._refuse("tournament_id", reason, key_text, value, partition, offset)
        known = self.partition_of.get(tid)
        if known is not None and known != partition:
            reason = f"tournament {tid!r} lives on partition {known}, not {partition}"
            return self._refuse("tournament_id", reason, key_text, value, partition, offset)
        again = _NOTHING
        if tid in self.pending:
            for replayed in self.materialize(tid):
                again = _join(again, replayed)
        before = self.states.get(tid)
        try:
            after, alerts = apply(before, event)
        except Rejected as exc:
            refused = self._refuse(exc.field, str(exc), key_text, value, partition, offset)
            return _join(again, refused)
        except Exception as exc:  # a bug in the core must not stop the other tournaments
            log.exception("internal error on %s[%d]@%d", self.topic, partition, offset)
            reason = f"internal error: {type(exc).__name__}: {exc}"
            return _join(again, self._refuse(None, reason, key_text, value, partition, offset))
        if not _changed(before, after) and not alerts:
            return again  # a repeated fact: nothing to store, nothing to send
        fact = StoredFact(
            partition=partition,
            offset=offset,
            prev=self.last_fact.get(partition, -1),
            seq=self.seq.get(tid, 0),
            event=event,
            alerts=len(alerts),
        )
        self._remember(fact, after)
        confirms = (fact.key(),) if alerts else ()
        return _join(again, Outcome(fact=fact, alerts=tuple(alerts), confirms=confirms))

    def _refuse(
        self,
        field: str | None,
        reason: str,
        key: str | None,
        value: bytes | str | None,
        partition: int,
        offset: int,
    ) -> Outcome:
        letter = DeadLetter(
            reason=reason,
            field=field,
            raw=raw_text(value),
            key=key,
            topic=self.topic,
            partition=partition,
            offset=offset,
        )
        return Outcome(dead_letter=letter)

    def _remember(self, fact: StoredFact, state: TournamentState) -> None:
        tid = fact.event.tournament_id
        self.states[tid] = state
        self.seq[tid] = fact.seq + 1
        self.partition_of[tid] = fact.partition
        self.last_fact[fact.partition] = fact.offset

    # ------------------------------------------------------------------ reading

    def tournaments(self) -> list[str]:
        """The tournaments this worker holds (live or waiting to be replayed)."""
        return sorted(set(self.states) | set(self.pending))

    def peek(self, tid: str) -> TournamentState | None:
        """The tournament's state after the last message handled, changing nothing: stored
        facts still waiting to be replayed are applied to a copy (their alerts dropped)."""
        state = self.states.get(tid)
        for fact in self.pending.get(tid, ()):
            try:
                state, _ = apply(state, fact.event)
            except Rejected:
                return None
        return state

    # ------------------------------------------------------------------ recovery

    def rebuild(self, partition: int, upto: int, stored: Iterable[bytes | str]) -> int:
        """Forget the partition's tournaments and take its stored facts below input offset
        ``upto``, along their chain, as their history. Returns the input offset from which
        the caller must re-read and :meth:`handle` the input up to ``upto`` (0 if the stored
        facts are unusable), then :meth:`materialize` the :meth:`overdue` tournaments."""
        self.forget(partition)
        chain, sent = self._chain(partition, upto, stored)
        if chain is None:
            return self.restart(partition)
        for fact in chain:
            tid = fact.event.tournament_id
            if fact.seq != self.seq.get(tid, 0):
                log.warning("partition %d: stored fact %s out of sequence", partition, fact.key())
                return self.restart(partition)
            self.pending.setdefault(tid, []).append(fact)
            if fact.alerts and fact.key() not in sent:
                self.unsent.setdefault(tid, set()).add(fact.seq)
            self.seq[tid] = fact.seq + 1
            self.partition_of[tid] = partition
            self.last_fact[partition] = fact.offset
        cursor = chain[-1].offset if chain else -1
        self.next_offset[partition] = cursor + 1
        log.info(
            "partition %d: %d stored facts of %d tournaments up to input offset %d "
            "(%d with alerts not known to be sent)",
            partition,
            len(chain),
            len({f.event.tournament_id for f in chain}),
            cursor,
            sum(len(s) for s in self.unsent.values()),
        )
        return cursor + 1

    def _chain(
        self, partition: int, upto: int, stored: Iterable[bytes | str]
    ) -> tuple[list[StoredFact] | None, set[str]]:
        """The partition's stored facts below ``upto`` in processing order, up to the first
        gap (``None`` if they contradict each other); and the keys of facts marked sent."""
        facts: dict[int, StoredFact] = {}
        sent: set[str] = set()
        for raw in stored:
            try:
                items = decode_entries(raw)
            except (ValueError, KeyError, TypeError):
                log.warning("unreadable stored fact %r: ignored", raw)
                continue
            for item in items:
                if not self._take(item, partition, upto, facts, sent):
                    return None, sent
        chain = []
        cursor = -1
        while cursor in facts:
            chain.append(facts[cursor])
            cursor = facts[cursor].offset
        return chain, sent

    @staticmethod
    def _take(
        item: StoredFact | SentMark,
        partition: int,
        upto: int,
        facts: dict[int, StoredFact],
        sent: set[str],
    ) -> bool:
        """File one stored item of a partition being rebuilt; ``False`` if two facts claim
        the same place in the chain."""
        if item.partition != partition:
            return True
        if isinstance(item, SentMark):
            sent.add(item.fact)
            return True
        if item.offset >= upto:
            return True
        if item.prev in facts and facts[item.prev] != item:
            log.warning("partition %d: two stored facts follow offset %d", partition, item.prev)
            return False
        facts[item.prev] = item
        return True

    def overdue(self, partition: int) -> list[str]:
        """Tournaments of the partition with stored alerts not known to be sent."""
        return sorted(
            t for t in self.unsent if t in self.pending and self.partition_of.get(t) == partition
        )

    def waiting(self, value: bytes | str | None) -> str | None:
        """The tournament of this message, if its stored facts wait to be replayed."""
        if not self.pending or value is None:
            return None
        try:
            tid = json.loads(value).get("tournament_id")
        except (ValueError, AttributeError):
            return None  # handle() will say what is wrong with it
        return tid if isinstance(tid, str) and tid in self.pending else None

    def materialize(self, tid: str) -> Iterator[Outcome]:
        """Replay the tournament's waiting facts through the core, in steps of
        :data:`YIELD_EVERY` facts; each step's outcome holds the alerts of replayed facts
        that have no sent mark (to send again). Raises :exc:`Unreplayable`."""
        started = time.monotonic()
        facts = self.pending.get(tid, [])
        unsent = self.unsent.get(tid, set())
        state = self.states.get(tid)
        alerts: list[ev.OutputEvent] = []
        confirms: list[str] = []
        for i, fact in enumerate(facts, 1):
            try:
                state, out = apply(state, fact.event)
            except Rejected as exc:
                log.warning("stored fact %s is refused: %s", fact.key(), exc)
                raise Unreplayable(fact.partition) from None
            if fact.seq in unsent and out:
                alerts.extend(out)
                confirms.append(fact.key())
            if i % YIELD_EVERY == 0:
                yield Outcome(alerts=tuple(alerts), confirms=tuple(confirms))
                alerts, confirms = [], []
        if state is not None:
            self.states[tid] = state
        self.pending.pop(tid, None)
        self.unsent.pop(tid, None)
        log.info(
            "tournament %s: %d stored facts replayed in %.3f s",
            tid,
            len(facts),
            time.monotonic() - started,
        )
        yield Outcome(alerts=tuple(alerts), confirms=tuple(confirms))

    def resume(self, partition: int, offset: int) -> None:
        """The partition is rebuilt up to ``offset``, the next message to handle live."""
        self.next_offset[partition] = offset

    def forget(self, partition: int) -> None:
        for tid in [t for t, p in self.partition_of.items() if p == partition]:
            del self.partition_of[tid]
            self.states.pop(tid, None)
            self.seq.pop(tid, None)
            self.pending.pop(tid, None)
            self.unsent.pop(tid, None)
        self.next_offset.pop(partition, None)
        self.last_fact.pop(partition, None)

    def restart(self, partition: int) -> int:
        """Forget the partition; its input must be re-read from offset 0 (returned)."""
        log.warning("partition %d: re-reading the input from the start", partition)
        self.forget(partition)
        self.next_offset[partition] = 0
        return 0


@dataclasses.dataclass
class FactBuffer:
    """The facts of each partition handled but not yet written to the ``facts`` table.

    Writing one table entry per input message would put a changelog message (a produce
    request) on every game result; a :class:`~streams.records.FactBatch` is written instead
    when a fact has alerts (so its sent mark follows a stored fact) or when
    :data:`BATCH_FACTS` have gathered. Facts still here when a worker dies come after the
    end of the stored chain, and the next worker re-reads them from the input topic, as it
    does for a changelog cut short; a rebuild drops them for the same reason."""

    size: int = BATCH_FACTS
    facts: dict[int, list[StoredFact]] = dataclasses.field(default_factory=dict)

    def add(self, outcome: Outcome, partition: int) -> FactBatch | None:
        """Take the outcome's fact; the batch to write now, if any."""
        waiting = self.facts.setdefault(partition, [])
        if outcome.fact is not None:
            waiting.append(outcome.fact)
        if waiting and (outcome.alerts or len(waiting) >= self.size):
            self.facts[partition] = []
            return FactBatch(tuple(waiting))
        return None

    def drop(self, partition: int) -> None:
        self.facts.pop(partition, None)


_NOTHING = Outcome()


def _join(first: Outcome, then: Outcome) -> Outcome:
    if first is _NOTHING:
        return then  # the usual case: no stored facts replayed before the message
    return Outcome(
        fact=then.fact or first.fact,
        alerts=first.alerts + then.alerts,
        confirms=first.confirms + then.confirms,
        dead_letter=then.dead_letter or first.dead_letter,
    )


def _changed(before: TournamentState | None, after: TournamentState) -> bool:
    if before is None:
        return True
    return (
        after.players is not before.players
        or after.rounds is not before.rounds
        or after.tournament != before.tournament
        or after.announced != before.announced
        or dict(after.sent) != dict(before.sent)
    )


def _field_of(message: str) -> str | None:
    """``"result: impossible result…"`` -> ``"result"``; ``None`` for malformed JSON."""
    if message.startswith("malformed JSON"):
        return None
    head = message.split(":", 1)[0].split(";", 1)[0].strip()
    return head or None


__all__ = ["BATCH_FACTS", "YIELD_EVERY", "FactBuffer", "Outcome", "Processor", "Unreplayable"]
