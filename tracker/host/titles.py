"""What ``tracker titles add FILE`` takes in, as title facts: no I/O here (the command reads
the bytes, the store keeps the facts).

A file is one of:

* a tournament (TRF, or JSONL input events): replayed as ``tracker replay`` does; its norm
  and rating alerts become facts (:func:`tracker.titles.sources.facts_of`, as in the worker),
  and each norm in force at the end brings its IT1 certificate;
* an IT1 certificate the tracker wrote (``tracker certificate --format json``);
* an import file: ``{"norms": [...], "ratings": [...]}``, each norm a certificate or the
  minimal form of a held norm (:class:`tracker.titles.sources.HeldNorm`), each rating a
  published or interim rating with its date and source (``docs/titles.md``);
* a FIDE rating list (TXT or XML), whose ratings are published on the list's first day.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from datetime import date
from typing import Any

import pydantic

from tracker import contract as ev
from tracker.contract.inputs import describe
from tracker.domain.titles import Title
from tracker.domain.tournaments import Tournament
from tracker.formats.decoding import decode
from tracker.formats.rating_list import RatingListError, read_rating_list
from tracker.host.replay import InputError, Replay, Sourced, read_events, with_overrides
from tracker.render.certificate import FORM, NoNorm, NormCertificate, certificate
from tracker.titles.facts import NormRecorded, NormWithdrawn, RatingRecorded, TitleFact
from tracker.titles.sources import (
    Evidence,
    HeldNormError,
    HeldRating,
    evidenced_norm,
    facts_of,
    held_norm,
)

Certificates = dict[tuple[int, str], NormCertificate]
"""IT1 certificates by (FIDE id, norm key)."""


@dataclasses.dataclass
class Batch:
    """The facts a file gives, in order, and the certificates that go with its norms."""

    facts: list[TitleFact] = dataclasses.field(default_factory=list)
    certificates: Certificates = dataclasses.field(default_factory=dict)
    tournaments: set[str] = dataclasses.field(default_factory=set)
    """Tournaments the file replays in whole: their earlier facts give way to these."""
    what: str = ""


def read_title_file(
    data: bytes,
    name: str,
    edition: str | None = None,
    rounds: int | None = None,
    list_date: date | None = None,
    federations: frozenset[str] = frozenset(),
) -> Batch:
    """The facts of a file (see the module's doc); :exc:`InputError` names what is wrong."""
    text = decode(data).text
    head = text.lstrip()[:2000]
    if head.startswith(("<", "ID Number")) or "\nID Number" in head:
        return rating_list(text, name, list_date, federations)
    whole = _json_object(text)
    if whole is not None and whole.get("form") == FORM:
        return _certificates([whole], name)
    if whole is not None and ("norms" in whole or "ratings" in whole):
        return import_file(whole, name)
    return tournament(with_overrides(read_events(text, name), edition, rounds), name)


def _json_object(text: str) -> dict[str, Any] | None:
    """The file as one JSON object, or ``None`` (a TRF, or JSONL of several events)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        found = json.loads(text)
    except ValueError:
        return None
    return found if isinstance(found, dict) and "type" not in found else None


def tournament(events: Iterable[Sourced], name: str) -> Batch:
    """Replay a tournament's events: the facts of its alerts, and the certificate of each
    norm in force at the end."""
    run = Replay()
    batch = Batch(what=f"{name}: tournament replayed")
    for item in events:
        for alert in run.feed(item):
            state = run.states[alert.tournament_id]
            batch.facts.extend(facts_of(alert, state.tournament))
    batch.tournaments = set(run.states)
    in_force: dict[tuple[int, str], NormRecorded] = {}
    for fact in batch.facts:
        if isinstance(fact, NormRecorded):
            in_force[(fact.fide_id, fact.norm.key)] = fact
        elif isinstance(fact, NormWithdrawn):
            in_force.pop((fact.fide_id, fact.key), None)
    for (fide_id, key), fact in in_force.items():
        state = run.states[fact.tournament_id]
        try:
            cert = certificate(state, fact.player.rank, Title(fact.norm.title))
        except NoNorm:
            continue  # announced with conditions still open: no certificate yet
        batch.certificates[(fide_id, key)] = cert
    return batch


# --------------------------------------------------------------------------- certificates


def from_certificate(c: NormCertificate, name: str) -> tuple[ev.PlayerRef, ev.TitleNorm]:
    """The norm an IT1 certificate the tracker wrote certifies."""
    if c.player.fide_id is None:
        raise InputError(f"{name}: player.fide_id: the certificate names no FIDE id")
    t = c.tournament
    event = Tournament(
        id=t.tournament_id,
        name=t.name,
        start_date=t.start_date,
        end_date=t.end_date,
        planned_rounds=t.planned_rounds,
        host_federation=t.host_federation,
        round_dates=c.event.round_dates,
    )
    found = Evidence(
        title=c.title,
        edition=c.edition,
        player=c.player,
        rounds=c.rounds_considered,
        games=c.games_counted,
        credited=c.games_credited,
        requirements=c.requirements,
        opponents=tuple(g.opponent for g in c.games),
        score=c.score,
        score_text=c.score_text,
        average=c.ra,
        performance=c.rp,
        flags=c.flags,
    )
    norm = evidenced_norm(event, found, source=f"certificate {name}", alert_id=c.alert_id)
    return c.player, norm


def _certificates(records: list[dict[str, Any]], name: str) -> Batch:
    batch = Batch(what=f"{name}: {len(records)} certificate(s)")
    for i, record in enumerate(records):
        where = name if len(records) == 1 else f"{name}: norms[{i}]"
        try:
            cert = NormCertificate.model_validate(record)
        except pydantic.ValidationError as exc:
            raise InputError(f"{where}: {describe(exc, skip=0)}") from None
        player, norm = from_certificate(cert, where)
        assert player.fide_id is not None
        batch.facts.append(_recorded(player, norm))
        batch.certificates[(player.fide_id, norm.key)] = cert
    return batch


def _recorded(player: ev.PlayerRef, norm: ev.TitleNorm) -> NormRecorded:
    assert player.fide_id is not None
    return NormRecorded(
        fide_id=player.fide_id,
        player=player,
        tournament_id=norm.tournament_id or "",
        round=norm.round or 0,
        norm=norm,
    )


# --------------------------------------------------------------------------- imports


def import_file(whole: dict[str, Any], name: str) -> Batch:
    """``{"norms": [...], "ratings": [...]}``: certificates and held norms, and ratings."""
    unknown = set(whole) - {"norms", "ratings"}
    if unknown:
        raise InputError(f"{name}: {sorted(unknown)[0]}: not a field of an import file")
    norms, ratings = whole.get("norms", []), whole.get("ratings", [])
    for field, value in (("norms", norms), ("ratings", ratings)):
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise InputError(f"{name}: {field}: a list of objects")
    batch = Batch(what=f"{name}: {len(norms)} norm(s), {len(ratings)} rating(s)")
    for i, record in enumerate(norms):
        where = f"{name}: norms[{i}]"
        if record.get("form") == FORM:
            found = _certificates([record], where)
            batch.facts += found.facts
            batch.certificates |= found.certificates
            continue
        try:
            player, norm = held_norm(record, where)
        except HeldNormError as exc:
            raise InputError(str(exc)) from None
        batch.facts.append(_recorded(player, norm))
    for i, record in enumerate(ratings):
        batch.facts.append(held_rating(record, f"{name}: ratings[{i}]"))
    return batch


def held_rating(record: dict[str, Any], where: str) -> RatingRecorded:
    """A rating of an import file (:class:`~tracker.titles.sources.HeldRating`)."""
    try:
        r = HeldRating.model_validate_json(json.dumps(record, allow_nan=False))
    except pydantic.ValidationError as exc:
        raise InputError(f"{where}: {describe(exc, skip=0)}") from None
    rating = ev.TitleRating(
        key=f"{r.kind}/{r.on.isoformat()}/{r.source}",
        rating=r.rating,
        on=r.on,
        kind=r.kind,
        source=r.source,
    )
    player = ev.PlayerRef(
        rank=0, fide_id=r.fide_id, name=r.name, federation=r.federation, title=None, rating=None
    )
    return RatingRecorded(fide_id=r.fide_id, player=player, rating=rating)


# --------------------------------------------------------------------------- rating lists

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def list_month(text: str, name: str) -> date | None:
    """The first day of a rating list's month, from its rating column (``SEP26``) or its file
    name (``standard_sep26frl.txt``); ``None`` when neither says."""
    header = next((line for line in text.splitlines() if line.startswith("ID Number")), "")
    for where in (header, name):
        found = re.search(r"(?i)(?<![a-z])(" + "|".join(_MONTHS) + r")(\d\d)(?!\d)", where)
        if found:
            return date(2000 + int(found.group(2)), _MONTHS.index(found.group(1).lower()) + 1, 1)
    return None


def rating_list(text: str, name: str, list_date: date | None, federations: frozenset[str]) -> Batch:
    """The published ratings of a FIDE rating list (of ``federations`` only, when given)."""
    on = list_date or list_month(text, name)
    if on is None:
        raise InputError(
            f"{name}: the list's month is in neither its rating column nor its name: give it "
            "with --list-date"
        )
    try:
        entries = read_rating_list(text)
    except RatingListError as exc:
        raise InputError(f"{name}: {exc}") from None
    batch = Batch(what=f"{name}: rating list of {on.isoformat()}")
    for e in entries:
        if e.rating is None or (federations and e.federation not in federations):
            continue
        player = ev.PlayerRef(
            rank=0,
            fide_id=e.fide_id,
            name=e.name,
            federation=e.federation,
            title=e.title.value if e.title else None,
            rating=e.rating,
        )
        rating = ev.TitleRating(
            key=f"list/{on.isoformat()}",
            rating=e.rating,
            on=on,
            kind="published",
            source=f"FIDE rating list of {on.isoformat()}",
        )
        batch.facts.append(RatingRecorded(fide_id=e.fide_id, player=player, rating=rating))
    return batch


__all__ = [
    "Batch",
    "Certificates",
    "from_certificate",
    "import_file",
    "list_month",
    "rating_list",
    "read_title_file",
    "tournament",
]
