"""Title facts from the tracker's own alerts, and from a federation's record of older norms.

:func:`facts_of` turns one alert of a tournament into the facts of its player (by FIDE id):
``norm_achieved`` records the norm (keyed ``<tournament id>/<title>``, so a later alert of
the same norm replaces it) and ``norm_revoked`` withdraws it; ``title_rating_reached``
records the interim rating that reached the title's level and ``title_rating_revoked``
withdraws it; every alert about a player also records the rating the event took from the
published list in force at its start. The embedded ``tracker titles add`` and the worker
both use it, so the two judge from the same facts.

:func:`held_norm` reads the minimal form of a norm a federation already holds (``docs/
titles.md``): its games credited are worked out by the norm's own edition (1.5.4, 1.53).
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Sequence
from datetime import date
from typing import Any, Literal

import pydantic
from pydantic import ConfigDict, Field

from tracker import contract as ev
from tracker.contract.fields import MAX_FIDE_ID, MAX_RATING, MAX_ROUNDS, Name, _Event
from tracker.contract.inputs import describe
from tracker.domain.players import Player
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, Tournament
from tracker.rules import TitleRules, title_rules_in_force, title_rules_named
from tracker.titles.facts import (
    NormRecorded,
    NormWithdrawn,
    RatingRecorded,
    RatingWithdrawn,
    TitleFact,
)

EXEMPT = "exempt"
"""What the evidence's ``federations`` requirement needs when an exemption freed the event
(``tracker/norms/federations.py``): its article is the exemption's."""


def normal_foreigners(
    rules: TitleRules,
    title: Title,
    t: Tournament,
    player: Player,
    opponents: Sequence[str | None],
    exemption: str | None,
) -> bool | None:
    """Whether a norm against opponents of these federations meets the normal foreigner
    requirement of its edition, whatever exemption the event had; ``None`` when a federation is
    not known.

    Reading [titles 40] 1.4.3e (1.43f, 2.2): "at least one norm under the normal foreigner
    requirement": a norm judged without an exemption (its evidence checked it), or a norm of an
    exempt event whose counted games meet the requirement anyway (at least two federations other
    than the applicant's, and the caps of 1.4.4 / 1.44a, or 2.2's shares before 2009, under the
    norm's edition). An opponent of unknown federation makes it unknown, which does not count."""
    if exemption is None:
        return True
    own = player.federation
    if own is None or any(f is None for f in opponents):
        return None
    feds = Counter(f for f in opponents if f is not None)
    rule = rules.mix(title, len(opponents), t, player, None)
    checks = [len({f for f in feds if rules.is_foreign(f, own)}) >= rule.min_foreign_federations]
    if rule.max_own_federation is not None:
        checks.append(feds[own] <= rule.max_own_federation)
    if rule.max_one_federation is not None:
        checks.append(max(feds.values(), default=0) <= rule.max_one_federation)
    if rule.min_other_federations is not None:
        checks.append(len(opponents) - feds[own] >= rule.min_other_federations)
    return all(checks)


def round_date(t: Tournament, number: int | None) -> date:
    """The best known date of round ``number``: its own (TRF ``132``), else the event's end
    date when it is the last round, else the start date."""
    dates = t.round_dates
    if number is not None and 1 <= number <= len(dates) and dates[number - 1] is not None:
        found = dates[number - 1]
        assert found is not None
        return found
    if number is not None and t.is_last(number) and t.end_date is not None:
        return t.end_date
    return t.start_date


def norm_of(alert: ev.NormAchieved, t: Tournament) -> ev.TitleNorm:
    """The norm of a ``norm_achieved`` alert of tournament ``t``."""
    e = alert.evidence
    return evidenced_norm(
        t,
        Evidence(
            title=alert.title,
            edition=alert.edition,
            player=alert.player,
            rounds=e.rounds_considered,
            games=e.games,
            credited=e.games_credited,
            requirements=e.requirements,
            opponents=tuple(g.opponent for g in e.counted),
            score=e.score,
            score_text=e.score_text,
            average=e.average_rating,
            performance=e.performance,
            flags=alert.flags,
        ),
        source=f"norm_achieved {alert.alert_id}",
        alert_id=alert.alert_id,
        problems=[f"{c.article}: {c.text}" for c in alert.conditions],
    )


@dataclasses.dataclass(frozen=True, slots=True)
class Evidence:
    """What a norm's IT1-like evidence says, as an alert or a certificate carries it."""

    title: str
    edition: str
    player: ev.PlayerRef
    rounds: int
    """Rounds 1 to this one were considered."""
    games: int
    credited: int
    requirements: Sequence[ev.Requirement]
    opponents: Sequence[ev.PlayerRef]
    """The opponents counted."""
    score: float
    score_text: str
    average: int | None
    performance: int | None
    flags: ev.NormFlags | None


def evidenced_norm(
    t: Tournament,
    e: Evidence,
    *,
    source: str,
    alert_id: str | None,
    problems: Sequence[str] = (),
) -> ev.TitleNorm:
    """The norm an evidence shows: the exemption its federation requirement names, whether its
    games count as 1.4.1c's, whether its opponents meet the normal foreigner requirement anyway,
    and why it cannot be used yet (``problems``).

    Reading [titles 90] Norms not used: a norm announced before the last round with conditions
    still open waits for them (it is announced again without them, or revoked); a norm of an
    event with more rounds on a day than its edition allows (1.13, 1.1.3) is left out. Both are
    said."""
    rules = title_rules_named(e.edition)
    exemption = next(
        (r.article for r in e.requirements if r.name == "federations" and r.needed == EXEMPT),
        None,
    )
    short = bool(rules.short_norm_article) and any(
        r.article == rules.short_norm_article for r in e.requirements if r.name == "games"
    )
    flags, limit, problems = e.flags, rules.max_rounds_per_day, list(problems)
    if flags is not None and flags.rounds_per_day_ok is False and limit is not None:
        problems.append(f"{limit[1]}: {flags.rounds_per_day} rounds on a day (at most {limit[0]})")
    applicant = Player(rank=e.player.rank, name=e.player.name, federation=e.player.federation)
    normal = normal_foreigners(
        rules, Title(e.title), t, applicant, [o.federation for o in e.opponents], exemption
    )
    return ev.TitleNorm(
        key=f"{t.id}/{e.title}",
        title=e.title,
        event=t.name or t.id,
        tournament_id=t.id,
        start_date=t.start_date,
        end_date=t.end_date,
        achieved_on=round_date(t, e.rounds),
        edition=e.edition,
        games=e.games,
        games_credited=e.credited,
        federation_exemption=exemption,
        normal_foreigners=normal,
        short_norm=short,
        one_round_days=t.one_round_days(),
        event_type_1_5_6=flags.event_type_1_5_6 if flags is not None else None,
        event_type_reason=flags.event_type_reason if flags is not None else "",
        score=e.score,
        score_text=e.score_text,
        average_rating=e.average,
        performance=e.performance,
        round=e.rounds,
        source=source,
        alert_id=alert_id,
        problems=tuple(problems),
    )


def list_rating(player: ev.PlayerRef, t: Tournament) -> ev.TitleRating | None:
    """The published rating the event took for the player (the list in force at its start)."""
    if player.rating is None:
        return None
    return ev.TitleRating(
        key=f"{t.id}/list",
        rating=player.rating,
        on=t.start_date,
        kind="published",
        source=f"the list in force at the start of {t.name or t.id}",
        tournament_id=t.id,
    )


def facts_of(alert: ev.OutputEvent, t: Tournament) -> list[TitleFact]:
    """The title facts an alert of tournament ``t`` gives (none for a player without a FIDE
    id, nor for alerts about rounds and prospects)."""
    if not isinstance(alert, _TITLE_ALERTS) or alert.player.fide_id is None:
        return []  # the hot path: round summaries and prospects
    player = alert.player
    common: dict[str, Any] = {
        "fide_id": player.fide_id,
        "player": player,
        "tournament_id": t.id,
        "round": alert.round,
    }
    # the published rating first, so that the norm's judgement already knows it
    published = list_rating(player, t)
    found: list[TitleFact] = (
        [RatingRecorded(rating=published, **common)] if published is not None else []
    )
    if isinstance(alert, ev.NormAchieved):
        found.append(NormRecorded(norm=norm_of(alert, t), **common))
    elif isinstance(alert, ev.NormRevoked):
        found.append(NormWithdrawn(key=f"{t.id}/{alert.title}", reason=alert.reason, **common))
    elif isinstance(alert, ev.TitleRatingReached):
        interim = ev.TitleRating(
            key=f"{t.id}/{alert.title}",
            rating=alert.live_rating,
            on=round_date(t, alert.round),
            kind="interim",
            source=f"live rating after round {alert.round} of {t.name or t.id}",
            tournament_id=t.id,
            round=alert.round,
            alert_id=alert.alert_id,
        )
        found.append(RatingRecorded(rating=interim, **common))
    else:
        found.append(RatingWithdrawn(key=f"{t.id}/{alert.title}", **common))
    return found


_TITLE_ALERTS = (ev.NormAchieved, ev.NormRevoked, ev.TitleRatingReached, ev.TitleRatingRevoked)


# --------------------------------------------------------------------------- held norms


class HeldNorm(_Event):
    """The minimal form of a norm a federation holds (an IT1 it keeps on paper, a norm of
    the 2009 era): read strictly, every field bounded; ``docs/titles.md`` documents it."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    fide_id: int = Field(ge=1, le=MAX_FIDE_ID)
    name: Name = ""
    federation: ev.FederationCode | None = None
    title: Literal["GM", "IM", "WGM", "WIM"]
    event: Name = Field(min_length=1)
    start_date: date
    end_date: date
    edition: Name | None = None
    """The edition the norm was judged by; by default the one in force on ``start_date``."""
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    games: int = Field(ge=1, le=MAX_ROUNDS)
    """Games the norm counted (the IT1's number of games)."""
    points_above_norm: int = Field(default=0, ge=0, le=MAX_ROUNDS)
    """Whole points above the score the norm needed (1.4.1d, 1.41c)."""
    games_credited: int | None = Field(default=None, ge=1, le=MAX_ROUNDS)
    """As the certificate says; checked against the edition's count when given."""
    kinds: tuple[EventKind, ...] = Field(default=(), max_length=len(EventKind))
    federation_exemption: Name | None = None
    """The article of the exemption the event had (``1.4.3d``), if any."""
    normal_foreigners: bool
    """The norm meets the normal foreigner requirement (1.4.3/1.4.4), exemption or not:
    required, since 1.4.3e asks one such norm of an application."""
    short_norm: bool = False
    """8 games counted as 9 under 1.4.1c."""
    one_round_days: int | None = Field(default=None, ge=0, le=MAX_ROUNDS)
    event_type_1_5_6: bool | None = None


class HeldRating(_Event):
    """A rating of an import file: published on a list, or interim with the evidence the
    federation holds (``source``: the event and round, the arbiter's certificate)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    fide_id: int = Field(ge=1, le=MAX_FIDE_ID)
    name: Name = ""
    federation: ev.FederationCode | None = None
    rating: int = Field(ge=1, le=MAX_RATING)
    on: date
    kind: Literal["published", "interim"]
    source: Name = Field(min_length=1)


class HeldNormError(ValueError):
    """An import that cannot be read; the message names the record and the field."""


def held_norm(record: dict[str, Any], where: str) -> tuple[ev.PlayerRef, ev.TitleNorm]:
    """The player and the norm of a record in the minimal form (:class:`HeldNorm`)."""
    try:
        h = HeldNorm.model_validate_json(json.dumps(record, allow_nan=False))
    except pydantic.ValidationError as exc:
        raise HeldNormError(f"{where}: {describe(exc, skip=0)}") from None
    if h.end_date < h.start_date:
        raise HeldNormError(f"{where}: end_date: before start_date")
    if h.games > h.rounds:
        raise HeldNormError(f"{where}: games: {h.games} games in {h.rounds} rounds")
    try:
        rules = title_rules_named(h.edition) if h.edition else title_rules_in_force(h.start_date)
    except ValueError as exc:
        raise HeldNormError(f"{where}: edition: {exc}") from None
    t = Tournament(
        id=f"held:{h.event}:{h.start_date.isoformat()}",
        start_date=h.start_date,
        end_date=h.end_date,
        planned_rounds=h.rounds,
        name=h.event,
        kinds=frozenset(h.kinds),
    )
    low, counted_as = rules.min_games(t)
    short = rules.short_norm(t) if h.short_norm else None
    if h.short_norm and short is None:
        raise HeldNormError(
            f"{where}: short_norm: {rules.name} has no 8-game norm in a {h.rounds}-round event"
        )
    minimum = short or (low, counted_as)
    if h.games < minimum[0]:
        raise HeldNormError(
            f"{where}: games: a norm under {rules.name} needs {minimum[0]} games, not {h.games}"
        )
    credited = rules.credited_games(h.games, h.points_above_norm, t, minimum)
    if h.games_credited is not None and h.games_credited != credited:
        raise HeldNormError(
            f"{where}: games_credited: {h.games_credited}, but {rules.name} credits {h.games} "
            f"games with {h.points_above_norm} whole points above the norm as {credited}"
        )
    player = ev.PlayerRef(
        rank=0, fide_id=h.fide_id, name=h.name, federation=h.federation, title=None, rating=None
    )
    norm = ev.TitleNorm(
        key=f"{t.id}/{h.title}",
        title=h.title,
        event=h.event,
        start_date=h.start_date,
        end_date=h.end_date,
        achieved_on=h.end_date,
        edition=rules.name,
        games=h.games,
        games_credited=credited,
        federation_exemption=h.federation_exemption,
        normal_foreigners=h.normal_foreigners,
        short_norm=h.short_norm,
        one_round_days=h.one_round_days,
        event_type_1_5_6=h.event_type_1_5_6,
        source=f"import {where}",
    )
    return player, norm


__all__ = [
    "EXEMPT",
    "Evidence",
    "HeldNorm",
    "HeldNormError",
    "HeldRating",
    "evidenced_norm",
    "facts_of",
    "held_norm",
    "list_rating",
    "norm_of",
    "normal_foreigners",
    "round_date",
]
