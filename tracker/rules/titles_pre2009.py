"""The older FIDE Title Regulations summarised by the German seed (in force before
1 July 2009). Section numbers are those of the summary (``2.1`` number of games, ``2.2``
nationality, ``2.3`` titles, ``2.4`` ratings, ``2.5`` performance)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from datetime import date
from fractions import Fraction
from types import MappingProxyType

from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System, Tournament
from tracker.rules.mix import MO, ComboMO, MixRule
from tracker.rules.titles_2009 import FM, GM, IM, WFM, WGM, WIM, TitleRules2009, _frozen

F = Fraction


@dataclasses.dataclass(frozen=True)
class TitleRulesPre2009(TitleRules2009):
    name: str = "fide-pre-2009"
    description: str = "FIDE Title Regulations before 1 July 2009 (German summary)"
    in_force_from: date = date(1900, 1, 1)

    performance_min: Mapping[Title, int] = dataclasses.field(
        default_factory=lambda: _frozen({GM: 2601, IM: 2451, WGM: 2401, WIM: 2251})
    )
    """2.5: GM 2601, IM 2451, WGM 2401, WIM 2251, rounded to the nearest whole number."""
    average_min: Mapping[Title, int] = dataclasses.field(
        default_factory=lambda: _frozen({GM: 2381, IM: 2231, WGM: 2181, WIM: 2031})
    )
    """2.5: minimum average 2381 / 2231 / 2181 / 2031."""
    rating_floor: Mapping[Title, int] = dataclasses.field(
        default_factory=lambda: _frozen({GM: 2250, IM: 2100, WGM: 2050, WIM: 1900})
    )
    """2.4: ratings may be raised to GM 2250, IM 2100, WGM 2050, WIM 1900 …"""
    raised_opponents: int = 2
    """2.4: … for at most two opponents (the lowest rated)."""
    unrated_rating: int = 1400
    """2.4: unrated opponents not raised get the FIDE minimum rating ("currently 1400")."""
    unrated_titled_rating: Mapping[Title, int] = dataclasses.field(
        default_factory=lambda: _frozen({})
    )
    raised_unrated_counts_as_rated: bool = True
    """2.4: "unrated players whose rating is so fixed count as rated players"."""
    min_score: Fraction | None = None
    """No minimum score (the reading of :attr:`guest_single_share`)."""
    unrated_share: Fraction = F(22, 100)
    """2.4: at most 22 % of the opponents unrated (the reading of :attr:`guest_single_share`)."""
    host_share: Fraction = F(40, 100)
    """2.2: candidates of the host nation need at least 40 % of opponents from other nations."""
    guest_share: Fraction = F(33, 100)
    """2.2: guest candidates need at least 33 % of opponents from nations other than theirs …"""
    guest_single_share: Fraction = F(22, 100)
    """… and "at least 22 % not from one nation".

    Reading [unclear 120] Pre-2009 2.2: "at least 22 % not from one nation" (guests) is read as
    no single federation supplying more than n − ⌈0.22 n⌉ opponents (78 % of them); 2.4's "22 %"
    unrated (:attr:`unrated_share`) is read as 22 % of n rounded to the nearest whole number (2
    of 9, 2 of 10), since 2/9 is where 22 % comes from. The summary states no 35 % minimum
    (:attr:`min_score`) and no 13-game cap (:attr:`thirteen_cap`); none is applied."""
    title_holder_titles: frozenset[Title] = frozenset({GM, IM, WGM, WIM, FM, WFM})
    """2.3: title-holders are FM, WFM, IM, WIM, GM, WGM."""
    thirteen_cap: int = 10**6
    """No 13-game cap (the reading of :attr:`guest_single_share`)."""
    swiss_exemption: tuple[int, int, int] = (20, 3, 10)
    """2.2: Swiss events with at least 20 foreign rated players from at least 3 nations, 10 of
    them GM, IM, WGM or WIM."""
    exemptions_lift_caps: bool = True
    norm_rate_minimum: tuple[int, str] | None = None
    """The summary states no rate of play: only the rating regulations' minimum (B.02 1.1)
    applies."""
    max_hours_per_day: tuple[int, str] | None = None
    """The summary states no limit of hours a day."""
    max_rounds_per_day: tuple[int, str] | None = None
    """The summary states no limit of rounds a day."""
    max_event_days: tuple[int, str] | None = None
    """The summary states no limit on an event's length."""
    eligibility_article: str = "1"
    """1 ("Titelvoraussetzungen"): GM, IM, WGM ("Frauen-Großmeister") and WIM by norms, FM,
    WFM, CM and WCM by rating. The summary ranks no title against another; the 2009 reading
    (:meth:`TitleRules2009.why_not_eligible`) applies."""
    win_article: str = "2.1"
    after_norm_article: str = "2.1"
    last_round_forfeit_article: str = "2.1"
    unrated_zero_article: str = "2.1"
    swiss_exemption_article: str = "2.2"
    articles: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: MappingProxyType(
            {
                "games": "2.1",
                "bye": "2.1",
                "floor": "2.4",
                "average": "2.5",
                "performance": "2.5",
                "score": "2.5",
                "rounding": "2.4",
                "credited": "2.1",
            }
        )
    )

    application_articles: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: MappingProxyType(
            {"games": "1", "rating": "1", "interim": "1", "normal_foreigners": "2.2"}
        )
    )
    """1: norms over at least 27 games and the title's rating, "published in FIDE's list or
    reached, as can be shown, between two lists"; 2.2: "candidates must have at least one norm
    that does not need these exemptions". The summary says nothing of a norm serving two
    titles or of older norms: no article is cited for them."""

    def min_games(self, t: Tournament) -> tuple[int, int]:
        """2.1: at least 9 games; only the European Club Cup, if it has at least 7 rounds,
        makes do with fewer (read: 7)."""
        if t.kinds and t.is_(EventKind.EUROPEAN_CLUB_CUP) and t.plans_between(7):
            return 7, 7
        return 9, 9

    def exclusion(
        self, opponent: Player, code: Code, t: Tournament, unrated_scored_zero: bool
    ) -> tuple[str, str] | None:
        """2.1: non-member or suspended nations, computers, games not decided over the board
        or where only White moved, unrated opponents scoring zero against rated ones in a
        round robin."""
        found = super().exclusion(opponent, code, t, unrated_scored_zero)
        return ("2.1", found[1]) if found else None

    def may_ignore_wins(self, t: Tournament) -> bool:
        """2.1: only in tournaments of more than 9 rounds may won games be left out (not
        while the number of rounds is unknown)."""
        return t.plans_between(10)

    def may_ignore_after_norm(self, t: Tournament) -> bool:
        """2.1: only in tournaments of more than 9 rounds may a contiguous block of games at
        the end be left out, if the 9 or more games left give a norm (not while the number
        of rounds is unknown)."""
        return t.plans_between(10)

    def federation_exemption(
        self, t: Tournament, swiss_exempt: bool, player: Player | None = None
    ) -> str | None:
        """2.2: national championship finals, national team championships and strong Swiss
        events are exempt (zonals and QC approvals are 2009 additions)."""
        if t.is_(EventKind.NATIONAL_CHAMPIONSHIP_FINAL) or t.is_(
            EventKind.NATIONAL_TEAM_CHAMPIONSHIP
        ):
            return "2.2"
        if t.system is System.SWISS and swiss_exempt:
            return "2.2"
        return None

    def mix(
        self,
        title: Title,
        games: int,
        t: Tournament,
        player: Player,
        exemption: str | None,
        opponents: int | None = None,
    ) -> MixRule:
        """2.2–2.4 for a norm over ``games`` games against ``opponents`` different players.
        In multi-cycle events "a player and his title count only once" (2.3), for the
        title-holders as for the combinations."""
        multi_cycle = t.system is System.DOUBLE_ROUND_ROBIN
        players = opponents if (multi_cycle and opponents is not None) else games
        host = t.host_federation is None or player.federation == t.host_federation
        share = self.host_share if host else self.guest_share
        exempt = exemption is not None
        return MixRule(
            games=games,
            min_title_holders=self.min_title_holders(players, player),
            title_holder_titles=self.title_holder_titles,
            title_holder_article="2.3",
            mo=self.mo(title, games, t),
            mo_article="2.3",
            distinct_opponents=multi_cycle,
            title_holders_distinct=multi_cycle,
            federation_exemption=exemption,
            min_foreign_federations=0 if exempt else 2,
            foreign_article="2.2",
            max_own_federation=None,
            max_one_federation=(
                None if exempt or host else games - math.ceil(self.guest_single_share * games)
            ),
            caps_article="2.2",
            min_other_federations=None if exempt else math.ceil(share * games),
            other_article="2.2",
            max_unrated=self.max_unrated(games),
            unrated_article="2.4",
        )

    def min_games_after_cut(self, t: Tournament) -> int:
        """2.1: a block of games at the end may be left out only "if at least 9 counted
        games remain"."""
        return 9

    def mix_reads(self, player: Player) -> object:
        """2.2–2.3 read the applicant's federation (host or guest share) and title (a titled
        candidate counts towards the title-holders)."""
        return (player.federation, player.title)

    def min_title_holders(self, games: int, player: Player) -> int:
        """2.3: at least half of the players taking part (opponents + candidate) hold a title;
        a titled candidate counts towards that half."""
        needed = -(-(games + 1) // 2)
        titled = player.title is not None and player.title in self.title_holder_titles
        return needed - 1 if titled else needed

    def mo(self, title: Title, games: int, t: Tournament) -> MO:
        """2.3: fixed combinations: 3 GM (GM norm); 3 IM, 2 IM + 1 GM or 2 GM (IM norm);
        2 GM or 3 of GM/IM/WGM/FM (WGM norm); 3 WIM or 2 of GM/IM/WGM/FM (WIM norm)."""
        g = frozenset({GM})
        if title is GM:
            return ComboMO(((g, 3),), "GM")
        if title is IM:
            return ComboMO(
                ((frozenset({IM}), 3), (g, 2)), "IM", all_of=(((frozenset({IM}), 2), (g, 1)),)
            )
        if title is WGM:
            return ComboMO(((g, 2), (frozenset({GM, IM, WGM, FM}), 3)), "WGM")
        return ComboMO(((frozenset({WIM}), 3), (frozenset({GM, IM, WGM, FM}), 2)), "WIM")

    def max_unrated(self, games: int) -> int | None:
        return int(self.unrated_share * games + F(1, 2))


FIDE_PRE_2009 = TitleRulesPre2009()
