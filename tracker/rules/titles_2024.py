"""FIDE Title Regulations (B.01) applied from 1 January 2024.

Article numbers are those of the 2024 text (``1.4.1c``, ``1.4.5``, ``1.7`` …; reference §3). The
edition is the 2009 one with the fields and methods below changed: every rule that did not
change is inherited and lives once, in :mod:`tracker.rules.titles_2009`.

Readings of text that is unclear, or known only from a paraphrase, are fields or methods of this
edition, each written once in a ``Reading [...]`` paragraph of its docstring, from which
``scripts/readings.py`` lists them in ``docs/readings.md``."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import date
from fractions import Fraction
from types import MappingProxyType

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System, Tournament
from tracker.rules.mix import MO, WeightedMO
from tracker.rules.titles_2009 import GM, IM, WGM, WIM, TitleRules2009, _frozen

F = Fraction

_ARTICLES_2009_TO_2024 = {
    "1.42a": "1.4.2a",
    "1.42b": "1.1.1",
    "1.42c": "1.4.2c",
    "1.42d": "1.4.2b",
}


@dataclasses.dataclass(frozen=True)
class TitleRules2024(TitleRules2009):
    """The 2024 edition: 2009 with the differences of reference §4."""

    name: str = "fide-2024"
    description: str = "FIDE Title Regulations B.01, applied from 1 January 2024"
    in_force_from: date = date(2024, 1, 1)

    unrated_rating: int = 1400
    """1.4.6d: unrated opponents not raised to the floor count as 1400."""
    unrated_titled_rating: Mapping[Title, int] = dataclasses.field(
        default_factory=lambda: _frozen({})
    )
    """The 2024 text has no counterpart of 2009's 1.46e: an unrated title-holder is 1400 too."""
    mo_weights: Mapping[Title, Mapping[Title, Fraction]] = dataclasses.field(
        default_factory=lambda: MappingProxyType(
            {
                GM: {GM: F(1)},
                IM: {IM: F(1), GM: F(1)},
                WGM: {WGM: F(1), IM: F(1), GM: F(1)},
                WIM: {WIM: F(1), WGM: F(1), IM: F(1), GM: F(1)},
            }
        )
    )
    """1.4.5b–e: GMs; IMs or GMs; WGMs, IMs or GMs; WIMs, WGMs, IMs or GMs. Each qualifying
    opponent counts once: no weighted equivalences, and FMs count for no norm's mix."""
    thirteen_cap_exempt: frozenset[EventKind] = frozenset()
    """1.7: "Norms achieved in a tournament with more than 13 rounds count only as 13 games",
    with no exception for world or continental championships."""
    fid_counts_as_federation: bool = False
    """1.4.2a: players under the FIDE flag (``FID``) are accepted as opponents but are never a
    federation other than the applicant's (:meth:`is_foreign`).

    Reading [2024 40] 1.4.2 (2024): FID players are accepted opponents and never a federation
    other than the applicant's (1.4.3), nor players "not from the host federation" for the Swiss
    exemption of 1.4.3d (14 FID players do not make 7 foreign players an exemption); the 3/5 and
    2/3 caps of 1.4.4 still count them as one group. Computer opponents are not in the 2024
    list; their games stay excluded as not played under the FIDE Laws (1.1.1;
    :meth:`exclusion`)."""
    swiss_exemption_per_round: bool = True
    """1.4.3d: the 20 / 3 / 10 players must be there "in every round" …"""
    swiss_exemption_max_missed: int | None = 1
    """… and "players are counted only if they miss at most one round (excluding
    pairing-allocated byes)"."""
    eligibility_article: str = "0.6.2"
    """0.6.2: the "lower titles" a title-holder does not gain are the lesser titles within the
    same category, open or women's (the reading of issue 12's review; the reference holds
    0.6.2's table of minimum ratings, which lists the two categories side by side). The
    rule itself is the 2009 one (:meth:`TitleRules2009.why_not_eligible`), and 1.5.2 keeps
    2009's 1.51: a norm good for more than one title may be used for both."""
    title_holder_article: str = "1.4.5a"
    foreign_article: str = "1.4.3"
    caps_article: str = "1.4.4"
    unrated_article: str = "1.4.6"
    win_article: str = "1.4.1f"
    after_norm_article: str = "1.4.1e"
    last_round_forfeit_article: str = "1.4.2c"
    unrated_zero_article: str = "1.4.2b"
    swiss_exemption_article: str = "1.4.3d"
    short_norm_article: str = "1.4.1c"
    game_date_ratings_after_days: int | None = 30
    """1.1.4 and 1.4.6a: "In tournaments which last longer than 30 days, the opponents' ratings
    … used shall be those applying when the games were played".

    Reading [2024 70] 1.1.4 (2024): "longer than 30 days" counts the first and last day: 1 to 31
    May is 31 days. The game-date ratings are those sent on the events; without them the start
    list is used. Titles at the game date are not modelled."""
    rating_titles_published: bool = False
    """1.3: "Titles may be gained by achieving a published or interim rating at some time"."""
    rating_title_min_games: int | None = 30
    """1.3: "For ratings achieved after 1st July 2017, the player must at that time have played
    at least 30 rated games".

    Reading [2024 90] 1.3 (2024): a title by rating (FM, CM, WFM, WCM) is reported only from the
    round in which the player has 30 rated games; when the count before the event is not known
    the level is reported with ``rated_games: null``."""
    norm_rate_minimum: tuple[int, str] | None = (120, "1.1.3")
    """1.1.3: each player must have at least 2 hours for all the moves, assuming 60 moves."""
    max_hours_per_day: tuple[int, str] | None = (12, "1.1.2")
    """1.1.2: at most 12 hours of play a day, assuming 60-move games."""
    max_rounds_per_day: tuple[int, str] | None = (2, "1.1.3")
    """1.1.3: no more than two rounds a day."""
    one_round_days: tuple[int, frozenset[Title], str] | None = (
        3,
        frozenset({GM, WGM}),
        "1.1.3a",
    )
    """1.1.3a: a GM or WGM application based on norms needs one norm from an event with one
    round a day on at least three days.

    Reading [files 30] 1.1.3a (2024): "one round per day for at least three days" is read as: at
    least three days of the event with a single round (other days may have two); from the round
    dates of TRF 132, a flag on GM and WGM norms."""
    max_event_days: tuple[int, str] | None = None
    """2024 has no 90-day rule; events over 30 days use game-date ratings (1.1.4)."""
    event_type_swiss: tuple[int, int] | None = (40, 2000)
    """1.5.6: an individual Swiss where every round has at least 40 participants with an average
    rating of at least 2000 (players counted only if they miss at most one round,
    pairing-allocated byes excepted;
    :func:`tracker.engine.event_flags.strong_swiss_every_round`).

    Reading [2024 80] 1.5.6 (2024): a Swiss counts when every round so far has at least 40
    participants (counted as for 1.4.3d) averaging at least 2000 over the rated ones; unrated
    participants count towards the 40. The other event types come from ``kinds``. "A norm
    achieved after 30 June 2022" is read by the event's start date, as the edition is chosen:
    events from 1 July 2022 (``fide-2009r2022``) carry the flag with the 2024 list."""
    application_articles: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: MappingProxyType(
            {
                "games": "1.5.1",
                "two_titles": "1.5.2",
                "rating": "1.5.3",
                "interim": "1.5.3a",
                "own_rules": "1.5.4",
                "normal_foreigners": "1.4.3e",
                "short_norms": "1.4.1c",
                "event_types": "1.5.6",
                "one_round_days": "1.1.3a",
            }
        )
    )
    """1.5.1 norms covering at least 27 games (1.4.1d's whole points counted by each norm);
    1.5.2 one norm for two titles; 1.5.3 the rating, 1.5.3a published or interim (the proof
    of an interim one resting with the federation); 1.5.4 a norm counts under the
    regulations in force when it was achieved; 1.4.3e at least one norm under the normal
    foreigner requirement; 1.4.1c at most one 8-game norm; 1.5.6 the event types; 1.1.3a
    (:attr:`one_round_days`) one norm from an event with one round a day on three days."""
    short_norms_per_application: int | None = 1
    """1.4.1c: "only one such norm" (8 games counted as 9) may be used in an application.

    Reading [titles 50] 1.4.1c: one 8-game norm per application; a second is left out, and said
    so."""
    event_type_norms_after: date | None = date(2022, 6, 30)
    """1.5.6: "if an application includes at least one norm achieved after 30 June 2022"."""
    articles: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: MappingProxyType(
            {
                "games": "1.4.1a",
                "bye": "1.4.2c",
                "floor": "1.4.6b",
                "average": "1.4.8a",
                "performance": "1.4.8",
                "score": "1.4.8b",
                "rounding": "1.4.7b",
                "credited": "1.4.1d/1.7",
            }
        )
    )

    # -- 1.4.1 number of games ----------------------------------------------------------

    def min_games(self, t: Tournament) -> tuple[int, int]:
        """1.4.1a/b: 9 games; 7 in world or continental team or club championships of 7 to 9
        rounds; 8 in the World Cup or Women's World Cup, counted as 9. The club
        championships are the 2024 addition (a European Club Cup is one)."""
        if t.kinds and t.is_(EventKind.EUROPEAN_CLUB_CUP) and t.plans_between(7, 9):
            return 7, 7
        return super().min_games(t)

    def short_norm(self, t: Tournament) -> tuple[int, int] | None:
        """1.4.1c: in a 9-round tournament, 8 games count as a 9-game norm when the ninth is a
        forfeit win or a pairing-allocated bye (:meth:`short_norm_allows`), the mix holds and
        the 8 games give a title result. Only one such norm may be used in a title application
        (:attr:`short_norms_per_application`).

        Reading [2024 10] 1.4.1c (2024): applies in 9-round events when every round but one is a
        counted game and that one is a forfeit win (``+``) or a pairing-allocated bye (``U``); a
        requested full-point bye (``F``), a half-point bye or an absence does not qualify, nor
        does the scheduled bye of a round robin with an odd number of players: a bye is
        pairing-allocated only where the pairings are not predetermined, and a 9-player round
        robin is an 8-game event. The mix and the title result are those of the 8 games
        (1.4.3–1.4.5 on the games played; the 8-game numbers: 4 title-holders, 3 qualifying, at
        most 4 from the own federation, 5 from one). It is tried only when no 9-game attempt
        (with 1.4.2c's last-round forfeit counted as a loss) gives the norm; it counts as 9
        games plus 1.4.1d's whole points, and the games check cites 1.4.1c (one such norm per
        application)."""
        if t.planned_rounds == 9:
            return 8, 9
        return None

    def short_norm_allows(self, missing: Code, t: Tournament) -> bool:
        """1.4.1c: the ninth game may be missing only because of a forfeit win (TRF ``+``) or a
        pairing-allocated bye (``U``), not in a round robin (the reading of :meth:`short_norm`)."""
        if missing is Code.FORFEIT_WIN:
            return True
        return missing is Code.PAIRING_BYE and not t.system.predetermined

    def may_ignore_after_norm(self, t: Tournament) -> bool:
        """1.4.1e: with predetermined pairings the norm must use all the scheduled rounds; only
        in other tournaments may games played after a title result be ignored.

        Reading [2024 20] 1.4.1e (2024): "predetermined pairings" are round robins and double
        round robins: no later round may be cut, so their norms are announced after the last
        round only (a round-robin norm is never secured before it)."""
        return not t.system.predetermined

    def wins_need_complete_mix(self, t: Tournament) -> bool:
        """1.4.1f: won games may be ignored if the mix and the minimum games still hold; in
        round robins only when the opponent mix of the complete event makes a norm possible.

        Reading [2024 30] 1.4.1f (2024): "the opponent mix must make a norm possible for the
        complete tournament" is checked on every counted game of the player's record (after the
        last round: the complete event); if it fails, no won game may be left out. Swiss events
        only need the mix of the games kept, as in 2009."""
        return t.system.predetermined

    # -- 1.4.2 games that do not count ------------------------------------------------------

    def exclusion(
        self, opponent: Player, code: Code, t: Tournament, unrated_scored_zero: bool
    ) -> tuple[str, str] | None:
        """1.4.2a opponents of federations that are not FIDE members (FID players are accepted);
        1.4.2b unrated opponents who scored zero against rated ones in a round robin; 1.4.2c
        games not decided over the board. Computers: the reading of
        :attr:`fid_counts_as_federation`."""
        found = super().exclusion(opponent, code, t, unrated_scored_zero)
        if found is None:
            return None
        return _ARTICLES_2009_TO_2024[found[0]], found[1]

    # -- 1.4.3 / 1.4.4 federations ------------------------------------------------------------

    def federation_exemption(
        self, t: Tournament, swiss_exempt: bool, player: Player | None = None
    ) -> str | None:
        """1.4.3a final stage of a national (or women's) championship; 1.4.3b national team
        championships; 1.4.3c zonal and sub-zonal tournaments; 1.4.3d strong Swiss events.

        Reading [2024 50] 1.4.3 (2024): the exemptions lift the caps of 1.4.4 too (as in 2009);
        1.4.3b applies to players of the host federation (the one that registered the event);
        there is no exemption by the QC Chairman's consent (2009's 1.43d is gone). 1.4.3d: in
        each round, the players present in it who missed at most one round (so far) are counted;
        a round is missed without a game, with a requested bye (``H``, ``F``, ``Z``) or with a
        game lost by forfeit; a pairing-allocated bye is not missed. The exemption holds when
        every round so far meets 20 / 3 / 10."""
        if t.kinds:  # most events have no kind: no lookups
            if t.is_(EventKind.NATIONAL_CHAMPIONSHIP_FINAL):
                return "1.4.3a"
            if t.is_(EventKind.NATIONAL_TEAM_CHAMPIONSHIP) and (
                player is None
                or t.host_federation is None
                or player.federation == t.host_federation
            ):
                return "1.4.3b"
            if t.is_(EventKind.ZONAL):
                return "1.4.3c"
        if t.system is System.SWISS and swiss_exempt:
            return "1.4.3d"
        return None

    # -- 1.4.5 titles ---------------------------------------------------------------------------

    def mo(self, title: Title, games: int, t: Tournament) -> MO:
        """1.4.5b–e: at least a third of the opponents, and at least 3, hold a qualifying title
        (each counted once). In a double round robin the number required is half, rounded up
        (the halving is the 2024 addition).

        Reading [2024 60] 1.4.5 (2024): in a double round robin the halving applies to 1.4.5b–e
        and counts different players; the 50 % title-holders of 1.4.5a are counted per game. "At
        least six players" follows from 1.4.1a (five players give 8 games)."""
        needed = max(3, -(-games // 3))
        if t.system is System.DOUBLE_ROUND_ROBIN:
            needed = -(-needed // 2)
        return WeightedMO(self.mo_weights[title], F(needed), title.value)

    def mo_article(self, title: Title) -> str:
        return {GM: "1.4.5b", IM: "1.4.5c", WGM: "1.4.5d", WIM: "1.4.5e"}[title]

    # -- 1.4.6 ratings --------------------------------------------------------------------------

    def max_unrated(self, games: int) -> int | None:
        """1.4.6 sets no maximum number of unrated opponents (2009's 1.46a is gone)."""
        return None


FIDE_2024 = TitleRules2024()
