"""The worker's view of the tournaments on its partitions, with no Kafka in it.

An input message goes through :meth:`Processor.parse` (refusals become dead letters) and
:meth:`Processor.apply`, which returns what the agent must do: the alerts to send, the table
writes (fact batches), or the dead letter. Every decision is
:func:`tracker.engine.transition.apply`'s.

**Never losing an alert.** The input topic is the source of truth; the ``facts`` table (its
changelog) is a compact copy of the events that changed a tournament, in processing order,
each with the number of alerts it produced, and a *sent mark* per tournament: the last fact
up to which the broker has acknowledged all of the tournament's alerts.

A tournament's in-memory state is valid only while its partition's messages arrive in
unbroken offset order. When a message arrives at any other offset (the first after a start,
a rebalance or a crash, but also the gaps and repeats Faust 0.15 produces right after an
assignment) the partition is rebuilt before the message is handled (:class:`Recovery`):

1. its stored facts -- and only its own: the keys name their partition -- are taken along
   their ``prev`` chain, stopping at the first gap (a changelog cut short, as the Tansu
   broker's wrong ``ListOffsets(LATEST)`` makes Faust's recovery, or a changelog deleted)
   and at facts from the message's offset on (those will be handled again);
2. the input topic is re-read from just after the chain's end up to the message, and handled
   again, alerts and dead letters *sent* (those messages may never have been handled: Faust
   sometimes skips some and commits past them);
3. each tournament's facts are replayed through ``apply`` when its next message arrives
   (:meth:`Processor.materialize`), so a take-over costs no core work up front -- except
   tournaments with a fact whose alerts carry no sent mark: those are replayed at once and
   the alerts of such facts sent again.

Alerts go out again only when the table cannot prove they were acknowledged, and always under
the same deterministic ``alert_id``: subscribers drop the repeat.

**Corrections do not pile up.** The fact of a correction (:data:`CORRECTIONS`) also
carries the tournament's whole state after it (:mod:`tracker.engine.state_record`: its
current facts and the alerts in force). A tournament is rebuilt from its latest such fact
whose alerts, and those of every fact before it, are acknowledged, and the facts after it
(:meth:`Processor._replay_from`); once that is so, the facts before it are released
(:meth:`Processor._release`): batches that hold no other live fact become hollow, as for
retired tournaments, and a :class:`~streams.records.Released` record says where its state
lies. A rebuild whose chain does not reach that state (Faust delivering the partition again
from an offset long handled, the state's fact lost from the buffer) reads the tournament back
from the input up to the chain's end, as a retired one. So a tournament corrected a thousand
times is stored, and rebuilt after a restart, as its latest state and the few facts since, not
as the thousand corrections.

**State does not grow with history.** A tournament that is finished (its last planned round
announced) and has had no new fact for :attr:`Limits.finished_grace` seconds, or that has had
none for :attr:`Limits.idle_retire` seconds whatever its state, is *retired*
(:meth:`Processor.retire`): its state leaves memory, its sent marks are deleted, a small
:class:`~streams.records.Archived` record says where its input lies, and fact batches whose
tournaments are all retired become hollow (merged with hollow neighbours), so that the table
and a rebuild hold only tournaments in play. A late event for a retired tournament rebuilds it
from its messages in the input topic (:meth:`Processor.restore`) before it is handled.

**Bounded by construction.** A message over :attr:`Limits.max_input_bytes` is refused
unread; an event whose alerts would not fit one record of :attr:`Limits.max_message_bytes` is
refused (state untouched); fact batches close at :data:`BATCH_BYTES`; dead letters keep a
bounded prefix. A message the worker fails on (not bad input: a bug) is retried by the next
worker at most :attr:`Limits.max_attempts` times, then dead-lettered.

The module is long (about 1 100 lines) because the live path, the recovery, the release of
corrected history and the retirement all keep one bookkeeping -- the chain of stored facts,
the batches and the tournaments in each, the sent marks -- that must change together; split
into modules, each would reach into the others' fields.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Iterable, Iterator

from streams.records import (
    Archived,
    Attempt,
    DeadLetter,
    FactBatch,
    FactSent,
    Released,
    SentMark,
    StoredFact,
    archive_key,
    decode_entries,
    encode_alert,
    key_partition,
    raw_text,
)
from tracker import contract as ev
from tracker.domain.tournaments import Tournament
from tracker.engine.state import TournamentState
from tracker.engine.state_record import record_of, state_of
from tracker.engine.transition import Core, Rejected, apply

log = logging.getLogger(__name__)

YIELD_EVERY = 50
"""Facts replayed (or stored entries decoded) between two pauses of the agent."""

BATCH_FACTS = 64
"""Facts of a partition gathered into one table entry at most (see :class:`FactBuffer`)."""

BATCH_BYTES = 512 * 1024
"""Input bytes of a partition's facts gathered into one table entry at most: with inputs of
at most :attr:`Limits.max_input_bytes`, a batch stays far below any record limit."""

RECORD_OVERHEAD = 512
"""Bytes a record needs besides its key and value (headers, framing), with a margin."""

CORRECTIONS = (
    ev.ResultCorrected,
    ev.PairingRemoved,
    ev.ByeRemoved,
    ev.RoundReopened,
    ev.PlayerCorrected,
    ev.PlayerRemoved,
)
"""The events whose fact carries the tournament's state after it (see the module's doc)."""

Alerts = tuple[ev.OutputEvent, ...]
Write = tuple[str, bytes | None]
"""A table write: key and value (``None`` deletes the key)."""
Lookup = Callable[[str], bytes | None]
"""A table read by key (the agent's ``facts`` table)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """The worker's bounds (from :class:`streams.settings.Settings`)."""

    max_input_bytes: int = 65_536
    max_message_bytes: int = 4_194_304
    max_attempts: int = 3
    finished_grace: float = 3_600.0
    idle_retire: float = 604_800.0

    @classmethod
    def of(cls, settings: object) -> Limits:
        return cls(**{f.name: getattr(settings, f.name) for f in dataclasses.fields(cls)})


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
    payloads: tuple[bytes, ...] = ()
    """The alerts' wire form, in the same order (checked against the record limit)."""
    confirms: tuple[str, ...] = ()
    """Keys of the facts whose alerts are all in ``alerts``: store a :class:`SentMark` for
    each once every alert is acknowledged (:meth:`Processor.acknowledged`)."""
    dead_letter: DeadLetter | None = None
    writes: tuple[Write, ...] = ()
    """Table writes to make (fact batches), in order."""
    tournament: Tournament | None = None
    """The tournament the alerts are about, as it stands after them (their title facts
    name its dates: :func:`streams.titles.title_messages`)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Parsed:
    """An input message that is a readable event with the right key and partition."""

    event: ev.InputEvent
    key: str
    partition: int
    offset: int
    value: bytes | str

    @property
    def tournament_id(self) -> str:
        return self.event.tournament_id


@dataclasses.dataclass(slots=True)
class BatchInfo:
    """What the processor remembers of a stored batch: its span and its live tournaments."""

    key_offset: int
    prev: int
    last: int
    tournaments: dict[str, int]
    """The live tournaments with facts in the batch, each with the highest sequence number
    it has there."""
    hollow: bool = False
    held: set[str] = dataclasses.field(default_factory=set)
    """Every tournament with facts in the batch, live or not (a hollow batch names them:
    :attr:`~streams.records.FactBatch.held`)."""


@dataclasses.dataclass
class Processor:
    topic: str
    """The input topic (named in dead letters)."""
    limits: Limits = dataclasses.field(default_factory=Limits)
    core: Core = apply
    """The transition every fact goes through (:func:`tracker.engine.transition.apply`; the
    benchmarks give a lighter one)."""
    states: dict[str, TournamentState] = dataclasses.field(default_factory=dict)
    seq: dict[str, int] = dataclasses.field(default_factory=dict)
    """Facts stored so far, per tournament (the next fact's sequence number)."""
    partition_of: dict[str, int] = dataclasses.field(default_factory=dict)
    next_offset: dict[int, int] = dataclasses.field(default_factory=dict)
    last_fact: dict[int, int] = dataclasses.field(default_factory=dict)
    """Per partition, the input offset where the stored chain ends (its last fact, or the
    end of a hollow batch)."""
    pending: dict[str, list[StoredFact]] = dataclasses.field(default_factory=dict)
    """Stored facts of tournaments not replayed since the last rebuild."""
    unsent: dict[str, set[int]] = dataclasses.field(default_factory=dict)
    """Per tournament, the pending facts whose alerts have no sent mark."""
    archived: dict[str, Archived] = dataclasses.field(default_factory=dict)
    """Tournaments with stored facts whose earlier history was retired: rebuilt from the
    input (:meth:`restore`) before their facts are replayed."""
    buffer: FactBuffer = dataclasses.field(default_factory=lambda: FactBuffer())
    batches: dict[int, dict[int, BatchInfo]] = dataclasses.field(default_factory=dict)
    """Per partition, the stored batches along the chain, by first offset, in order."""
    first_offset: dict[str, int] = dataclasses.field(default_factory=dict)
    last_offset: dict[str, int] = dataclasses.field(default_factory=dict)
    touched: dict[str, float] = dataclasses.field(default_factory=dict)
    """When each tournament last got a fact (or was taken over), ``time.time()``."""
    done: dict[str, bool] = dataclasses.field(default_factory=dict)
    """Whether the tournament's last planned round is announced."""
    sent_upto: dict[str, int] = dataclasses.field(default_factory=dict)
    """Per tournament, the last fact up to which its alerts are marked sent."""
    unacked: dict[str, set[int]] = dataclasses.field(default_factory=dict)
    """Per tournament, facts whose alerts went out and are not yet acknowledged."""
    legacy_marks: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    """Per tournament, keys of per-fact sent marks older workers wrote (deleted with it)."""
    attempts: dict[tuple[int, int], Attempt] = dataclasses.field(default_factory=dict)
    skip_below: dict[int, int] = dataclasses.field(default_factory=dict)
    """Per partition, offsets the watchdog has handled ahead of Faust's delivery: a delivery
    below is a repeat, skipped rather than rebuilt for."""
    stated: dict[str, int] = dataclasses.field(default_factory=dict)
    """Per tournament, the sequence number of its latest fact that carries its state."""
    stated_at: dict[str, int] = dataclasses.field(default_factory=dict)
    """Per tournament, the input offset of that fact."""
    released: dict[str, int] = dataclasses.field(default_factory=dict)
    """Per tournament, the fact carrying its state before which its stored facts have been
    released (their batches hollow where no other tournament needs them)."""

    # ------------------------------------------------------------------ live

    def needs_rebuild(self, partition: int, offset: int) -> bool:
        return self.next_offset.get(partition) != offset

    def already_handled(self, partition: int, offset: int) -> bool:
        """A delivery of a message the watchdog handled already (see :attr:`skip_below`)."""
        return offset < self.skip_below.get(partition, -1) and partition in self.next_offset

    def parse(
        self, key: bytes | str | None, value: bytes | str | None, partition: int, offset: int
    ) -> Parsed | Outcome:
        """Read one input message; an :class:`Outcome` with its dead letter if it is refused
        before any state is looked at."""
        self.next_offset[partition] = offset + 1
        key_text = key if key is None or isinstance(key, str) else raw_text(key)

        def refuse(field: str | None, reason: str) -> Outcome:
            return self._refuse(field, reason, key_text, value, partition, offset)

        failed = self.attempts.get((partition, offset))
        if failed is not None and failed.count >= self.limits.max_attempts:
            return refuse(None, f"the worker failed on it {failed.count} times: {failed.error}")
        if value is None:
            return refuse(None, "empty message (no value)")
        size = len(value)
        if size > self.limits.max_input_bytes:
            return refuse(
                None,
                f"message of {size} bytes: input events are at most "
                f"{self.limits.max_input_bytes} bytes (TRACKER_MAX_INPUT_BYTES)",
            )
        try:
            event = ev.parse_input(value)
        except ev.InvalidEvent as exc:
            return refuse(_field_of(str(exc)), str(exc))
        except (RecursionError, ValueError, TypeError) as exc:  # the parser's own limits
            return refuse(None, f"unreadable message: {type(exc).__name__}: {exc}")
        tid = event.tournament_id
        if key_text != tid:
            reason = f"the message key must be the tournament id {tid!r}, not {key_text!r}"
            return refuse("tournament_id", reason)
        known = self.partition_of.get(tid)
        if known is not None and known != partition:
            return refuse("tournament_id", f"tournament {tid!r} lives on partition {known}")
        return Parsed(event, key_text, partition, offset, value)

    def unknown(self, tid: str) -> bool:
        """Neither live nor waiting to be replayed (maybe retired: look its record up)."""
        return tid not in self.states and tid not in self.pending

    def apply(self, parsed: Parsed, now: float | None = None) -> Outcome:
        """Apply a parsed message to its tournament (whose stored facts must have been
        replayed, and its retired history restored)."""
        event, partition, offset = parsed.event, parsed.partition, parsed.offset
        tid = event.tournament_id
        before = self.states.get(tid)
        try:
            after, alerts = self.core(before, event)
        except Rejected as exc:
            return self._refuse(exc.field, str(exc), parsed.key, None, partition, offset, parsed)
        except Exception as exc:  # a bug in the core must not stop the other tournaments
            log.exception("internal error on %s[%d]@%d", self.topic, partition, offset)
            reason = f"internal error: {type(exc).__name__}: {exc}"
            return self._refuse(None, reason, parsed.key, None, partition, offset, parsed)
        if not _changed(before, after) and not alerts:
            return _NOTHING  # a repeated fact: nothing to store, nothing to send
        payloads = tuple(encode_alert(a) for a in alerts)
        room = self.limits.max_message_bytes - RECORD_OVERHEAD - len(tid.encode())
        for alert, payload in zip(alerts, payloads, strict=True):
            if len(payload) > room:
                reason = (
                    f"its {alert.type} alert would be {len(payload)} bytes: records are at "
                    f"most {self.limits.max_message_bytes} bytes (TRACKER_MAX_MESSAGE_BYTES)"
                )
                return self._refuse(None, reason, parsed.key, None, partition, offset, parsed)
        state = self._state_text(after) if isinstance(event, CORRECTIONS) else None
        fact = StoredFact(
            partition=partition,
            offset=offset,
            prev=self.last_fact.get(partition, -1),
            seq=self.seq.get(tid, 0),
            event=event,
            alerts=len(alerts),
            done=_finished(after),
            state=state,
            first=self.first_offset.get(tid, offset) if state is not None else -1,
        )
        self._remember(fact, after, time.time() if now is None else now)
        confirms: tuple[str, ...] = ()
        if alerts:
            confirms = (fact.key(),)
            self.unacked.setdefault(tid, set()).add(fact.seq)
        size = len(parsed.value) + (len(state) if state is not None else 0)
        batch = self.buffer.add(fact, size, bool(alerts))
        writes = self._stored(batch) if batch is not None else ()
        return Outcome(
            fact, tuple(alerts), payloads, confirms, writes=writes, tournament=after.tournament
        )

    def handle(
        self,
        key: bytes | str | None,
        value: bytes | str | None,
        partition: int,
        offset: int,
        now: float | None = None,
    ) -> Outcome:
        """:meth:`parse` and :meth:`apply` one message, replaying the tournament's stored
        facts first (for callers with no retired tournaments: tests, the web tests)."""
        parsed = self.parse(key, value, partition, offset)
        if isinstance(parsed, Outcome):
            return parsed
        again = _NOTHING
        if parsed.tournament_id in self.pending:
            for replayed in self.materialize(parsed.tournament_id):
                again = _join(again, replayed)
        return _join(again, self.apply(parsed, now))

    def _refuse(
        self,
        field: str | None,
        reason: str,
        key: str | None,
        value: bytes | str | None,
        partition: int,
        offset: int,
        parsed: Parsed | None = None,
    ) -> Outcome:
        if parsed is not None:
            value = parsed.value
        letter = DeadLetter.of(
            reason=reason,
            field=field,
            value=value,
            key=key,
            topic=self.topic,
            partition=partition,
            offset=offset,
        )
        return Outcome(dead_letter=letter)

    def _state_text(self, state: TournamentState) -> str | None:
        """The state's record as JSON, if a batch holding it stays within a record
        (:attr:`Limits.max_message_bytes`: a batch closes once its facts reach
        :data:`BATCH_BYTES`, so it holds less than that and one state). A 500-player open's
        state is ~180 kB, a 2 000-player one's ~750 kB; a larger one than fits is left out,
        and that tournament is rebuilt by replaying its corrections."""
        text = record_of(state).model_dump_json()
        room = self.limits.max_message_bytes - BATCH_BYTES - RECORD_OVERHEAD
        if len(text) > room:
            tid = state.tournament.id
            log.info("tournament %s: its state of %d bytes is not stored", tid, len(text))
            return None
        return text

    def _remember(self, fact: StoredFact, state: TournamentState, now: float) -> None:
        tid = fact.event.tournament_id
        self.states[tid] = state
        self._file(fact, now)

    def _file(self, fact: StoredFact, now: float) -> None:
        """Take a fact (new, or stored and recovered) into the tournament's bookkeeping."""
        tid = fact.event.tournament_id
        self.seq[tid] = fact.seq + 1
        self.partition_of[tid] = fact.partition
        self.last_fact[fact.partition] = fact.offset
        if fact.state is not None:
            self.stated[tid] = fact.seq
            self.stated_at[tid] = fact.offset
            if fact.first >= 0:  # the facts before it may be gone from the table
                self.first_offset[tid] = min(self.first_offset.get(tid, fact.first), fact.first)
        self.first_offset.setdefault(tid, fact.offset)
        self.last_offset[tid] = fact.offset
        self.touched[tid] = now
        self.done[tid] = fact.done

    def _stored(self, batch: FactBatch) -> tuple[Write, ...]:
        """Index a batch about to be written; its write."""
        index = self.batches.setdefault(batch.partition, {})
        tids = {f.event.tournament_id: f.seq for f in batch.facts}  # the highest: the last
        index[batch.key_offset] = BatchInfo(
            batch.key_offset, batch.prev, batch.last, tids, held=set(tids)
        )
        return ((batch.key(), batch.encode()),)

    def flush(self, partition: int) -> tuple[Write, ...]:
        """Write the partition's buffered facts now (before retiring its tournaments)."""
        batch = self.buffer.take(partition)
        return self._stored(batch) if batch is not None else ()

    def acknowledged(self, partition: int, facts: Iterable[str]) -> tuple[Write, ...]:
        """The alerts of these facts were all acknowledged: the sent marks that move. A
        tournament's mark covers every fact below its first one with alerts still
        unacknowledged."""
        touched = set()
        for fact in facts:
            tid, _, number = fact.rpartition("/")
            self.unacked.get(tid, set()).discard(int(number))
            touched.add(tid)
        writes: list[Write] = []
        for tid in sorted(touched):
            waiting = self.unacked.get(tid)
            if not waiting:
                self.unacked.pop(tid, None)
            if self.partition_of.get(tid) != partition:
                continue  # retired or moved meanwhile
            upto = min(waiting) - 1 if waiting else self.seq.get(tid, 0) - 1
            if upto > self.sent_upto.get(tid, -1):
                self.sent_upto[tid] = upto
                mark = SentMark(partition, tid, upto)
                writes.append((mark.key(), mark.encode()))
                writes.extend(self._release(partition, tid))
        return tuple(writes)

    def _release(self, partition: int, tid: str) -> list[Write]:
        """Once the alerts of the tournament's latest fact carrying its state (and of every
        fact before it) are acknowledged, the facts before it are never replayed again: the
        batches holding no other live facts become hollow."""
        stated = self.stated.get(tid)
        if stated is None or stated > self.sent_upto.get(tid, -1):
            return []
        if stated <= self.released.get(tid, -1):
            return []
        self.released[tid] = stated
        for info in self.batches.get(partition, {}).values():
            highest = info.tournaments.get(tid)
            if highest is not None and highest < stated:
                del info.tournaments[tid]
        # the record first: a changelog cut short after the hollow batches still says where
        # the tournament's earlier history lies
        at = self.stated_at[tid]
        record = Released(partition, tid, self.first_offset[tid], at, stated)
        return [(record.key(), record.encode()), *self._hollow(partition, set())]

    def failed(self, partition: int, offset: int, error: str) -> Write:
        """The worker is about to stop on this message: the record that counts the attempt."""
        before = self.attempts.get((partition, offset))
        attempt = Attempt(partition, offset, (before.count if before else 0) + 1, error)
        self.attempts[(partition, offset)] = attempt
        return attempt.key(), attempt.encode()

    # ------------------------------------------------------------------ reading

    def tournaments(self) -> list[str]:
        """The tournaments this worker holds (live or waiting to be replayed)."""
        return sorted(set(self.states) | set(self.pending))

    def peek(self, tid: str) -> TournamentState | None:
        """The tournament's state after the last message handled, changing nothing: stored
        facts still waiting to be replayed are applied to a copy (their alerts dropped).
        ``None`` for a tournament this worker does not hold, or whose retired history has
        not been read back yet."""
        if tid in self.archived:
            return None
        try:
            state, facts = self._replay_from(tid)
            for fact in facts:
                state, _ = self.core(state, fact.event)
        except (Rejected, Unreplayable):
            return None
        return state

    def _replay_from(self, tid: str) -> tuple[TournamentState | None, list[StoredFact]]:
        """The state to replay the tournament's waiting facts on, and the facts to replay:
        from the latest fact carrying the tournament's state whose alerts, and those of
        every fact before it, are acknowledged (none of them is sent again); else every
        waiting fact on the state in memory. Raises :exc:`Unreplayable` when the facts
        before a state that cannot be read are gone."""
        facts = self.pending.get(tid, [])
        unsent = self.unsent.get(tid)
        first_unsent = min(unsent) if unsent else None
        for i in range(len(facts) - 1, -1, -1):
            fact = facts[i]
            if fact.state is None or (first_unsent is not None and fact.seq >= first_unsent):
                continue
            try:
                record = fact.state_record()
                assert record is not None
                return state_of(record), facts[i + 1 :]
            except (ValueError, Rejected) as exc:  # an edition no longer known, …
                log.warning("stored state of %s is unreadable: %s", fact.key(), exc)
        state = self.states.get(tid)
        if state is None and facts and facts[0].seq != 0:
            raise Unreplayable(facts[0].partition)  # the facts before a lost state are gone
        return state, facts

    # ------------------------------------------------------------------ recovery

    def recover(self, partition: int, upto: int, now: float | None = None) -> Recovery:
        """Start rebuilding the partition from its stored entries below input offset
        ``upto``: feed them to :meth:`Recovery.take`, then :meth:`Recovery.finish`."""
        return Recovery(self, partition, upto, time.time() if now is None else now)

    def rebuild(
        self,
        partition: int,
        upto: int,
        stored: Iterable[bytes | str | tuple[bytes | str, bytes | str]],
        lookup: Lookup | None = None,
        now: float | None = None,
    ) -> int:
        """:meth:`recover` in one call (``stored``: table values, or (key, value) pairs)."""
        recovery = self.recover(partition, upto, now)
        for entry in stored:
            if isinstance(entry, tuple):
                recovery.take(entry[0], entry[1])
            else:
                recovery.take(None, entry)
        return recovery.finish(lookup or (lambda _key: None))

    def overdue(self, partition: int) -> list[str]:
        """Tournaments of the partition with stored alerts not known to be sent."""
        return sorted(
            t for t in self.unsent if t in self.pending and self.partition_of.get(t) == partition
        )

    def materialize(self, tid: str) -> Iterator[Outcome]:
        """Replay the tournament's waiting facts through the core (from its latest stored
        state that can be: see :meth:`_replay_from`), in steps of :data:`YIELD_EVERY` facts;
        each step's outcome holds the alerts of replayed facts that have no sent mark (to
        send again). Raises :exc:`Unreplayable`."""
        if tid in self.archived:
            raise RuntimeError(f"tournament {tid!r}: restore its retired history first")
        started = time.monotonic()
        state, facts = self._replay_from(tid)
        unsent = self.unsent.get(tid, set())
        alerts: list[ev.OutputEvent] = []
        confirms: list[str] = []
        for i, fact in enumerate(facts, 1):
            try:
                state, out = self.core(state, fact.event)
            except Rejected as exc:
                log.warning("stored fact %s is refused: %s", fact.key(), exc)
                raise Unreplayable(fact.partition) from None
            if fact.seq in unsent and out:
                alerts.extend(out)
                confirms.append(fact.key())
            if i % YIELD_EVERY == 0:
                yield self._resend(tid, alerts, confirms, state)
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
        yield self._resend(tid, alerts, confirms, state)

    def _resend(
        self,
        tid: str,
        alerts: list[ev.OutputEvent],
        confirms: list[str],
        state: TournamentState | None,
    ) -> Outcome:
        if confirms:
            waiting = self.unacked.setdefault(tid, set())
            waiting.update(int(key.rpartition("/")[2]) for key in confirms)
        payloads = tuple(encode_alert(a) for a in alerts)
        return Outcome(
            alerts=tuple(alerts),
            payloads=payloads,
            confirms=tuple(confirms),
            tournament=state.tournament if state is not None else None,
        )

    def restore(
        self,
        record: Archived,
        messages: Iterable[tuple[int, bytes | str | None]],
        now: float | None = None,
    ) -> None:
        """Rebuild a retired tournament, or one whose released history a rebuild needs
        (``record.seq`` -1: its number of facts not known), from its input messages
        (``(offset, value)`` of the messages keyed by its id in ``record.first`` …
        ``record.end`` - 1), sending nothing: its alerts went out when the messages were
        first handled."""
        tid = record.tournament_id
        state: TournamentState | None = None
        count = 0
        last = record.first
        for offset, value in messages:
            if value is None or not record.first <= offset < record.end:
                continue
            try:
                event = ev.parse_input(value)
                if event.tournament_id != tid:
                    continue
                after, alerts = self.core(state, event)
            except (Rejected, ev.InvalidEvent, RecursionError, ValueError):
                continue  # refused then, refused now
            if _changed(state, after) or alerts:
                count += 1
                last = offset
            state = after
        if record.seq >= 0 and count != record.seq:
            log.warning(
                "tournament %s: %d facts read back from the input, %d were stored",
                tid,
                count,
                record.seq,
            )
        self.archived.pop(tid, None)
        if state is None:
            return
        self.states[tid] = state
        self.seq[tid] = max(self.seq.get(tid, 0), record.seq, count)
        self.partition_of[tid] = record.partition
        self.first_offset[tid] = record.first
        self.last_offset[tid] = max(self.last_offset.get(tid, last), last)
        self.touched[tid] = time.time() if now is None else now
        self.done.setdefault(tid, _finished(state))
        self.sent_upto[tid] = max(self.sent_upto.get(tid, -1), record.seq - 1)
        log.info(
            "tournament %s: rebuilt from %d input facts (offsets %d-%d of partition %d)",
            tid,
            count,
            record.first,
            record.end - 1,
            record.partition,
        )

    def resume(self, partition: int, offset: int) -> None:
        """The partition is rebuilt up to ``offset``, the next message to handle live."""
        self.next_offset[partition] = offset

    def caught_up(self, partition: int, offset: int) -> None:
        """The watchdog handled the partition up to ``offset`` ahead of Faust's delivery."""
        self.next_offset[partition] = offset
        self.skip_below[partition] = offset

    def forget(self, partition: int) -> None:
        for tid in [t for t, p in self.partition_of.items() if p == partition]:
            self._drop(tid)
        self.next_offset.pop(partition, None)
        self.last_fact.pop(partition, None)
        self.batches.pop(partition, None)
        self.buffer.drop(partition)
        self.skip_below.pop(partition, None)
        for key in [k for k in self.attempts if k[0] == partition]:
            del self.attempts[key]

    def _drop(self, tid: str) -> None:
        for table in (
            self.partition_of,
            self.states,
            self.seq,
            self.pending,
            self.unsent,
            self.archived,
            self.first_offset,
            self.last_offset,
            self.touched,
            self.done,
            self.sent_upto,
            self.unacked,
            self.stated,
            self.stated_at,
            self.released,
        ):
            table.pop(tid, None)

    def restart(self, partition: int) -> int:
        """Forget the partition; its input must be re-read from offset 0 (returned)."""
        log.warning("partition %d: re-reading the input from the start", partition)
        self.forget(partition)
        self.next_offset[partition] = 0
        return 0

    # ------------------------------------------------------------------ retirement

    def due(self, partition: int, now: float | None = None) -> list[str]:
        """The partition's tournaments to retire now: finished and quiet for the grace
        period, or quiet for the idle period; never one with alerts not yet acknowledged."""
        now = time.time() if now is None else now
        out = []
        for tid, p in self.partition_of.items():
            if p != partition or self.unacked.get(tid) or tid in self.unsent:
                continue
            quiet = now - self.touched.get(tid, now)
            if quiet >= self.limits.idle_retire or (
                self.done.get(tid) and quiet >= self.limits.finished_grace
            ):
                out.append(tid)
        return sorted(out)

    def retire(self, partition: int, tids: Iterable[str]) -> tuple[Write, ...]:
        """Retire the tournaments (see the module's doc); the table writes, in the order
        they must be made: the archive records first, so that a changelog cut short
        anywhere after them still says which stored facts are leftovers."""
        gone = set(tids)
        if not gone:
            return ()
        writes: list[Write] = list(self.flush(partition))
        for tid in sorted(gone):
            if tid not in self.first_offset or self.partition_of.get(tid) != partition:
                continue
            record = Archived(
                partition=partition,
                tournament_id=tid,
                first=self.first_offset[tid],
                end=self.last_offset.get(tid, self.first_offset[tid]) + 1,
                seq=self.seq.get(tid, 0),
            )
            writes.append((record.key(), record.encode()))
        for tid in sorted(gone):
            writes.append((SentMark(partition, tid, -1).key(), None))
            if tid in self.released:
                writes.append((Released(partition, tid, 0, 0, 0).key(), None))
            writes.extend((key, None) for key in self.legacy_marks.pop(tid, ()))
            self._drop(tid)
        writes.extend(self._hollow(partition, gone))
        log.info(
            "partition %d: %d tournaments retired (%d live)",
            partition,
            len(gone),
            sum(1 for p in self.partition_of.values() if p == partition),
        )
        return tuple(writes)

    def _hollow(self, partition: int, gone: set[str]) -> list[Write]:
        """Batches left with no live tournament become hollow; consecutive hollow batches
        merge into the first (rewritten first, the others deleted after)."""
        index = self.batches.get(partition, {})
        rewrites: dict[int, BatchInfo] = {}
        deletes: list[int] = []
        run: BatchInfo | None = None
        for info in list(index.values()):
            for tid in gone:
                info.tournaments.pop(tid, None)
            if info.tournaments:
                run = None
                continue
            if run is not None and info.prev <= run.last:
                run.last = max(run.last, info.last)
                run.held |= info.held
                rewrites[run.key_offset] = run
                deletes.append(info.key_offset)
                del index[info.key_offset]
                continue
            run = info
            if not info.hollow:
                info.hollow = True
                rewrites[info.key_offset] = info
        out: list[Write] = []
        for info in rewrites.values():
            held = tuple(sorted(info.held))
            hollow = FactBatch.hollow(partition, info.key_offset, info.prev, info.last, held)
            out.append((hollow.key(), hollow.encode()))
        out.extend((f"{partition}@{k}", None) for k in deletes)
        return out


class Recovery:
    """One partition's stored entries being taken back (see :meth:`Processor.recover`).

    :meth:`take` files one table entry (entries of other partitions are left undecoded when
    their key names their partition); :meth:`finish` follows the chain and hands the
    tournaments to the processor."""

    def __init__(self, processor: Processor, partition: int, upto: int, now: float) -> None:
        processor.forget(partition)
        self.processor = processor
        self.partition = partition
        self.upto = upto
        self.now = now
        self.links: dict[int, StoredFact | FactBatch] = {}
        """By ``prev``: the fact (or hollow batch) that follows that input offset."""
        self.batch_of: dict[int, BatchInfo] = {}
        """By fact offset (or a hollow batch's ``prev``), the batch holding it."""
        self.sent: set[str] = set()
        """Keys of facts marked sent one by one (:class:`FactSent`, older workers)."""
        self.legacy: dict[str, list[str]] = {}
        self.sent_upto: dict[str, int] = {}
        self.attempts: dict[tuple[int, int], Attempt] = {}
        self.released: dict[str, Released] = {}
        self.archives: dict[str, Archived | None] = {}
        """Archive records looked up so far (:meth:`_archived`)."""
        self.broken = False
        self.entries = 0

    def take(self, key: bytes | str | None, raw: bytes | str | None) -> None:
        if raw is None or self.broken:
            return
        if key is not None:
            owner = key_partition(key)
            if owner is not None and owner != self.partition:
                return
            if owner is None and _text(key).endswith("/archived"):
                return
        self.entries += 1
        try:
            items = decode_entries(raw)
        except (ValueError, KeyError, TypeError):
            log.warning("unreadable stored entry %r: ignored", raw[:200])
            return
        info: BatchInfo | None = None
        for item in items:
            if item.partition != self.partition:
                return
            if isinstance(item, SentMark):
                self.sent_upto[item.tournament_id] = item.upto
            elif isinstance(item, FactSent):
                self.sent.add(item.fact)
                if key is not None:
                    tid = item.fact.rpartition("/")[0]
                    self.legacy.setdefault(tid, []).append(_text(key))
            elif isinstance(item, Attempt):
                self.attempts[(item.partition, item.offset)] = item
            elif isinstance(item, Released):
                self.released[item.tournament_id] = item
            elif isinstance(item, FactBatch):  # hollow
                offset = _key_offset(key, item.prev + 1)
                if item.prev < self.upto - 1:
                    info = BatchInfo(offset, item.prev, item.last, {}, True, set(item.held))
                    self._link(item.prev, dataclasses.replace(item, key_offset=offset), info)
            elif isinstance(item, StoredFact) and item.offset < self.upto:
                if info is None:
                    info = BatchInfo(item.offset, item.prev, item.offset, {})
                info.last = item.offset
                info.held.add(item.event.tournament_id)
                self._link(item.prev, item, info)

    def _link(self, prev: int, item: StoredFact | FactBatch, info: BatchInfo) -> None:
        held = self.links.get(prev)
        if held is not None and held != item:
            log.warning("partition %d: two stored entries follow offset %d", self.partition, prev)
            self.broken = True
        self.links[prev] = item
        self.batch_of[item.offset if isinstance(item, StoredFact) else prev] = info

    def _archived(self, tid: str, lookup: Lookup) -> Archived | None:
        """:func:`archived`, looked up once per tournament."""
        if tid not in self.archives:
            self.archives[tid] = archived(lookup, tid, self.partition)
        return self.archives[tid]

    def _accounted(self, hollow: FactBatch, lookup: Lookup) -> bool:
        """Whether every tournament the hollow batch held has a record saying where its
        input lies (:class:`Released` among the entries taken, or :class:`Archived`): a
        changelog that kept the batch but lost the record written before it would otherwise
        skip that tournament's facts in the batch's span."""
        return all(
            tid in self.released or self._archived(tid, lookup) is not None for tid in hollow.held
        )

    def finish(self, lookup: Lookup) -> int:
        """Follow the chain and take its tournaments; the input offset from which the caller
        must re-read and handle the input up to ``upto`` (0 if the stored facts are
        unusable), then :meth:`Processor.materialize` the :meth:`Processor.overdue`
        tournaments."""
        p, proc = self.partition, self.processor
        proc.attempts.update(self.attempts)
        if self.broken:
            return proc.restart(p)
        cursor = -1
        chain: list[StoredFact] = []
        index: dict[int, BatchInfo] = {}
        while cursor < self.upto - 1 and cursor in self.links:
            item = self.links[cursor]
            if isinstance(item, FactBatch) and not self._accounted(item, lookup):
                break  # read from the input instead, as a changelog cut short here
            info = self.batch_of[item.offset if isinstance(item, StoredFact) else cursor]
            index.setdefault(info.key_offset, info)
            if isinstance(item, StoredFact):
                chain.append(item)
                cursor = item.offset
            else:
                cursor = min(item.last, self.upto - 1)
        from_input = {t: r for t, r in self.released.items() if r.end > cursor}
        """Tournaments whose facts were released before a state the chain does not reach (a
        rebuild below it, the fact lost from the buffer, a changelog cut short): read back
        from the input up to the chain's end, as retired ones; the re-read goes on from
        there."""
        floors: dict[str, int] = {}
        """Per tournament, its latest fact carrying its state whose alerts are marked sent:
        the facts before it may have been released (some gone, others in batches that other
        tournaments keep), and are never replayed; those after it are all stored."""
        for fact in chain:
            tid = fact.event.tournament_id
            if fact.state is not None and fact.seq <= self.sent_upto.get(tid, -1):
                floors[tid] = fact.seq
        for fact in chain:
            tid = fact.event.tournament_id
            if tid in from_input:
                continue
            floor = floors.get(tid)
            if floor is not None:
                if fact.seq < floor:
                    continue  # superseded by a stored state
                record = None  # the state is the whole tournament: nothing to restore
            else:
                record = self._archived(tid, lookup)
                if record is not None and fact.seq < record.seq:
                    continue  # a leftover of a retired tournament
            start = floor if floor is not None else record.seq if record else 0
            if fact.seq != proc.seq.get(tid, start):
                log.warning("partition %d: stored fact %s out of sequence", p, fact.key())
                return proc.restart(p)
            if record is not None and tid not in proc.pending:
                proc.archived[tid] = record
                proc.first_offset[tid] = record.first
            proc.pending.setdefault(tid, []).append(fact)
            marked = fact.seq <= self.sent_upto.get(tid, -1) or fact.key() in self.sent
            if fact.alerts and not marked:
                proc.unsent.setdefault(tid, set()).add(fact.seq)
            proc._file(fact, self.now)
            self.batch_of[fact.offset].tournaments[tid] = fact.seq
        for tid in proc.pending:
            if tid in self.sent_upto:
                proc.sent_upto[tid] = self.sent_upto[tid]
            if tid in self.legacy:
                proc.legacy_marks[tid] = self.legacy[tid]
            if tid in self.released:
                proc.released[tid] = self.released[tid].seq
        for tid, released in from_input.items():
            proc.released[tid] = released.seq
            proc.archived[tid] = Archived(p, tid, released.first, cursor + 1, -1)
            proc.partition_of[tid] = p
            proc.first_offset[tid] = released.first
        proc.batches[p] = dict(sorted(index.items()))
        proc.last_fact[p] = cursor
        proc.next_offset[p] = cursor + 1
        log.info(
            "partition %d: %d stored facts of %d tournaments up to input offset %d "
            "(%d with alerts not known to be sent; %d table entries read)",
            p,
            len(chain),
            len({f.event.tournament_id for f in chain}),
            cursor,
            sum(len(s) for s in proc.unsent.values()),
            self.entries,
        )
        return cursor + 1


def _text(key: bytes | str) -> str:
    return key.decode("utf-8", "replace") if isinstance(key, bytes) else key


def _key_offset(key: bytes | str | None, default: int) -> int:
    if key is None:
        return default
    tail = _text(key).partition("@")[2]
    return int(tail) if tail.isdigit() else default


def archived(lookup: Lookup, tid: str, partition: int) -> Archived | None:
    """The archive record of a retired tournament of this partition, if there is one."""
    raw = lookup(archive_key(tid))
    if raw is None:
        return None
    try:
        [record] = decode_entries(raw)
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(record, Archived) or record.partition != partition:
        return None
    return record


@dataclasses.dataclass
class FactBuffer:
    """The facts of each partition handled but not yet written to the ``facts`` table.

    Writing one table entry per input message would put a changelog message (a produce
    request) on every game result; a :class:`~streams.records.FactBatch` is written instead
    when a fact has alerts (so its sent mark follows a stored fact), when :data:`BATCH_FACTS`
    have gathered or when their input reaches :data:`BATCH_BYTES`. Facts still here when a
    worker dies come after the end of the stored chain, and the next worker re-reads them
    from the input topic, as it does for a changelog cut short; a rebuild drops them for the
    same reason."""

    size: int = BATCH_FACTS
    max_bytes: int = BATCH_BYTES
    facts: dict[int, list[StoredFact]] = dataclasses.field(default_factory=dict)
    bytes: dict[int, int] = dataclasses.field(default_factory=dict)

    def add(self, fact: StoredFact, size: int, alerts: bool) -> FactBatch | None:
        """Take a fact (of ``size`` input bytes); the batch to write now, if any."""
        waiting = self.facts.setdefault(fact.partition, [])
        waiting.append(fact)
        total = self.bytes.get(fact.partition, 0) + size
        self.bytes[fact.partition] = total
        if alerts or len(waiting) >= self.size or total >= self.max_bytes:
            return self.take(fact.partition)
        return None

    def take(self, partition: int) -> FactBatch | None:
        waiting = self.facts.pop(partition, None)
        self.bytes.pop(partition, None)
        return FactBatch(tuple(waiting)) if waiting else None

    def drop(self, partition: int) -> None:
        self.facts.pop(partition, None)
        self.bytes.pop(partition, None)


_NOTHING = Outcome()


def _join(first: Outcome, then: Outcome) -> Outcome:
    if first is _NOTHING:
        return then  # the usual case: no stored facts replayed before the message
    return Outcome(
        fact=then.fact or first.fact,
        alerts=first.alerts + then.alerts,
        payloads=first.payloads + then.payloads,
        confirms=first.confirms + then.confirms,
        dead_letter=then.dead_letter or first.dead_letter,
        writes=first.writes + then.writes,
        tournament=then.tournament or first.tournament,
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


def _finished(state: TournamentState) -> bool:
    """Its last planned round is announced; with no planned number of rounds, any round
    (it then retires after the grace period with no new fact, and comes back if more
    come)."""
    planned: int | None = state.tournament.planned_rounds
    return state.announced >= 1 and (planned is None or state.announced >= planned)


def _field_of(message: str) -> str | None:
    """``"result: impossible result…"`` -> ``"result"``; ``None`` for malformed JSON."""
    if message.startswith("malformed JSON"):
        return None
    head = message.split(":", 1)[0].split(";", 1)[0].strip()
    return head or None


__all__ = [
    "BATCH_BYTES",
    "BATCH_FACTS",
    "YIELD_EVERY",
    "FactBuffer",
    "Limits",
    "Outcome",
    "Parsed",
    "Processor",
    "Recovery",
    "Unreplayable",
    "archived",
]
