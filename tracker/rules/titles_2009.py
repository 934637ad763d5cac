"""FIDE Title Regulations (B.01) in force from 1 July 2009: the Russian seed text.

Article numbers are those of that text (``1.41a`` … ``1.49``). Where the translation is garbled
the reading chosen is a field of the edition, written once in a ``Reading [...]`` paragraph of
its docstring, from which ``scripts/readings.py`` lists it in ``docs/readings.md``.

The module is over 600 lines because it is one value: the fields and methods of the edition
every other edition varies, each with the article it implements and its reading, written once
beside it; splitting it would split the edition.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from datetime import date
from fractions import Fraction
from types import MappingProxyType

from tracker.domain.players import Player, Sex
from tracker.domain.results import Code
from tracker.domain.titles import NORM_TITLES, Title
from tracker.domain.tournaments import EventKind, System, Tournament
from tracker.rules.mix import MO, MixRule, WeightedMO

F = Fraction
GM, IM, WGM, WIM, FM, WFM = Title.GM, Title.IM, Title.WGM, Title.WIM, Title.FM, Title.WFM


def _frozen(mapping: Mapping[Title, int]) -> Mapping[Title, int]:
    return MappingProxyType(dict(mapping))


@dataclasses.dataclass(frozen=True)
class TitleRules2009:
    """The 2009 edition; other editions are variations of its fields and methods."""

    name: str = "fide-2009"
    description: str = "FIDE Title Regulations B.01, in force from 1 July 2009"
    in_force_from: date = date(2009, 7, 1)
    amendments: str = ""
    """What a dated revision of the edition changes, for ``--edition``'s help (empty for an
    edition as published)."""

    performance_min: Mapping[Title, int] = dataclasses.field(
        default_factory=lambda: _frozen({GM: 2600, IM: 2450, WGM: 2400, WIM: 2250})
    )
    """1.48: minimum performance after rounding (2599.5 before), Rp = Ra + dp."""
    average_min: Mapping[Title, int] = dataclasses.field(
        default_factory=lambda: _frozen({GM: 2380, IM: 2230, WGM: 2180, WIM: 2030})
    )
    """1.48a: minimum average rating of the opponents."""
    rating_floor: Mapping[Title, int] = dataclasses.field(
        default_factory=lambda: _frozen({GM: 2200, IM: 2050, WGM: 2000, WIM: 1850})
    )
    """1.46c: adjusted rating floor for the opponents."""
    raised_opponents: int = 1
    """1.46c1: how many opponents may be raised to the floor, lowest-rated first.

    Reading [unclear 10] 1.46c1 (2009): the Russian text speaks of counting the *title* of one
    opponent "who raised his rating". We read it as the English rule it translates: at most one
    opponent, the lowest rated, is raised to the floor."""
    unrated_rating: int = 1200
    """1.46d: the rating an unrated opponent without a title counts at.

    Reading [unclear 30] 1.46d/e (2009): unrated opponents count at "the current minimum rating
    floor" of the Rating Regulations: 1200 from 1 July 2009, 1000 from 1 July 2012
    (``fide-2009r2012``, :data:`FIDE_2009R2012`; the date is issue 12's review, the reference
    has only "probably 2012"); unrated *title-holders* at 1.46e's values
    (:attr:`unrated_titled_rating`: GM 2300, IM 2200, WGM 2100, FM 2100, WIM 2000, WFM 1900),
    our reading of a line the translation leaves without context. An unrated opponent raised to
    the floor still counts as unrated for 1.46a (:attr:`raised_unrated_counts_as_rated`; the
    text is silent)."""
    unrated_titled_rating: Mapping[Title, int] = dataclasses.field(
        default_factory=lambda: _frozen(
            {GM: 2300, IM: 2200, WGM: 2100, FM: 2100, WIM: 2000, WFM: 1900}
        )
    )
    """1.46e: unrated opponents holding a title count at these ratings (the reading of
    :attr:`unrated_rating`)."""
    raised_unrated_counts_as_rated: bool = False
    """Whether an unrated opponent raised to the floor counts as rated for 1.46a (the reading of
    :attr:`unrated_rating`)."""
    min_score: Fraction | None = F(35, 100)
    """1.49 (and 1.22): the minimum score is 35 % for all norms."""
    title_holder_titles: frozenset[Title] = frozenset({GM, IM, WGM, WIM, FM, WFM})
    """1.45a: title-holders are those of 0.31 except CM and WCM."""
    mo_weights: Mapping[Title, Mapping[Title, Fraction]] = dataclasses.field(
        default_factory=lambda: MappingProxyType(
            {
                GM: {GM: F(1)},
                IM: {IM: F(1), GM: F(3, 2)},
                WGM: {WGM: F(1), GM: F(3, 2), IM: F(1), FM: F(1)},
                WIM: {WIM: F(1), GM: F(2), WGM: F(3, 2), IM: F(3, 2), FM: F(3, 2)},
            }
        )
    )
    """1.45b–e with the equivalences of the notes to table 1.7: one GM = 1.5 IM or 1.5 WGM or
    2 WIM; one IM or FM = one WGM or 1.5 WIM; a WGM = 1.5 WIM."""
    thirteen_cap: int = 13
    """1.49: norms from tournaments of more than 13 rounds count as 13 games…"""
    thirteen_cap_exempt: frozenset[EventKind] = frozenset(
        {EventKind.WORLD_OR_CONTINENTAL_CHAMPIONSHIP}
    )
    """… except world or continental championships (1.49)."""
    non_member_federations: frozenset[str] = frozenset({"NON"})
    """1.42a: codes of players whose federation is not a FIDE member."""
    fid_counts_as_federation: bool = True
    """Whether ``FID`` (players under the FIDE flag) is a federation other than the applicant's
    for 1.43 and the Swiss exemption of 1.43e (:meth:`is_foreign`).

    Reading [unclear 50] FID (2009): the 2009 text has no rule for players under the FIDE flag:
    ``FID`` is read as one more federation code, as the rating list prints it, for 1.43 (a
    federation other than the applicant's), the Swiss exemption of 1.43e and the caps of 1.44a;
    the 2024 sentence of 1.4.2a that takes it away ("accepted, but not foreign") is read as a
    change (this field ``fid_counts_as_federation``, and :meth:`is_foreign`). The caps of 1.44a
    count FID players as one group in every edition. The pre-2009 edition reads it the same way."""
    exemptions_lift_caps: bool = True
    """Whether an exemption of 1.43a–e also lifts the 3/5 and 2/3 caps of 1.44a.

    Reading [unclear 40] 1.43e (2009): "otherwise 1.44 applies", the end of 1.43e, is read as
    arbiters read it: an event exempt under 1.43a–e is also free of the 3/5 and 2/3 caps of
    1.44a. The Swiss exemption counts the players paired so far
    (:attr:`swiss_exemption_per_round` off)."""
    swiss_exemption: tuple[int, int, int] = (20, 3, 10)
    """1.43e: at least 20 FIDE-rated players not from the host federation, from at least 3
    federations, at least 10 of them GM, IM, WGM or WIM."""
    swiss_exemption_per_round: bool = False
    """Whether 1.43e must hold in every round (a 2024 addition); 2009 counts participants."""
    swiss_exemption_max_missed: int | None = None
    """With :attr:`swiss_exemption_per_round`: players count only if they missed at most this
    many rounds (pairing-allocated byes not counting as missed). ``None``: everyone paired."""
    title_holder_article: str = "1.45a"
    foreign_article: str = "1.43"
    caps_article: str = "1.44a"
    unrated_article: str = "1.46a"
    game_date_ratings_after_days: int | None = None
    """Events lasting longer than this many days use the opponents' ratings at the date of
    each game (1.1.4 of 2024). The 2009 text (1.16: more than 90 days, the organiser's
    choice) is not in the events, so 2009 always uses the list at the start (1.46b)."""
    rating_title_min_games: int | None = None
    """Titles by rating (FM, CM, WFM, WCM) need this many rated games when the rating is
    reached (1.3: "for ratings achieved after 1st July 2017, the player must at that time
    have played at least 30 rated games"); the 2009 text has no such rule, its revision of
    1 July 2017 (:data:`FIDE_2009R2017`) has."""
    norm_rate_minimum: tuple[int, str] | None = (120, "1.14")
    """Minutes each player must have for 60 moves in a norm event, and the article. 1.14
    lists the allowed time controls (the summary table of 1.6: "not less than 120 minutes");
    read as 120 minutes for 60 moves, the least of the listed controls."""
    max_hours_per_day: tuple[int, str] | None = (12, "1.12")
    """1.12: no more than 12 hours of play a day, assuming 60 moves."""
    max_rounds_per_day: tuple[int, str] | None = (2, "1.13")
    """1.13: no more than two rounds a day (a flag on the norm)."""
    one_round_days: tuple[int, frozenset[Title], str] | None = None
    """Days with one round only that a norm event of these titles must have (1.1.3a of
    2024); 2009 has no such rule."""
    max_event_days: tuple[int, str] | None = (90, "1.15")
    """1.15: normally only events played within 90 days; longer ones (leagues, national
    championships, approved events) declare the list used (1.16). A flag on the norm.

    Reading [files 40] 1.15/1.16 (2009): an event over 90 days (start to the later of the end
    date and the last round date, both days counted) is flagged; the choice of list 1.16 leaves
    to the organiser is not in the events, so the list at the start is used
    (:attr:`game_date_ratings_after_days`)."""

    # -- 0.31 / 1.51 which titles a player can gain ------------------------------------------

    eligibility_article: str = "0.31"
    """0.31 lists the titles in two categories: the open titles (GM, IM, FM, CM) and the
    titles "among women" (WGM, WIM, WFM, WCM)."""

    def why_not_eligible(self, player: Player, title: Title) -> str | None:
        """Why ``player`` cannot gain ``title``, or ``None`` when she can: the one notion of
        eligibility that replay, ``tracker check``, the certificate, the prospects and the web
        views share. A player can gain every title she does not hold whose category she can gain
        (the women's titles only women) and which is not below a title she holds in the same
        category; a norm may serve two applications (1.51), so a woman FM or IM is evaluated for
        WGM and WIM norms too, and a WGM for IM and GM (not WIM).

        Reading [unclear 140] Titles held: see [Which titles a player can
        gain](#which-titles-a-player-can-gain): no title is ranked against one of the other
        category (the 2009 text lists the two categories in 0.31 and ranks nothing; 2024 0.6.2's
        "lower titles" are those of the same category). A player whose sex is not given is not
        evaluated for women's titles. Only the title the event gives is known (TRF has one
        title; the rating list a second, women's column): a woman listed as IM who also holds
        WGM is still evaluated for WGM."""
        bar = _bar(player.title, player.sex is Sex.WOMAN, title)
        if bar is None:
            return None
        who = player.label()
        if bar == "held":
            return f"{who} holds the {title.value} title"
        if bar == "women":
            sex = "is registered as a man" if player.sex is Sex.MAN else "has no sex given"
            return f"{title.value} is a women's title ({self.eligibility_article}) and {who} {sex}"
        assert player.title is not None
        category = "women's" if title.for_women_only else "open"
        return (
            f"{title.value} is below the {player.title.value} title {who} holds, in the same "
            f"({category}) category ({self.eligibility_article})"
        )

    def eligible_titles(self, player: Player) -> tuple[Title, ...]:
        """Every title of 0.31 the player can gain (:meth:`why_not_eligible`), by level."""
        return _gainable(player.title, player.sex is Sex.WOMAN, _ALL)

    def eligible_norm_titles(self, player: Player) -> tuple[Title, ...]:
        """The norm titles (GM, IM, WGM, WIM; 1.4) the player can gain, strongest first: the
        titles her results are evaluated for."""
        return _gainable(player.title, player.sex is Sex.WOMAN, NORM_TITLES)

    def rating_level_titles(self, player: Player) -> tuple[Title, ...]:
        """The titles whose rating level (1.3 FM 2300, CM 2200, WFM 2100, WCM 2000; 1.52 GM
        2500, IM 2400, WGM 2300, WIM 2200) is news when the live rating reaches it: the titles
        the player can gain (:meth:`why_not_eligible`) above the level of the title she holds.

        Reading [unclear 150] Title levels: a title held shows that its rating level was reached
        "at some time", which is all 1.3 and 1.52 ask, so ``title_rating_reached`` reports only
        levels above that of the title held: a woman FM at 2050 reaching 2100 is not "WFM level
        reached" (her WGM and WIM norms are still evaluated: :meth:`eligible_norm_titles`)."""
        held = player.title.level if player.title is not None else 0
        return tuple(t for t in self.eligible_titles(player) if t.level > held)

    rating_titles_published: bool = True
    """1.3: whether FM, CM, WFM and WCM need the level on a published rating list
    (:meth:`needs_published_rating`).

    Reading [issue-19 30] 1.3 (2009): "the following titles are awarded on reaching a certain
    *published* rating" (по достижении игроком определённого опубликованного рейтинга): a live
    rating at the FM, CM, WFM or WCM level is said in the round summary (``standings[].note``,
    where the games count for title ratings at all), not announced as reached; 1.52a lets the
    GM, IM, WGM and WIM levels be unpublished, mid-period or mid-event ratings. The 2017
    revision takes the 2024 wording (1.3: "a published or interim rating"), which lifts this;
    the 2014 and 2017 texts were not found verbatim."""
    rating_title_article: str = "1.3"

    def needs_published_rating(self, title: Title) -> bool:
        """Whether a live rating at ``title``'s level is not yet a title level reached,
        because the edition asks it on a published list (:attr:`rating_titles_published`;
        the norm titles' levels never need it, 1.52a)."""
        return self.rating_titles_published and title not in NORM_TITLES

    # -- 1.41 number of games ------------------------------------------------------------

    def min_games(self, t: Tournament) -> tuple[int, int]:
        """1.41a/b: the fewest games a norm may have, and how many games it then counts as.

        9 games; 7 in world or continental team championships of 7 to 9 rounds; 8 in the
        World Cup or Women's World Championship, counted as 9."""
        if not t.kinds:  # most events have no kind: no lookups
            return 9, 9
        if t.is_(EventKind.TEAM_CHAMPIONSHIP) and t.plans_between(7, 9):
            return 7, 7
        if t.is_(EventKind.WORLD_CUP) and t.plans_between(8, 9):
            return 8, 9
        return 9, 9

    def credited_games(
        self,
        games: int,
        extra_points: int,
        t: Tournament,
        minimum: tuple[int, int] | None = None,
    ) -> int:
        """1.41c and 1.49: games the norm counts for towards the 27 of 1.50. ``minimum`` is the
        (fewest games, counted as) pair in effect for this player when it is not the
        tournament's (1.4.1c of 2024).

        Reading [unclear 110] 1.41c and 1.49: games credited = games (or 9 for the World Cup's
        8) plus the whole points above the lowest score that gives the norm with the same Ra
        (each whole point above the requirement adds a game, 1.41c); capped at 13 only for
        events of more than 13 rounds (except world or continental championships, 1.49; with the
        number of rounds unknown, when the norm has more than 13 games)."""
        low, counted_as = minimum or self.min_games(t)
        base = max(games, counted_as) if games == low else games
        total = base + max(0, extra_points)
        # rounds unknown: more than 13 only when the games show it
        rounds = games if t.planned_rounds is None else t.planned_rounds
        if rounds > self.thirteen_cap and not (t.kinds & self.thirteen_cap_exempt):
            total = min(total, self.thirteen_cap)
        return total

    # -- 1.42 games that do not count, games that may be ignored -------------------------

    def exclusion(
        self, opponent: Player, code: Code, t: Tournament, unrated_scored_zero: bool
    ) -> tuple[str, str] | None:
        """1.42a–d: ``(article, reason)`` when a game does not count for norms. An opponent
        of unknown federation is not taken for a non-member (1.42a applies to the codes of
        :attr:`non_member_federations` as the file writes them)."""
        fed = opponent.federation
        if fed is not None and fed.upper() in self.non_member_federations:
            return "1.42a", "opponent's federation is not a FIDE member"
        if opponent.computer:
            return "1.42b", "game against a computer"
        if not code.over_the_board:
            return "1.42c", "not decided over the board (forfeit or no move made)"
        if t.system.predetermined and opponent.rating is None and unrated_scored_zero:
            return "1.42d", "unrated opponent who scored zero against rated players"
        return None

    win_article: str = "1.42e"
    """Won games may be ignored if the mix and the minimum games still hold."""
    after_norm_article: str = "1.42f"
    """Games after a norm achieved before the last round may be ignored."""
    last_round_forfeit_article: str = "1.42c"
    unrated_zero_article: str = "1.42d"
    """Unrated opponents with no point against rated ones, in round robins (2024: 1.4.2b)."""

    def may_ignore_wins(self, t: Tournament) -> bool:
        """1.42e: won games may be ignored, in every kind of tournament."""
        return True

    def short_norm(self, t: Tournament) -> tuple[int, int] | None:
        """Fewer games a single player may make do with, and what they count as, when the
        missing game is one :meth:`short_norm_allows` (1.4.1c of 2024); 2009 has none."""
        return None

    def short_norm_allows(self, missing: Code, t: Tournament) -> bool:
        """Whether a round with ``missing`` may be the game a short norm lacks (1.4.1c)."""
        return False

    short_norm_article: str = ""

    def wins_need_complete_mix(self, t: Tournament) -> bool:
        """Whether won games may be left out only when the mix of the complete event allows
        a norm (1.4.1f of 2024, round robins); 2009 has no such condition."""
        return False

    def may_ignore_after_norm(self, t: Tournament) -> bool:
        """1.42f: games played after a norm was achieved before the last round may be ignored
        (1.42e: :meth:`may_ignore_wins`).

        Reading [unclear 90] 1.42e/f (2009): apply in every kind of tournament (the 2009 text
        has no round-robin restriction). A norm achieved before the last round is *secured*:
        later games may be ignored, unless it depends on what later rounds bring ([Secured
        norms](prospects.md#secured-norms))."""
        return True

    def last_round_forfeit_counts(self) -> bool:
        """1.42c: if the last-round opponent forfeits a game the player needed for the count but
        could have afforded to lose, the norm stands.

        Reading [unclear 80] 1.42c: a last-round forfeit win counts, as a loss against the
        scheduled opponent, only when the player's played games are too few without it; the norm
        then counts as 9 games."""
        return True

    # -- 1.43/1.44 federations ------------------------------------------------------------

    def federation_exemption(
        self, t: Tournament, swiss_exempt: bool, player: Player | None = None
    ) -> str | None:
        """1.43a–e: the article that frees this event from the federation rules, if any."""
        if t.kinds:  # most events have no kind: no lookups
            for kind, article in _EXEMPT_KINDS_2009:
                if kind in t.kinds:
                    return article
        if t.system is System.SWISS and swiss_exempt:
            return "1.43e"
        return None

    swiss_exemption_article: str = "1.43e"

    def is_foreign(self, federation: str, own: str) -> bool:
        """1.43: whether an opponent of ``federation`` counts as from a federation other than
        ``own`` (the applicant's, or for 1.43e the host's): ``FID`` only where
        :attr:`fid_counts_as_federation`; a player of a non-member
        (:attr:`non_member_federations`) never.

        Reading [issue-19 50] NON: no FIDE federation (1.42a, 2024 1.4.2a): never one of the
        federations of 1.43 / 1.4.3 nor a foreign player of the Swiss exemption (1.43e /
        1.4.3d), in every edition.

        >>> FIDE_2009.is_foreign("FRA", "GER"), FIDE_2009.is_foreign("NON", "GER")
        (True, False)
        """
        if federation in self.non_member_federations:
            return False
        return federation != own and (self.fid_counts_as_federation or federation != "FID")

    # -- the whole mix for n games ----------------------------------------------------------

    def mix(
        self,
        title: Title,
        games: int,
        t: Tournament,
        player: Player,
        exemption: str | None,
        opponents: int | None = None,
    ) -> MixRule:
        """1.43–1.46a for a norm over ``games`` games against ``opponents`` different players
        (fewer only in a double round robin); minimums rounded up, maximums down (1.44).

        Reading [unclear 100] 1.45f (2009): in a double round robin each opponent counts once
        for 1.45b–e only; the 50 % title-holders of 1.45a are counted per game."""
        lift_caps = exemption is not None and self.exemptions_lift_caps
        return MixRule(
            games=games,
            min_title_holders=self.min_title_holders(games, player),
            title_holder_titles=self.title_holder_titles,
            title_holder_article=self.title_holder_article,
            mo=self.mo(title, games, t),
            mo_article=self.mo_article(title),
            distinct_opponents=t.system is System.DOUBLE_ROUND_ROBIN,
            title_holders_distinct=False,
            federation_exemption=exemption,
            min_foreign_federations=0 if exemption else 2,
            foreign_article=self.foreign_article,
            max_own_federation=None if lift_caps else 3 * games // 5,
            max_one_federation=None if lift_caps else 2 * games // 3,
            caps_article=self.caps_article,
            min_other_federations=None,
            other_article="",
            max_unrated=self.max_unrated(games),
            unrated_article=self.unrated_article,
        )

    def mix_reads(self, player: Player) -> object:
        """What of the applicant :meth:`mix` reads, the key its memo (:attr:`mix_memo`) holds
        in the applicant's place: nothing here, as 1.43–1.46a ask the same of every applicant
        (:meth:`min_title_holders` reads no player). An edition whose mix reads the player
        says what it reads (``tests/unit/test_mix_memo.py`` checks every edition)."""
        return None

    def min_games_after_cut(self, t: Tournament) -> int:
        """1.42f: games after the norm may be ignored "provided the minimum number of games
        of 1.41 still holds"."""
        return self.min_games(t)[0]

    def min_title_holders(self, games: int, player: Player) -> int:
        """1.45a: at least 50 % of the opponents hold a title (rounded up, 1.44)."""
        return -(-games // 2)

    def mo(self, title: Title, games: int, t: Tournament) -> MO:
        """1.45b–e: at least a third of the opponents, and at least 3, hold the norm's title
        or a higher one counted with its equivalence."""
        needed = max(3, -(-games // 3))
        return WeightedMO(self.mo_weights[title], F(needed), title.value)

    def mo_article(self, title: Title) -> str:
        return {GM: "1.45b", IM: "1.45c", WGM: "1.45d", WIM: "1.45e"}[title]

    def max_unrated(self, games: int) -> int | None:
        """1.46a: the most unrated opponents a norm over ``games`` games may have.

        Reading [unclear 20] 1.46a (2009): "the maximum number of unrated opponents is 20 % of
        the number of opponents + 1" is read as ⌊(n + 1)/5⌋, the only reading that fits every
        header of table 1.49a (9 rounds: 7 rated; 19 rounds: 15 rated)."""
        return (games + 1) // 5

    def uses_game_date_ratings(self, t: Tournament) -> bool:
        """Whether opponents count with their rating at the date of each game (1.1.4 of
        2024): only when :attr:`game_date_ratings_after_days` is set and the event, from its
        first to its last day, lasts longer than that."""
        limit = self.game_date_ratings_after_days
        return limit is not None and t.end_date is not None and days(t) > limit

    event_type_swiss: tuple[int, int] | None = None
    """1.5.6 of 2024: a Swiss with at least this many participants averaging at least this
    rating in every round is one of the events an application needs a norm from. ``None``:
    the edition has no 1.5.6 (norms before 1 July 2022)."""

    def event_type_1_5_6(self, t: Tournament, strong_every_round: bool) -> str | None:
        """1.5.6 of 2024: an application with a norm after 30 June 2022 needs one norm from a
        strong Swiss (see :attr:`event_type_swiss`), the Olympiad, a GSC event qualifying to
        the Candidates, an event qualifying directly to the World Cup, an individual event
        under the EVE regulations or the final stage of a national individual championship.
        Why the event is of such a type, or ``None``; always ``None`` in an edition without
        the rule (:attr:`event_type_swiss` ``None``: before 1 July 2022)."""
        if self.event_type_swiss is None:
            return None
        if t.system is System.SWISS and strong_every_round:
            players, average = self.event_type_swiss
            return (
                f"1.5.6: Swiss with at least {players} participants averaging at least "
                f"{average} in every round"
            )
        for kind, what in _EVENT_TYPES_1_5_6:
            if kind in t.kinds:
                return f"1.5.6: {what}"
        return None

    # -- 1.46/1.47/1.48 ratings ------------------------------------------------------------

    def opponent_rating(self, opponent: Player) -> int:
        """1.46d/e: the rating an opponent counts with before the floor of 1.46c."""
        if opponent.rating is not None:
            return opponent.rating
        if opponent.title is not None and opponent.title in self.unrated_titled_rating:
            return self.unrated_titled_rating[opponent.title]
        return self.unrated_rating

    mix_memo: dict[tuple[object, ...], MixRule] = dataclasses.field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """The :meth:`mix` rules made so far, keyed by every argument (the applicant by what
    :meth:`mix_reads` of them, so that a round of many players makes a few rules). The
    edition is a frozen value, so a rule once made stays right; :func:`dataclasses.replace`
    starts a new memo."""

    articles: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: MappingProxyType(
            {
                "games": "1.41a",
                "bye": "1.42c",
                "floor": "1.46c",
                "average": "1.48a",
                "performance": "1.48",
                "score": "1.49",
                "rounding": "1.47b",
                "credited": "1.41c/1.49",
            }
        )
    )
    """The articles named in the evidence, by what they are about (``bye``: the reading below).

    Reading [unclear 60] Byes: a bye is a point without a game, one of the results "not decided
    over the board": it is left out under 1.42c (2024: 1.4.2c; pre-2009: 2.1), not under the
    number of games of 1.41a / 1.4.1a. 1.4.1c names the pairing-allocated bye only as the game
    an 8-game norm may lack."""

    # -- 1.5 a title application based on norms (see tracker/titles) --------------------------

    application_articles: Mapping[str, str] = dataclasses.field(
        default_factory=lambda: MappingProxyType(
            {
                "games": "1.50",
                "two_titles": "1.51",
                "rating": "1.52",
                "interim": "1.52a",
                "own_rules": "1.53",
                "normal_foreigners": "1.43f",
            }
        )
    )
    """The articles an application's conditions cite, by what they are about: 1.50 two or
    more norms covering at least 27 games; 1.51 a norm good for two titles serves both
    applications; 1.52 the title's rating reached at some time, 1.52a published or not, the
    proof of an unpublished one resting with the federation; 1.53 a norm counts under the
    regulations in force when it was achieved; 1.43f at least one norm under the normal
    foreigner requirement."""
    application_games: int = 27
    """1.50: norms covering at least 27 games.

    Reading [titles 20] 27 games (1.5.1, 1.50): the sum of each norm's games credited (each norm
    counted as :meth:`credited_games` of its own edition says); 1.4.1d's whole points are each
    norm's own (two norms of half a point over add no game, as the QC's review of 1 May 2023
    says). "Two or more norms" (2009 1.50, :attr:`application_min_norms`) is kept under 2024,
    whose paraphrase speaks of norms."""
    application_min_norms: int = 2
    """1.50: "two or more norms"."""
    short_norms_per_application: int | None = None
    """How many 8-game norms of 1.4.1c (2024) one application may use; ``None``: the edition
    has no such norms and no limit."""
    event_type_norms_after: date | None = None
    """1.5.6 (2024): an application holding a norm of an event that started after this day needs
    a norm from an event of :meth:`event_type_1_5_6`; ``None``: no such rule.

    Reading [titles 60] 1.5.6: "a norm achieved after 30 June 2022" is read by the event's start
    date, as for the flag on the norm; an event whose type is not known (a norm of an edition
    without the rule, a held norm that does not say) is not taken for one of 1.5.6's. An
    application may leave out a later norm rather than need a 1.5.6 norm, when the others are
    enough."""


def _bar(held: Title | None, woman: bool, title: Title) -> str | None:
    """What keeps a holder of ``held`` (a woman or not) from ``title``
    (:meth:`TitleRules2009.why_not_eligible`)."""
    if held is title:
        return "held"
    if title.for_women_only and not woman:
        return "women"
    if (
        held is not None
        and held.for_women_only is title.for_women_only
        and held.level > title.level
    ):
        return "lower"
    return None


@functools.cache
def _gainable(held: Title | None, woman: bool, among: tuple[Title, ...]) -> tuple[Title, ...]:
    """The titles of ``among`` that :func:`_bar` lets a holder of ``held`` gain, in order;
    a handful of answers, asked for every player after every round."""
    return tuple(t for t in among if _bar(held, woman, t) is None)


_ALL = tuple(Title)


_EXEMPT_KINDS_2009 = (
    (EventKind.NATIONAL_CHAMPIONSHIP_FINAL, "1.43a"),
    (EventKind.NATIONAL_TEAM_CHAMPIONSHIP, "1.43b"),
    (EventKind.ZONAL, "1.43c"),
    (EventKind.QC_APPROVED_EXEMPTION, "1.43d"),
)


def days(t: Tournament) -> int:
    """How many days the event lasts, first and last day included."""
    end = t.end_date or t.start_date
    return (end - t.start_date).days + 1


_EVENT_TYPES_1_5_6 = (
    (EventKind.OLYMPIAD, "the Chess Olympiad"),
    (EventKind.CANDIDATES_QUALIFIER, "a GSC event qualifying directly to the Candidates"),
    (EventKind.WORLD_CUP_QUALIFIER, "a tournament qualifying directly to the World Cup"),
    (EventKind.EVE_EVENT, "an individual tournament under the EVE regulations"),
    (EventKind.NATIONAL_CHAMPIONSHIP_FINAL, "the final stage of a national championship"),
)


FIDE_2009 = TitleRules2009()

# -- dated revisions ----------------------------------------------------------------------
#
# Amendments between 2009 and 2024 that can be sourced, each a value of this edition from
# the day it took effect, named ``fide-2009r<year>`` and cumulative. The 2014, 2017, 2022
# and 2023 texts themselves are not modelled: for everything else the 2009 text stands in.

FIDE_2009R2012 = dataclasses.replace(
    FIDE_2009,
    name="fide-2009r2012",
    description=(
        "FIDE Title Regulations B.01 of 1 July 2009, with the rating floor of 1000 "
        "(1.46d) from 1 July 2012"
    ),
    in_force_from=date(2012, 7, 1),
    amendments="unrated opponents at 1000",
    unrated_rating=1000,
)
"""1.46d's "current minimum rating floor", lowered from 1200 to 1000 with effect from 1 July
2012 (the reading of :attr:`TitleRules2009.unrated_rating`; the reference has 1200 "after
1.7.2009" and 1000 until the 1400 of March 2024)."""

FIDE_2009R2017 = dataclasses.replace(
    FIDE_2009R2012,
    name="fide-2009r2017",
    description=(
        "FIDE Title Regulations B.01 of 1 July 2009, with the rating floor of 1000 (1.46d, "
        "1 July 2012) and 30 rated games for titles by rating (1.3, 1 July 2017)"
    ),
    in_force_from=date(2017, 7, 1),
    amendments="unrated opponents at 1000, 30 rated games for titles by rating",
    rating_title_min_games=30,
    rating_titles_published=False,
)
"""1.3 (as the 2024 text keeps it): "Titles may be gained by achieving a published or interim
rating at some time … For ratings achieved after 1st July 2017, the player must at that time
have played at least 30 rated games". The revision takes the whole sentence, interim ratings
with it (the 2014 and 2017 wordings were not found verbatim: a reading).

Reading [unclear 70] 1.3 (2009r2017): "for ratings achieved after 1st July 2017" is read as a
rule of events starting on or after 1 July 2017, the day the 2017 regulations took effect: like
every rule, it is chosen by the start date (the edition is, 1.53)."""

FIDE_2009R2022 = dataclasses.replace(
    FIDE_2009R2017,
    name="fide-2009r2022",
    description=(
        "FIDE Title Regulations B.01 of 1 July 2009, with the rating floor of 1000 (1.46d, "
        "1 July 2012), 30 rated games for titles by rating (1.3, 1 July 2017) and the event "
        "types of 1.5.6 for norms after 30 June 2022"
    ),
    in_force_from=date(2022, 7, 1),
    amendments=(
        "unrated opponents at 1000, 30 rated games for titles by rating, 1.5.6 event types"
    ),
    event_type_swiss=(40, 2000),
    event_type_norms_after=date(2022, 6, 30),
    application_articles=MappingProxyType(
        {**FIDE_2009R2017.application_articles, "event_types": "1.5.6"}
    ),
)
"""1.5.6 of the 2024 text reaches back: "if an application includes at least one norm achieved
after 30 June 2022", one of its norms must come from a strong Swiss or one of the events it
lists. A norm of an event from 1 July 2022 carries the flag (``event_type_1_5_6``) as a 2024
norm does, with the 2024 list (the 2022 wording is not in the reference); the start date decides
(the reading of ``TitleRules2024.event_type_swiss``). An application judged under this revision
(:mod:`tracker.titles`) asks it of its norms (``event_type_norms_after``)."""
