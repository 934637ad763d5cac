"""What goes over the wire and into the table: encodings, audiences, JSON Schemas.

* Input topic: one input event per message, the JSON ``tracker replay`` reads, keyed by
  tournament id.
* Output topics: one alert per message, ``model_dump_json()`` (the ``tracker replay --format
  jsonl`` form), keyed by tournament id, routed by audience (:data:`AUDIENCE_OF`).
* Dead-letter topic: a :class:`DeadLetter` per refused input message.
* The ``facts`` table: a :class:`FactBatch` of consecutive :class:`StoredFact` s (one per
  accepted input event that changed a tournament) of one partition, under the key
  ``<partition>@<first offset>``, and a :class:`SentMark` (``<tournament id>/<sequence
  number>/sent``) once a fact's alerts are acknowledged. Batching keeps the changelog to a
  few messages per round instead of one per game.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, TypeAdapter

from streams.settings import Audience
from tracker import events as ev

AUDIENCE_OF: dict[str, Audience] = {
    "norm_achieved": "norms",
    "norm_revoked": "norms",
    "title_rating_reached": "titles",
    "ignorable_games": "ignorable",
    "round_finished": "rounds",
    "norm_prospect": "norms",
    "norm_out_of_reach": "norms",
}
"""The output topic (by audience) of each alert type. Prospects go with the norm alerts:
the same subscribers want them, and one topic keeps a player's ``norm_achieved`` before the
``norm_prospect`` that says they left contention with it (order holds per partition)."""

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


class DeadLetter(BaseModel):
    """An input message the worker refused; the tournament's state was left untouched."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: str
    """What is wrong, naming the field: ``black: player 3 cannot be paired against themself``."""
    field: str | None
    """The offending field (``None`` when the message is not JSON at all)."""
    raw: str
    """The message value as received (decoded as UTF-8, undecodable bytes escaped)."""
    key: str | None
    topic: str
    partition: int
    offset: int

    def encode(self) -> bytes:
        return self.model_dump_json().encode()


def raw_text(value: bytes | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return value.decode("utf-8", errors="backslashreplace")


@dataclasses.dataclass(frozen=True, slots=True)
class StoredFact:
    """One accepted input event in the ``facts`` table, under :meth:`key`.

    ``offset`` is the input offset it came from and ``prev`` the offset of the fact stored
    before it from the same partition (-1 for the first): the facts of a partition form a
    chain, so a worker can tell the unbroken prefix it recovered from a changelog that was
    cut short, and re-read the input topic after it. ``alerts`` is how many alerts the event
    produced; once the broker has acknowledged all of them a :class:`SentMark` is stored.
    """

    partition: int
    offset: int
    prev: int
    seq: int
    event: ev.InputEvent
    alerts: int = 0

    def key(self) -> str:
        return fact_key(self.event.tournament_id, self.seq)

    def encode(self) -> bytes:
        return self.json_text().encode()

    def json_text(self) -> str:
        """The fact as compact JSON: ``p``, ``o``, ``prev``, ``s``, the event ``e`` (fields left
        at ``None`` omitted) and ``a`` when it has alerts. The event is written by pydantic
        straight to JSON: the same text as ``json.dumps`` of its ``model_dump(mode="json")``
        (tested), without building its dict first."""
        event = self.event.model_dump_json(exclude_none=True)
        head = f'{{"p":{self.partition},"o":{self.offset},"prev":{self.prev},"s":{self.seq}'
        tail = f',"a":{self.alerts}}}' if self.alerts else "}"
        return f'{head},"e":{event}{tail}'

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
        )

    @classmethod
    def decode(cls, raw: bytes | str) -> StoredFact:
        return cls.from_body(json.loads(raw))


@dataclasses.dataclass(frozen=True, slots=True)
class SentMark:
    """The alerts of the fact ``fact`` (a :meth:`StoredFact.key`) were all acknowledged by
    the broker: a worker rebuilding the tournament must not send them again."""

    partition: int
    fact: str

    def key(self) -> str:
        return f"{self.fact}/sent"

    def encode(self) -> bytes:
        return _dumps({"p": self.partition, "sent": self.fact})


@dataclasses.dataclass(frozen=True, slots=True)
class FactBatch:
    """Consecutive stored facts of one partition (each ``prev`` the offset of the one before),
    written as one table entry: the worker stores a partition's facts when they carry alerts
    or when :data:`streams.agents.BATCH_FACTS` have gathered. Facts not stored yet when a
    worker dies are after the end of the stored chain, so the next worker re-reads them
    from the input topic like any changelog cut short."""

    facts: tuple[StoredFact, ...]

    def key(self) -> str:
        return f"{self.facts[0].partition}@{self.facts[0].offset}"

    def encode(self) -> bytes:
        facts = ",".join(f.json_text() for f in self.facts)
        return f'{{"p":{self.facts[0].partition},"facts":[{facts}]}}'.encode()


def decode_stored(raw: bytes | str) -> StoredFact | SentMark | FactBatch:
    """A value of the ``facts`` table (``ValueError``/``KeyError`` if unreadable)."""
    body = json.loads(raw)
    if "sent" in body:
        return SentMark(partition=body["p"], fact=body["sent"])
    if "facts" in body:
        return FactBatch(tuple(StoredFact.from_body(f) for f in body["facts"]))
    return StoredFact.from_body(body)


def decode_entries(raw: bytes | str) -> tuple[StoredFact | SentMark, ...]:
    """The facts and sent marks of one value of the ``facts`` table."""
    item = decode_stored(raw)
    return item.facts if isinstance(item, FactBatch) else (item,)


def _dumps(body: dict[str, Any]) -> bytes:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def fact_key(tournament_id: str, seq: int) -> str:
    return f"{tournament_id}/{seq}"


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
    "DeadLetter",
    "FactBatch",
    "SentMark",
    "StoredFact",
    "alert_topic",
    "decode_alert",
    "decode_entries",
    "decode_stored",
    "encode_alert",
    "encode_input",
    "fact_key",
    "raw_text",
    "schemas",
    "write_schemas",
]
