"""The worker's title applications, with no Kafka in it: its second table, keyed by FIDE id.

The tournament agent turns each norm and rating alert it sends into *title facts*
(:func:`title_messages`, the core's :func:`tracker.titles.sources.facts_of`) on the internal
``title-facts`` topic, keyed by the player's FIDE id, so that all of a player's facts meet on
one partition whichever tournaments they come from. The titles agent
(:mod:`streams.faust.titles`) hands each to :meth:`Titles.handle`: the player's facts are read
from the ``titles`` table, :func:`tracker.titles.facts.apply` gives the facts after and the
``title_application_complete`` / ``title_application_progress`` alerts (to the federations'
topic, keyed by FIDE id), and the table is written (the player's facts, and per partition the
offset of the last title fact handled).

**Nothing lost.** The agent sends a fact's alerts and waits for the broker's acknowledgement
before it writes the table. A message delivered after a gap in its partition's offsets (the
first after a start or a rebalance, or a table recovered short) is preceded by the messages
from the table's offset on, read back from the topic and handled again: alerts already sent
go out again under the same ids (subscribers drop them), a fact already applied changes
nothing. A title fact that cannot be read (a bug: the worker writes them) is dead-lettered.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable
from datetime import date

import pydantic

from streams.records import DeadLetter, encode_alert, raw_text
from tracker import contract as ev
from tracker.domain.tournaments import Tournament
from tracker.rules import TitleRules, title_rules_in_force
from tracker.titles.facts import FACT_ADAPTER, ApplicationAlert, PlayerFacts, apply
from tracker.titles.sources import facts_of

log = logging.getLogger(__name__)

Lookup = Callable[[str], bytes | None]
Write = tuple[str, bytes]


def offset_key(partition: int) -> str:
    """The table key of the last title fact handled on ``partition``."""
    return f"offset/{partition}"


def title_messages(
    alerts: Iterable[ev.OutputEvent], tournament: Tournament | None
) -> list[tuple[bytes, bytes]]:
    """(key, value) of the title facts the alerts of ``tournament`` give: FIDE id, fact."""
    if tournament is None:
        return []
    return [
        (str(fact.fide_id).encode(), fact.model_dump_json().encode())
        for alert in alerts
        for fact in facts_of(alert, tournament)
    ]


@dataclasses.dataclass(frozen=True, slots=True)
class TitleOutcome:
    alerts: tuple[ApplicationAlert, ...] = ()
    payloads: tuple[bytes, ...] = ()
    writes: tuple[Write, ...] = ()
    """Table writes, made once the alerts are acknowledged."""
    dead_letter: DeadLetter | None = None


def _today() -> TitleRules:
    return title_rules_in_force(date.today())


@dataclasses.dataclass
class Titles:
    topic: str
    """The title-facts topic (named in dead letters)."""
    rules: Callable[[], TitleRules] = _today
    """The application rules: those in force today (the worker's clock, not the core's)."""
    next_offset: dict[int, int] = dataclasses.field(default_factory=dict)

    def resume_from(self, lookup: Lookup, partition: int, offset: int) -> int | None:
        """Where the partition must be read back from before the message at ``offset`` is
        handled (the offset after the last one the table has handled), or ``None``."""
        if self.next_offset.get(partition) == offset:
            return None
        mark = lookup(offset_key(partition))
        start = int(mark) + 1 if mark else 0
        return start if start < offset else None

    def handle(
        self, lookup: Lookup, key: bytes | None, value: bytes | None, partition: int, offset: int
    ) -> TitleOutcome:
        self.next_offset[partition] = offset + 1
        mark = (offset_key(partition), str(offset).encode())
        try:
            fact = FACT_ADAPTER.validate_json(value or b"")
        except pydantic.ValidationError as exc:
            letter = DeadLetter.of(
                reason=f"unreadable title fact: {exc.errors()[0]['msg']}",
                field=None,
                value=value,
                key=raw_text(key) if key is not None else None,
                topic=self.topic,
                partition=partition,
                offset=offset,
            )
            return TitleOutcome(writes=(mark,), dead_letter=letter)
        raw = lookup(str(fact.fide_id))
        before = PlayerFacts.model_validate_json(raw) if raw else None
        after, alerts = apply(before, fact, self.rules())
        writes = [mark]
        if after is not before:
            writes.insert(0, (str(fact.fide_id), after.model_dump_json().encode()))
        return TitleOutcome(
            alerts=tuple(alerts),
            payloads=tuple(encode_alert(a) for a in alerts),
            writes=tuple(writes),
        )

    def player(self, lookup: Lookup, fide_id: int) -> PlayerFacts | None:
        raw = lookup(str(fide_id))
        return PlayerFacts.model_validate_json(raw) if raw else None


__all__ = ["TitleOutcome", "Titles", "offset_key", "title_messages"]
