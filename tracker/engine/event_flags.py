"""Tournament-level facts that go with a norm: who counts as a participant round by round,
the Swiss exemption of 1.43e (2009) / 1.4.3d (2024) per round, the event type of 1.5.6
(2024), whether the event lasts longer than 30 days (1.1.4, 2024) or 90 days (1.15/1.16,
2009), and from the round dates (TRF ``132``) the rounds a day (2009 1.13, 2024 1.1.3) and
the days with one round (2024 1.1.3a). All are computed from the facts of the state, never
typed in.

A player *misses* a round when they have no game in it (an absence, a requested bye ``H``/
``F``/``Z``, or a game they lost by forfeit); a pairing-allocated bye ``U`` is not a missed
round (1.4.3d, 1.5.6: "excluding pairing-allocated byes").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import System, Tournament
from tracker.norms.search import Cell
from tracker.rules import TitleRules
from tracker.rules.titles_2009 import days

_EXEMPTION_TITLES = frozenset({Title.GM, Title.IM, Title.WGM, Title.WIM})


@dataclasses.dataclass(frozen=True, slots=True)
class TournamentFlags:
    """What an arbiter or a federation checks about the event beside a player's norm."""

    swiss_exemption_by_round: tuple[bool, ...]
    """For each round so far, whether the Swiss exemption held (empty unless a Swiss with a
    host federation)."""
    swiss_exemption: bool
    """Whether the exemption holds under the edition's reading (2024: in every round)."""
    event_type: str | None
    """1.5.6 (2024): why the event is of a type an application needs a norm from."""
    event_type_rule: bool
    """Whether the edition has 1.5.6 at all."""
    longer_than_30_days: bool | None
    """``None`` when the end date is not known."""
    game_date_ratings: bool
    """Whether the edition judges this event with ratings at the date of each game."""
    rounds_per_day: int | None = None
    """The most rounds on one day (TRF ``132``); ``None`` without round dates."""
    rounds_per_day_ok: bool | None = None
    """Within the edition's limit of rounds a day (2009 1.13, 2024 1.1.3)."""
    one_round_days: int | None = None
    """Days with a single round (for 1.1.3a of 2024); ``None`` without round dates."""
    longer_than_90_days: bool | None = None
    """2009 1.15/1.16; ``None`` under other editions or without an end or round date."""


def busiest_day(t: Tournament) -> tuple[int, str] | None:
    """The most rounds played on one day, and how it is known: from the round dates (TRF
    ``132``), else from the start and end dates (``042``/``052``) against the planned rounds
    (``n`` rounds in ``d`` days put at least ⌈n/d⌉ on one day); ``None`` when the file
    tells neither.

    >>> from datetime import date
    >>> one_day = Tournament("t", date(2023, 5, 1), 9, end_date=date(2023, 5, 1))
    >>> busiest_day(one_day)
    (9, '9 rounds from 2023-05-01 to 2023-05-01')
    """
    per_day = t.rounds_per_day()
    if per_day:
        day, most = max(per_day.items(), key=lambda kv: (kv[1], kv[0]))
        return most, f"{most} rounds on {day.isoformat()} (132)"
    if t.end_date is None or t.planned_rounds is None:
        return None
    span = (t.end_date - t.start_date).days + 1
    if span < 1:
        return None
    most = -(-t.planned_rounds // span)
    return (
        most,
        f"{t.planned_rounds} rounds from {t.start_date.isoformat()} to {t.end_date.isoformat()}",
    )


def presence(cells: Mapping[int, Sequence[Cell]]) -> dict[int, frozenset[int]]:
    """The rounds each player did not miss: a game not lost by forfeit, or a
    pairing-allocated bye."""
    return {
        rank: frozenset(
            c.round
            for c in mine
            if c.code is Code.PAIRING_BYE
            or (c.opponent is not None and c.code is not Code.FORFEIT_LOSS)
        )
        for rank, mine in cells.items()
    }


def counted_by_round(
    players: Mapping[int, Player], present: Mapping[int, frozenset[int]], up_to: int, missed: int
) -> list[list[Player]]:
    """For each round 1 … ``up_to``: the players there who missed at most ``missed`` of
    those rounds."""
    steady = [
        (players[rank], rounds)
        for rank, rounds in present.items()
        if rank in players and up_to - len(rounds) <= missed
    ]
    return [[p for p, rounds in steady if r in rounds] for r in range(1, up_to + 1)]


def swiss_exemption_by_round(
    t: Tournament,
    players: Mapping[int, Player],
    cells: Mapping[int, Sequence[Cell]],
    up_to: int,
    rules: TitleRules,
    present: Mapping[int, frozenset[int]] | None = None,
    last_only: bool = False,
    optimistic: bool = False,
) -> tuple[bool, ...]:
    """1.43e (2009) / 1.4.3d (2024), round by round: at least 20 FIDE-rated players not from
    the host federation, from at least 3 federations, at least 10 of them GM, IM, WGM or WIM.
    Who is "not from the host federation" is the edition's :meth:`is_foreign` (2024: never
    an FID player, 1.4.2a).

    2024 counts, in each round, the players there who missed at most one round; 2009 the
    players paired at least once so far (with ``last_only``, only after round ``up_to``: all
    the 2009 rule needs). Players of unknown federation are not foreign, or with
    ``optimistic`` each is foreign and from a federation of their own.

    Each player is judged once (:func:`_counted`) and added to the tally of each round they
    count in, rather than each round's list of players judged again: the same answer as
    :func:`_exempting` of each round's list (``tests/unit/test_event_flags.py``)."""
    if t.system is not System.SWISS or t.host_federation is None:
        return ()
    missed = rules.swiss_exemption_max_missed
    host = t.host_federation
    if rules.swiss_exemption_per_round and missed is not None:
        tallies = [_Tally() for _ in range(up_to)]
        for rank, rounds in (present or presence(cells)).items():
            player = players.get(rank)
            if player is None or up_to - len(rounds) > missed:
                continue
            counted = _counted(player, host, rules, optimistic)
            if counted is None:
                continue
            for r in rounds:
                if 1 <= r <= up_to:
                    tallies[r - 1].add(*counted)
        return tuple(tally.holds(rules) for tally in tallies)
    # 2009: the players paired at least once in rounds 1 … r, for each round r
    joined: dict[int, list[tuple[str, bool]]] = {}
    for rank, mine in cells.items():
        player = players.get(rank)
        first = min((c.round for c in mine if c.opponent is not None), default=None)
        if player is None or first is None:
            continue
        counted = _counted(player, host, rules, optimistic)
        if counted is not None:
            joined.setdefault(first, []).append(counted)
    tally = _Tally()
    out = []
    for r in range(1, up_to + 1):
        for counted in joined.get(r, ()):
            tally.add(*counted)
        if r == up_to or not last_only:
            out.append(tally.holds(rules))
    return tuple(out)


def swiss_exemption_possible(t: Tournament, players: Iterable[Player], rules: TitleRules) -> bool:
    """Whether ``players``, all taking part, could meet the Swiss exemption (1.43e / 1.4.3d):
    the prospects' assumption about players not paired yet (players of unknown federation
    foreign)."""
    if t.system is not System.SWISS or t.host_federation is None:
        return False
    return _exempting(players, t.host_federation, rules, optimistic=True)


def _counted(
    player: Player, host: str, rules: TitleRules, optimistic: bool
) -> tuple[str, bool] | None:
    """How a player counts for the Swiss exemption: a rated player not from the host
    federation (unknown federations: foreign only in the ``optimistic`` count; 1.4.2a of
    2024: FID players are not from a federation other than the host's) counts with their
    federation and whether they hold a title it counts; ``None``: not counted."""
    if player.rating is None:
        return None
    federation = player.federation
    foreign = rules.is_foreign(federation, host) if federation is not None else optimistic
    return (player.federation_key, player.title in _EXEMPTION_TITLES) if foreign else None


@dataclasses.dataclass(slots=True)
class _Tally:
    """The players counted for the Swiss exemption in one round: how many, how many of
    them titled, and their federations."""

    players: int = 0
    titled: int = 0
    federations: set[str] = dataclasses.field(default_factory=set)

    def add(self, federation: str, titled: bool) -> None:
        self.players += 1
        self.titled += titled
        self.federations.add(federation)

    def holds(self, rules: TitleRules) -> bool:
        needed_players, needed_feds, needed_titled = rules.swiss_exemption
        return (
            self.players >= needed_players
            and len(self.federations) >= needed_feds
            and self.titled >= needed_titled
        )


def _exempting(there: Iterable[Player], host: str, rules: TitleRules, optimistic: bool) -> bool:
    """Whether the players ``there`` meet the Swiss exemption."""
    tally = _Tally()
    for player in there:
        counted = _counted(player, host, rules, optimistic)
        if counted is not None:
            tally.add(*counted)
    return tally.holds(rules)


def exemption_holds(by_round: tuple[bool, ...], rules: TitleRules) -> bool:
    """2024: the exemption must hold in every round; 2009: among the participants so far."""
    if not by_round:
        return False
    return all(by_round) if rules.swiss_exemption_per_round else by_round[-1]


def strong_swiss_every_round(
    t: Tournament,
    players: Mapping[int, Player],
    cells: Mapping[int, Sequence[Cell]],
    up_to: int,
    rules: TitleRules,
    present: Mapping[int, frozenset[int]] | None = None,
) -> bool:
    """1.5.6 (2024): in every round so far at least 40 participants (counted only if they missed
    at most one round) with an average rating of at least 2000, as read in
    :attr:`TitleRules2024.event_type_swiss`."""
    strong = rules.event_type_swiss
    if strong is None or t.system is not System.SWISS or up_to == 0:
        return False
    needed, average = strong
    for there in counted_by_round(players, present or presence(cells), up_to, 1):
        ratings = [p.rating for p in there if p.rating is not None]
        if len(there) < needed or not ratings or sum(ratings) < average * len(ratings):
            return False
    return True


def tournament_flags(
    t: Tournament,
    players: Mapping[int, Player],
    cells: Mapping[int, Sequence[Cell]],
    up_to: int,
    rules: TitleRules,
) -> TournamentFlags:
    # who missed which round: read by 2024's per-round exemption and 1.5.6, not by 2009
    wanted = rules.swiss_exemption_per_round or rules.event_type_swiss is not None
    present = presence(cells) if wanted else None
    by_round = swiss_exemption_by_round(t, players, cells, up_to, rules, present)
    strong = strong_swiss_every_round(t, players, cells, up_to, rules, present)
    per_day = t.rounds_per_day()
    most = max(per_day.values(), default=None)
    limit = rules.max_rounds_per_day
    last = max((d for d in (t.end_date, *per_day) if d is not None), default=None)
    length = rules.max_event_days
    return TournamentFlags(
        swiss_exemption_by_round=by_round,
        swiss_exemption=exemption_holds(by_round, rules),
        event_type=rules.event_type_1_5_6(t, strong),
        event_type_rule=rules.event_type_swiss is not None,
        longer_than_30_days=None if t.end_date is None else days(t) > 30,
        game_date_ratings=rules.uses_game_date_ratings(t),
        rounds_per_day=most,
        rounds_per_day_ok=None if most is None or limit is None else most <= limit[0],
        one_round_days=t.one_round_days(),
        longer_than_90_days=(
            None if length is None or last is None else (last - t.start_date).days + 1 > length[0]
        ),
    )
