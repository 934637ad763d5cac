"""The output events: the alerts, with the evidence they carry."""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Annotated, Final, Literal

from pydantic import Field, TypeAdapter

from tracker.contract.fields import (
    _absent,
    _Event,
)


def alert_id(*parts: object) -> str:
    """A stable id from the facts an alert rests on: the same facts give the same id, so
    subscribers can drop repeats whatever the transport redelivers."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()
    return digest[:20]


class PlayerRef(_Event):
    """How every alert names a player."""

    rank: int
    fide_id: int | None
    name: str
    federation: str | None
    """``None``: not known."""
    title: str | None
    rating: int | None


class CountedGame(_Event):
    round: int
    opponent: PlayerRef
    result: str
    """The player's TRF letter: ``1``, ``=``, ``0``; ``-`` for a last-round forfeit (1.42c)."""
    rating_used: int
    """The opponent's rating as the norm uses it (unrated value or raised floor applied)."""
    note: str = ""


class IgnoredGame(_Event):
    round: int
    opponent: PlayerRef | None
    result: str
    article: str
    reason: str


class Requirement(_Event):
    """One check of a norm, with what it needs and what the player has."""

    article: str
    name: str
    needed: str
    actual: str
    met: bool


class NormEvidence(_Event):
    """The IT1-like breakdown behind a verdict."""

    title: str
    achieved: bool
    rounds_considered: int
    games: int
    score: float
    """Points in the games counted, a number (a half point is ``.5``)."""
    score_text: str
    """The same as arbiters write it (``6½``, ``½``), for display."""
    percentage: int
    average_rating: int | None
    performance: int | None
    games_credited: int
    counted: tuple[CountedGame, ...]
    ignored: tuple[IgnoredGame, ...]
    requirements: tuple[Requirement, ...]


class NormFlags(_Event):
    """Tournament-level facts carried on a norm alert, computed from the facts: what the
    title application will be asked about beside the norm itself."""

    half_point_bye_last_round: bool = False
    """The player has a half-point bye in the last round (as known when the alert is made)."""
    swiss_exemption_by_round: tuple[bool, ...] = ()
    """For each round so far, whether the Swiss exemption (1.43e / 1.4.3d) held; empty for
    events that are not Swiss or have no host federation."""
    swiss_exemption: bool = False
    """Whether the exemption holds under the edition (2024: in every round)."""
    event_type_1_5_6: bool | None = None
    """1.5.6 (2024): the event is of a type an application needs one norm from; ``None``
    when the edition has no such rule."""
    event_type_reason: str = ""
    longer_than_30_days: bool | None = None
    """``None`` when the end date is not known (1.1.4 of 2024)."""
    ratings_at_game_date: bool = False
    """Opponents counted with their ratings at the date of each game (1.1.4 of 2024)."""
    rate_of_play: str | None = Field(default=None, exclude_if=_absent)
    """``standard``, or ``unknown`` when the file gives no time control (or one that cannot
    be read) and the event was judged as a standard one; norms are not announced for other
    rates (see ``rate_of_play_reason``)."""
    rate_of_play_reason: str | None = Field(default=None, exclude_if=_absent)
    """How the rate of play was read, with the minimum times it was held to."""
    rounds_per_day: int | None = Field(default=None, exclude_if=_absent)
    """The most rounds played on one day (TRF ``132``); ``None`` without round dates."""
    rounds_per_day_ok: bool | None = Field(default=None, exclude_if=_absent)
    """At most two rounds a day (2009 1.13, 2024 1.1.3); ``None`` without round dates or
    when the edition has no such rule."""
    one_round_a_day_3_days: bool | None = Field(default=None, exclude_if=_absent)
    """2024 1.1.3a, GM and WGM norms: the event has at least three days with one round
    only (an application needs one such norm); ``None`` for other titles and editions, or
    without round dates."""
    longer_than_90_days: bool | None = Field(default=None, exclude_if=_absent)
    """2009 1.15/1.16: the event lasted more than 90 days (allowed only for leagues and
    national championships or with the QC Chairman's approval; the list used must be
    declared); ``None`` under other editions or without dates."""


class NormCondition(_Event):
    """What a norm achieved before the last round still depends on: something later rounds
    can change that the player's own results cannot (see ``tracker/engine/secured.py``)."""

    article: str
    text: str


def _empty(value: object) -> bool:
    """Output fields added after the first contract are left out of the JSON form while
    empty, so alerts without them keep their exact form."""
    return not value


SCHEMA_VERSION: Final = 3
"""The version of the output events' contract (README, "The event contract"): raised when a
field of an output event changes its type or meaning or goes away; a new optional field or a
new alert type keeps it. 1 (no field): scores were strings (``"6½"``); 2: scores are numbers,
with ``score_text`` beside them where a page shows them; 3: a prospect's ``games_left`` may be
``null`` (a Swiss whose number of rounds is unknown), ``secured_early`` is false for a norm
announced with ``conditions``, and ``round_finished.last_round`` is false while the number of
rounds is unknown."""


class _Alert(_Event):
    schema_version: Literal[3] = SCHEMA_VERSION
    """:data:`SCHEMA_VERSION`, on every alert, so a subscriber sees which contract it reads."""
    alert_id: str
    tournament_id: str
    round: int
    edition: str


class NormAchieved(_Alert):
    type: Literal["norm_achieved"] = "norm_achieved"
    player: PlayerRef
    title: str
    secured_early: bool
    """Achieved before the last round, so that no later result and no absence can take it
    away; ``False`` after the last round, and while :attr:`conditions` are open."""
    evidence: NormEvidence
    flags: NormFlags | None = None
    secured_because: str = Field(default="", exclude_if=_empty)
    """With ``secured_early``: why no later result can take it away (achieved, and the
    edition lets the later games go: 1.42f / 1.4.1e; or, in a round robin, certain: 0 points
    in every remaining game still gives it over all rounds, the evidence counting those games
    as lost)."""
    conditions: tuple[NormCondition, ...] = Field(default=(), exclude_if=_empty)
    """Before the last round: what the norm still depends on that later rounds can change
    (who turns up for the 1.4.3d exemption; 1.42d's unrated opponents). Empty when secured
    or final. A norm announced with conditions is announced again, under a new id and
    without them, once they no longer matter (the last round); ``norm_revoked`` if they
    fail."""


class NormRevoked(_Alert):
    type: Literal["norm_revoked"] = "norm_revoked"
    player: PlayerRef
    title: str
    reason: str


class TitleRatingReached(_Alert):
    type: Literal["title_rating_reached"] = "title_rating_reached"
    player: PlayerRef
    title: str
    level: int
    live_rating: int
    rating_change: int
    rated_games: int | None = None
    """Rated games played in all when the level was reached (1.3 of 2024 asks 30 for a
    title by rating); ``None`` when the count before the tournament is not known."""


class IgnorableGames(_Alert):
    type: Literal["ignorable_games"] = "ignorable_games"
    player: PlayerRef
    title: str
    games: tuple[IgnoredGame, ...]


class ProspectNeed(_Event):
    """Swiss: with ``score`` points from ``games`` remaining games that count for the norm,
    their opponents must average at least ``average`` (ratings as the norm counts them,
    1.47b rounding); ``best_available`` is what the strongest players not yet met average."""

    games: int
    score: float
    average: int
    best_available: int
    note: str = Field(default="", exclude_if=_empty)
    """What else the row needs, e.g. 1.4.1c's 8-game norm: the round without a counted game
    a forfeit win or a pairing-allocated bye."""


class ProspectWay(_Event):
    """Round robin: ``score`` points from the remaining games can give the norm, for example
    with ``results``: the candidate's TRF letter (``1``, ``=``, ``0``) for each game of the
    prospect's ``remaining``, in its order (empty when the ways are only a bound)."""

    score: float
    results: tuple[str, ...]


class Prospect(_Event):
    """What the remaining rounds must bring (see ``tracker/engine/prospects/``)."""

    exact: bool
    """``True`` in a round robin: the remaining opponents are known and ``ways`` is exact."""
    games_left: int | None
    """Rounds left to play; ``None`` in a Swiss whose number of rounds is unknown."""
    remaining: tuple[PlayerRef, ...]
    """Round robin: the games still to play, by opponent's start rank (twice for an opponent
    met twice more in a double round robin)."""
    ways: tuple[ProspectWay, ...]
    needs: tuple[ProspectNeed, ...]
    open_requirements: tuple[Requirement, ...]
    """What a record of every remaining game will need, against the games so far."""
    assumption: str
    """Swiss: what the requirements assume about the opponents still to come."""


class NormProspect(_Alert):
    """A player entered contention for a norm (it is still possible), or left it because the
    norm was achieved; leaving because it became impossible is :class:`NormOutOfReach`."""

    type: Literal["norm_prospect"] = "norm_prospect"
    player: PlayerRef
    title: str
    status: Literal["entered", "left"]
    in_contention: bool
    reason: str
    prospect: Prospect | None
    """With ``entered``: what the remaining rounds must bring."""


class NormOutOfReach(_Alert):
    """A player in contention for a norm can no longer make it, whatever the results."""

    type: Literal["norm_out_of_reach"] = "norm_out_of_reach"
    player: PlayerRef
    title: str
    reason: str
    open_requirements: tuple[Requirement, ...]


class Standing(_Event):
    player: PlayerRef
    score: float
    score_text: str
    live_rating: int | None
    rating_change: int | None
    note: str = Field(default="", exclude_if=_empty)
    """A title level reached live that the edition counts only on a published rating list
    (2009 1.3: FM, CM, WFM, WCM), said here instead of ``title_rating_reached``."""


class _RoundSummary(_Alert):
    type: str
    last_round: bool
    standings: tuple[Standing, ...]
    not_a_norm_event: str | None = Field(default=None, exclude_if=_absent)
    """Why the event gives no norm, prospect or title-rating alerts (rapid, blitz, online,
    or too little time for the rating or title regulations); absent when it can."""


class RoundFinished(_RoundSummary):
    type: Literal["round_finished"] = "round_finished"


class StandingsCorrected(_RoundSummary):
    """A correction changed the standings after a finished round: the round's summary
    again, with the standings worked out from the facts as they are now. It replaces the
    summary ``revises`` names (a ``round_finished``, or an earlier ``standings_corrected``)."""

    type: Literal["standings_corrected"] = "standings_corrected"
    revises: str
    reason: str


class RoundReopenedAlert(_Alert):
    """A round announced as finished is no longer finished: it was reopened (input
    ``round_reopened``) and is not complete, or it follows such a round (``reason`` says
    which). Its summary (``revokes``) no longer stands, and what rested on it is revoked.
    When the round finishes again a new ``round_finished`` (a new id) follows."""

    type: Literal["round_reopened"] = "round_reopened"
    revokes: str
    reason: str


class TitleRatingRevoked(_Alert):
    """A correction took back a ``title_rating_reached`` (``revokes``): the live rating no
    longer reaches the level, or no round is finished any more that reached it."""

    type: Literal["title_rating_revoked"] = "title_rating_revoked"
    revokes: str
    player: PlayerRef
    title: str
    level: int
    reason: str


class NormProspectRevoked(_Alert):
    """A correction took back a player's entry into contention (the ``norm_prospect`` with
    ``status`` ``entered`` that ``revokes`` names) where neither ``norm_out_of_reach`` nor
    ``norm_prospect`` ``left`` says it: no round is finished any more, the event no longer
    gives norms, or the player is no longer evaluated for the title (a corrected
    registration, a player taken off)."""

    type: Literal["norm_prospect_revoked"] = "norm_prospect_revoked"
    revokes: str
    player: PlayerRef
    title: str
    reason: str


# ----------------------------------------------------------------------- title applications


class TitleNorm(_Event):
    """A norm as a title application counts it (1.5.1 of 2024, 1.50 of 2009): from the
    tracker's own ``norm_achieved``, an IT1 certificate the tracker wrote, or a federation's
    record of an older norm (``docs/titles.md``). Each norm keeps the edition it was judged
    by: it counts under the regulations in force when it was achieved (1.5.4, 1.53)."""

    key: str
    """Unique among a player's norms: ``<tournament id>/<title>``, so a later alert of the same
    tournament replaces it."""
    title: str
    event: str
    """The event's name (its id when it has none)."""
    tournament_id: str | None = None
    start_date: date
    end_date: date | None = None
    achieved_on: date
    """The date of the last round the norm counts (its round date, else the event's end
    date, else its start date): when the norm was achieved."""
    edition: str
    """The edition (or dated revision) the norm was judged by."""
    games: int
    games_credited: int
    """What the norm counts for towards 27 games: 1.4.1d / 1.41c's whole points and 1.7 /
    1.49's 13-game cap applied by its own edition."""
    federation_exemption: str | None = None
    """The article that freed the event from the foreigner requirement (1.4.3a-d, 1.43a-e);
    ``None``: the norm was judged under the normal requirement."""
    normal_foreigners: bool | None
    """The norm meets the normal foreigner requirement (1.4.3/1.4.4, 1.43/1.44a), exemption
    or not: 1.4.3e and 1.43f ask one such norm of an application. ``None``: not known (an
    opponent of unknown federation)."""
    short_norm: bool = False
    """An 8-game norm counted as 9 under 1.4.1c (one per application)."""
    one_round_days: int | None = None
    """Days of the event with a single round (1.1.3a asks three, in one norm of a GM or WGM
    application); ``None`` when the round dates are not known."""
    event_type_1_5_6: bool | None = None
    """The event is of a type 1.5.6 lists; ``None`` when not known (an edition without the
    rule, or a record that does not say)."""
    event_type_reason: str = Field(default="", exclude_if=_empty)
    score: float | None = None
    """Points in the games counted (from the evidence; ``None`` in a held norm's record)."""
    score_text: str | None = None
    """The same as arbiters write it (``6½``), for display."""
    average_rating: int | None = None
    performance: int | None = None
    round: int | None = None
    """The last round the norm counts, when known."""
    source: str
    """Where the record comes from: ``norm_achieved <alert id>``, ``certificate <file>``,
    ``import <file>``."""
    alert_id: str | None = None
    problems: tuple[str, ...] = Field(default=(), exclude_if=_empty)
    """Why the norm cannot be used yet, each with its article (announced with conditions
    still open; more rounds on a day than the edition allows): it is left out."""


class TitleRating(_Event):
    """A rating reached at some time (1.5.3, 1.52): published on a FIDE list, or interim
    (1.5.3a, 1.52a: in a rating period, even in a tournament; the federation must prove it)."""

    key: str
    """Unique among a player's ratings: ``list/<YYYY-MM-DD>``, ``<tournament id>/list`` (the
    list in force at the event's start), ``<tournament id>/<title>`` (the live rating that
    reached the title's level)."""
    rating: int
    on: date
    kind: Literal["published", "interim"]
    source: str
    tournament_id: str | None = None
    round: int | None = None
    alert_id: str | None = None


class LeftOutNorm(_Event):
    key: str
    event: str
    reason: str


class TitleApplication(_Event):
    """Whether a player's application for a title based on norms is complete, under the
    application's edition (chosen by the date it is judged on): the norms it uses, the
    rating evidence, every condition with its article, and what is missing."""

    fide_id: int
    name: str
    federation: str | None
    title: str
    edition: str
    """The edition whose application rules judge it (each norm keeps its own)."""
    complete: bool
    complete_on: date | None
    """When complete: the later of the last norm's date and the day the rating was reached."""
    games_credited: int
    norms: tuple[TitleNorm, ...]
    """Complete: the norms the application uses. Otherwise: the norms that count so far."""
    rating: TitleRating | None
    """The rating that reaches the title's level first (published preferred on the same
    day), else the highest known; ``None`` when none is known."""
    requirements: tuple[Requirement, ...]
    missing: tuple[str, ...]
    """Incomplete: what is missing, one sentence each with its article."""
    why: str
    """Why these norms: the rule of the choice, and how many sets would do."""
    left_out: tuple[LeftOutNorm, ...] = ()
    notes: tuple[str, ...] = ()


class TitleApplicationComplete(_Alert):
    """A player's application for ``title`` became complete (or, complete already, rests on
    other norms now): ``application`` says which norms and which rating. ``tournament_id``,
    ``round`` and ``player`` are those of the alert (or import) that completed it;
    ``edition`` is the application's."""

    type: Literal["title_application_complete"] = "title_application_complete"
    player: PlayerRef
    title: str
    application: TitleApplication


class TitleApplicationProgress(_Alert):
    """A norm or a rating changed what a player's application for ``title`` is missing; with
    ``revokes``, an application announced complete (that alert's id) no longer is."""

    type: Literal["title_application_progress"] = "title_application_progress"
    player: PlayerRef
    title: str
    application: TitleApplication
    revokes: str = Field(default="", exclude_if=_empty)


OutputEvent = Annotated[
    NormAchieved
    | NormRevoked
    | TitleRatingReached
    | IgnorableGames
    | RoundFinished
    | NormProspect
    | NormOutOfReach
    | RoundReopenedAlert
    | StandingsCorrected
    | TitleRatingRevoked
    | NormProspectRevoked
    | TitleApplicationComplete
    | TitleApplicationProgress,
    Field(discriminator="type"),
]
OUTPUT_ADAPTER: TypeAdapter[OutputEvent] = TypeAdapter(OutputEvent)
