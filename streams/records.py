"""What goes over the wire and into the table: encodings, audiences, JSON Schemas.

* Input topic: one input event per message, the JSON ``tracker replay`` reads, keyed by
  tournament id.
* Output topics: one alert per message, ``model_dump_json()`` (the ``tracker replay --format
  jsonl`` form), keyed by tournament id, routed by audience (:data:`AUDIENCE_OF`).
* Dead-letter topic: a :class:`DeadLetter` per refused input message, of bounded size (a
  prefix of the message, its length and its SHA-256; never the whole message).
* The ``facts`` table (keys starting ``<partition>@`` belong to that partition):

  - a :class:`FactBatch` of consecutive :class:`StoredFact` s (one per accepted input event
    that changed a tournament) of one partition, under ``<partition>@<first offset>``; once
    all its tournaments are retired it becomes *hollow* (no facts, only the offsets it
    covers), and neighbouring hollow batches merge into one;
  - a :class:`SentMark` per tournament (``<partition>@<tournament id>/sent``): up to which
    fact its alerts are all acknowledged;
  - an :class:`Archived` record (``<tournament id>/archived``) per retired tournament: where
    its input starts and ends, to rebuild it from the input topic if a late event comes;
  - an :class:`Attempt` (``<partition>@<offset>/attempt``) per input message the worker
    failed on, so that the message is dead-lettered after a bounded number of attempts.

  Batching keeps the changelog to a few messages per round instead of one per game.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter

from streams.settings import Audience
from tracker import contract as ev
from tracker.engine.state_record import StateRecord

AUDIENCE_OF: dict[str, Audience] = {
    "norm_achieved": "norms",
    "norm_revoked": "norms",
    "title_rating_reached": "titles",
    "ignorable_games": "ignorable",
    "round_finished": "rounds",
    "norm_prospect": "norms",
    "norm_out_of_reach": "norms",
    "norm_prospect_revoked": "norms",
    "title_rating_revoked": "titles",
    "round_reopened": "rounds",
    "standings_corrected": "rounds",
    "title_application_complete": "titles",
    "title_application_progress": "titles",
}
"""The output topic (by audience) of each alert type. Prospects go with the norm alerts:
the same subscribers want them, and one topic keeps a player's ``norm_achieved`` before the
``norm_prospect`` that says they left contention with it (order holds per partition). A
revocation goes where the alert it takes back went. Title applications go to the federations'
topic, with the title levels (keyed by the player's FIDE id)."""

_INPUT_ADAPTER: TypeAdapter[ev.InputEvent] = TypeAdapter(ev.InputEvent)


def encode_input(event: ev.InputEvent) -> bytes:
    """The wire form of an input event (fields left at ``None`` are omitted).

    >>> from datetime import date
    >>> encode_input(ev.RoundClosed(tournament_id="t1", round=2))
    b'{"type":"round_closed","tournament_id":"t1","round":2}'
    """
    return event.model_dump_json(exclude_none=True).encode()


def encode_alert(alert: ev.OutputEvent) -> bytes:
    """The alert's ``model_dump_json()`` as UTF-8 bytes (tested), straight from pydantic's
    serializer: a prospect alert is several kB, decoded to text and encoded back otherwise."""
    return alert.__pydantic_serializer__.to_json(alert)


def decode_alert(raw: bytes | str) -> ev.OutputEvent:
    return ev.OUTPUT_ADAPTER.validate_json(raw)


def alert_topic(alert: ev.OutputEvent, topics: dict[Audience, str]) -> str:
    return topics[AUDIENCE_OF[alert.type]]


RAW_PREFIX_BYTES = 2048
"""The bytes of a refused message a dead letter keeps (any valid input event is shorter)."""
REASON_CHARS = 1000
KEY_CHARS = 200


class DeadLetter(BaseModel):
    """An input message the worker refused; the tournament's state was left untouched.

    Its size is bounded whatever the message: it keeps at most :data:`RAW_PREFIX_BYTES` of
    the message, with the message's length and SHA-256 to find the whole of it in the input
    topic, and the reason and key are cut at :data:`REASON_CHARS` / :data:`KEY_CHARS`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: str
    """What is wrong, naming the field: ``black: player 3 cannot be paired against themself``."""
    field: str | None
    """The offending field (``None`` when the message is not JSON at all)."""
    raw: str
    """The message value as received, up to its first :data:`RAW_PREFIX_BYTES` bytes (decoded
    as UTF-8, undecodable bytes escaped)."""
    key: str | None
    topic: str
    partition: int
    offset: int
    raw_bytes: int | None = None
    """The length of the whole message value, in bytes (``None`` in letters written before
    this field existed)."""
    raw_sha256: str | None = None
    """The SHA-256 of the whole message value, hex (``None`` when there was no value, and in
    older letters)."""
    truncated: bool = False
    """``raw`` is only the beginning of the message."""

    @classmethod
    def of(
        cls,
        *,
        reason: str,
        field: str | None,
        value: bytes | str | None,
        key: str | None,
        topic: str,
        partition: int,
        offset: int,
    ) -> DeadLetter:
        data = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value
        return cls(
            reason=_cut(reason, REASON_CHARS),
            field=None if field is None else _cut(field, KEY_CHARS),
            raw=raw_text(data[:RAW_PREFIX_BYTES] if data is not None else None),
            key=None if key is None else _cut(key, KEY_CHARS),
            topic=topic,
            partition=partition,
            offset=offset,
            raw_bytes=len(data) if data is not None else 0,
            raw_sha256=hashlib.sha256(data).hexdigest() if data is not None else None,
            truncated=data is not None and len(data) > RAW_PREFIX_BYTES,
        )

    def encode(self) -> bytes:
        return self.model_dump_json().encode()


class WebhookDeadLetter(BaseModel):
    """An alert that could not be delivered to a webhook receiver (``tracker alerts
    --webhook``): refused there, or still failing when its retries ran out."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    receiver: str
    """The receiver's URL."""
    alert_id: str
    type: str
    tournament_id: str
    reason: str
    """The last answer or error, and why it was not tried again."""
    attempts: int
    status: int | None
    """The receiver's last HTTP status (``None``: never reached)."""
    alert: str
    """The alert's JSON, as it was posted."""
    topic: str
    partition: int
    offset: int

    def encode(self) -> bytes:
        return self.model_dump_json().encode()


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def raw_text(value: bytes | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return value.decode("utf-8", errors="backslashreplace")


@dataclasses.dataclass(frozen=True, slots=True)
class StoredFact:
    """One accepted input event in the ``facts`` table (inside a :class:`FactBatch`).

    ``offset`` is the input offset it came from and ``prev`` the offset of the fact stored
    before it from the same partition (-1 for the first): the facts of a partition form a
    chain, so a worker can tell the unbroken prefix it recovered from a changelog that was
    cut short, and re-read the input topic after it. ``alerts`` is how many alerts the event
    produced; once the broker has acknowledged all of them a :class:`SentMark` is stored.
    ``done`` says the tournament was finished after this fact (its last round announced).

    A correction's fact also carries ``state``, the tournament's whole state after it (a
    :class:`~tracker.engine.state_record.StateRecord`, as JSON), and ``first``, the input
    offset of the tournament's first fact: a worker rebuilds the tournament from the latest
    such fact whose alerts are acknowledged, and the facts before it are no longer needed
    (see :mod:`streams.processor`).
    """

    partition: int
    offset: int
    prev: int
    seq: int
    event: ev.InputEvent
    alerts: int = 0
    done: bool = False
    state: str | dict[str, Any] | None = None
    """The state record as JSON text (made here) or as the dict a table entry decodes to."""
    first: int = -1

    def key(self) -> str:
        return fact_key(self.event.tournament_id, self.seq)

    def encode(self) -> bytes:
        return self.json_text().encode()

    def json_text(self) -> str:
        """The fact as compact JSON: ``p``, ``o``, ``prev``, ``s``, the event ``e`` (fields left
        at ``None`` omitted), ``a`` when it has alerts, ``f`` when it finished the tournament,
        and a correction's ``st`` and ``f0``. The event is written by pydantic straight to
        JSON: the same text as ``json.dumps`` of its ``model_dump(mode="json")`` (tested),
        without building its dict first."""
        event = self.event.model_dump_json(exclude_none=True)
        head = f'{{"p":{self.partition},"o":{self.offset},"prev":{self.prev},"s":{self.seq}'
        tail = (f',"a":{self.alerts}' if self.alerts else "") + (',"f":1' if self.done else "")
        if self.state is not None:
            state = self.state if isinstance(self.state, str) else _dumps(self.state).decode()
            tail += f',"st":{state},"f0":{self.first}'
        return f'{head},"e":{event}{tail}}}'

    def state_record(self) -> StateRecord | None:
        if self.state is None:
            return None
        if isinstance(self.state, str):
            return StateRecord.model_validate_json(self.state)
        return StateRecord.model_validate(self.state, strict=False)

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> StoredFact:
        return cls(
            partition=body["p"],
            offset=body["o"],
            prev=body["prev"],
            seq=body["s"],
            # written by this program from a validated event: JSON types (date strings,
            # enum values, arrays), which the input models' strict mode refuses in Python
            event=_INPUT_ADAPTER.validate_python(body["e"], strict=False),
            alerts=body.get("a", 0),
            done=bool(body.get("f", 0)),
            state=body.get("st"),
            first=body.get("f0", -1),
        )

    @classmethod
    def decode(cls, raw: bytes | str) -> StoredFact:
        return cls.from_body(json.loads(raw))


@dataclasses.dataclass(frozen=True, slots=True)
class SentMark:
    """The broker has acknowledged every alert of the tournament's facts up to sequence
    number ``upto``: a worker rebuilding the tournament must not send them again. One key
    per tournament, overwritten as its rounds go by."""

    partition: int
    tournament_id: str
    upto: int

    def key(self) -> str:
        return f"{self.partition}@{self.tournament_id}/sent"

    def encode(self) -> bytes:
        return _dumps({"p": self.partition, "sent": self.tournament_id, "upto": self.upto})


@dataclasses.dataclass(frozen=True, slots=True)
class FactSent:
    """A sent mark of one fact (``fact``: a :meth:`StoredFact.key`), as workers wrote them
    before :class:`SentMark` (still read)."""

    partition: int
    fact: str


@dataclasses.dataclass(frozen=True, slots=True)
class FactBatch:
    """Consecutive stored facts of one partition (each ``prev`` the offset of the one before),
    written as one table entry: the worker stores a partition's facts when they carry alerts,
    when :data:`streams.processor.BATCH_FACTS` have gathered or when they reach a size
    bound. Facts not stored yet when a worker dies are after the end of the stored chain, so
    the next worker re-reads them from the input topic like any changelog cut short.

    A *hollow* batch has no facts: every tournament with a fact in the input offsets
    ``prev`` + 1 … ``last`` was retired (see :class:`Archived`); the chain jumps over them."""

    facts: tuple[StoredFact, ...]
    partition: int = -1
    prev: int = -1
    last: int = -1
    key_offset: int = -1
    """The first offset of the batch as first written: the table key, kept when it goes
    hollow."""
    held: tuple[str, ...] = ()
    """A hollow batch's tournaments: those that had facts in its span. Each has a
    :class:`Released` or :class:`Archived` record saying where its input lies; a rebuild
    that finds one without either stops its chain before the batch (hollow batches written
    before this field hold none and are followed as they were)."""

    def __post_init__(self) -> None:
        if self.facts:  # the span comes from the facts
            first, end = self.facts[0], self.facts[-1]
            object.__setattr__(self, "partition", first.partition)
            object.__setattr__(self, "prev", first.prev)
            object.__setattr__(self, "last", end.offset)
            if self.key_offset < 0:
                object.__setattr__(self, "key_offset", first.offset)

    @classmethod
    def hollow(
        cls, partition: int, key_offset: int, prev: int, last: int, held: tuple[str, ...] = ()
    ) -> FactBatch:
        return cls((), partition=partition, prev=prev, last=last, key_offset=key_offset, held=held)

    def key(self) -> str:
        return f"{self.partition}@{self.key_offset}"

    def encode(self) -> bytes:
        if not self.facts:
            body = {"p": self.partition, "prev": self.prev, "last": self.last, "facts": []}
            return _dumps({**body, "held": list(self.held)} if self.held else body)
        facts = ",".join(f.json_text() for f in self.facts)
        return f'{{"p":{self.partition},"facts":[{facts}]}}'.encode()


@dataclasses.dataclass(frozen=True, slots=True)
class Archived:
    """A retired tournament (finished, or idle for long): its facts are gone from the
    table and its state from memory. Its input events are the messages keyed by its id in
    input offsets ``first`` … ``end`` - 1 of ``partition``; ``seq`` is the number of facts
    they made. A late event for it rebuilds it from there. Stored facts of the tournament
    with a sequence number below ``seq`` are leftovers (a changelog cut short between the
    archiving and the deletions) and are ignored."""

    partition: int
    tournament_id: str
    first: int
    end: int
    seq: int

    def key(self) -> str:
        return archive_key(self.tournament_id)

    def encode(self) -> bytes:
        return _span("archived", self)


@dataclasses.dataclass(frozen=True, slots=True)
class Released:
    """A tournament's stored facts before input offset ``end`` were released: its fact there
    (sequence number ``seq``) carries its state, and batches holding only earlier facts of it
    went hollow. A worker whose stored chain of the partition does not reach ``end`` (Faust
    delivering it again from an offset long handled, the fact lost from the buffer) reads the
    tournament back from its input messages from ``first`` instead, as a retired one. One key
    per tournament, overwritten; deleted when the tournament retires."""

    partition: int
    tournament_id: str
    first: int
    end: int
    seq: int

    def key(self) -> str:
        return f"{self.partition}@{self.tournament_id}/released"

    def encode(self) -> bytes:
        return _span("released", self)


def _span(kind: str, record: Archived | Released) -> bytes:
    """The table form of a record naming where a tournament's input lies."""
    body = {"p": record.partition, kind: record.tournament_id, "first": record.first}
    return _dumps({**body, "end": record.end, "s": record.seq})


@dataclasses.dataclass(frozen=True, slots=True)
class Attempt:
    """The worker failed ``count`` times on the input message at ``offset`` (a bug or a
    message the worker cannot take, not bad input, which is dead-lettered at once): the
    next worker dead-letters the message instead of failing on it forever."""

    partition: int
    offset: int
    count: int
    error: str

    def key(self) -> str:
        return f"{self.partition}@{self.offset}/attempt"

    def encode(self) -> bytes:
        body = {"p": self.partition, "attempt": self.offset, "n": self.count}
        return _dumps({**body, "error": _cut(self.error, REASON_CHARS)})


Stored = StoredFact | SentMark | FactSent | FactBatch | Archived | Released | Attempt


def decode_stored(raw: bytes | str) -> Stored:
    """A value of the ``facts`` table (``ValueError``/``KeyError`` if unreadable)."""
    body = json.loads(raw)
    if "sent" in body:
        if "upto" in body:
            return SentMark(body["p"], body["sent"], body["upto"])
        return FactSent(partition=body["p"], fact=body["sent"])
    if "facts" in body:
        facts = tuple(StoredFact.from_body(f) for f in body["facts"])
        if facts:
            return FactBatch(facts)
        held = tuple(str(t) for t in body.get("held", ()))
        return FactBatch.hollow(body["p"], -1, body["prev"], body["last"], held)
    if "archived" in body:
        return Archived(body["p"], body["archived"], body["first"], body["end"], body["s"])
    if "released" in body:
        return Released(body["p"], body["released"], body["first"], body["end"], body["s"])
    if "attempt" in body:
        return Attempt(body["p"], body["attempt"], body["n"], body.get("error", ""))
    return StoredFact.from_body(body)


def decode_entries(raw: bytes | str) -> tuple[Stored, ...]:
    """The facts and other records of one value of the ``facts`` table (a batch's facts
    one by one; a hollow batch as itself)."""
    item = decode_stored(raw)
    return item.facts if isinstance(item, FactBatch) and item.facts else (item,)


def key_partition(key: bytes | str) -> int | None:
    """The partition a table key belongs to (``b"3@120"`` -> 3), ``None`` for keys without
    one (archive records and sent marks written before marks carried it).

    >>> key_partition(b"3@120"), key_partition("12@t1/0/sent"), key_partition(b"t1/archived")
    (3, 12, None)
    """
    text = key.decode("utf-8", "replace") if isinstance(key, bytes) else key
    head, at, _ = text.partition("@")
    return int(head) if at and head.isdigit() and len(head) < 7 else None


def _dumps(body: dict[str, Any]) -> bytes:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def fact_key(tournament_id: str, seq: int) -> str:
    return f"{tournament_id}/{seq}"


def archive_key(tournament_id: str) -> str:
    return f"{tournament_id}/archived"


# --------------------------------------------------------------------------- schemas


def schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas a subscriber can validate messages with, by file name."""
    return {
        "input-event.schema.json": _titled(
            _INPUT_ADAPTER.json_schema(), "Input event (input topic, keyed by tournament id)"
        ),
        "output-event.schema.json": _titled(
            ev.OUTPUT_ADAPTER.json_schema(), "Alert (every output topic, keyed by tournament id)"
        ),
        "dead-letter.schema.json": _titled(
            DeadLetter.model_json_schema(), "Refused input message (dead-letter topic)"
        ),
        "webhook-dead-letter.schema.json": _titled(
            WebhookDeadLetter.model_json_schema(),
            "Alert not delivered to a webhook receiver (webhook dead-letter topic)",
        ),
    }


def _titled(schema: dict[str, Any], title: str) -> dict[str, Any]:
    out = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
    out.setdefault("title", title)
    return out


def write_schemas(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = directory / name
        path.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        written.append(path)
    return written


__all__ = [
    "AUDIENCE_OF",
    "Archived",
    "Attempt",
    "DeadLetter",
    "FactBatch",
    "FactSent",
    "Released",
    "SentMark",
    "Stored",
    "StoredFact",
    "WebhookDeadLetter",
    "alert_topic",
    "archive_key",
    "decode_alert",
    "decode_entries",
    "decode_stored",
    "encode_alert",
    "encode_input",
    "fact_key",
    "key_partition",
    "raw_text",
    "schemas",
    "write_schemas",
]
