"""Editions of the FIDE Rating Regulations (B.02), as values.

Each edition is one :class:`RatingRules` record: the rating-difference cap of the
350/400-point rule, the K-factor rule and the rounding of the rating change. Code that
computes ratings reads the fields; it never branches on dates.

========================  ============  =========================================================
edition                   in force      what changed
========================  ============  =========================================================
``rating-2006``           1 Apr 2006    350-point rule; K 25 (new) / 15 (< 2400) / 10 (≥ 2400).
                                        Also used for any earlier date.
``rating-2009``           1 Jul 2009    400-point rule replaces the 350-point rule.
``rating-2011``           1 Jul 2011    K for new players 25 → 30.
``rating-2014``           1 Jul 2014    K 40 / 20 / 10; K 40 until the 18th birthday while < 2300.
``rating-2022``           1 Jan 2022    Junior K until the end of the year of the 18th birthday;
                                        K × n ≤ 700; one 400-point upgrade per tournament.
``rating-2024``           1 Mar 2024    The one-upgrade limit is abolished.
``rating-2025-10``        1 Oct 2025    No 400-point cap for players rated 2650 and above.
========================  ============  =========================================================

>>> rating_rules_in_force(date(2009, 6, 30)).name, rating_rules_in_force(date(2009, 7, 1)).name
('rating-2006', 'rating-2009')
>>> rating_rules_in_force(date(1999, 1, 1)).name
'rating-2006'
>>> rules = rating_rules_named("rating-2025-10")
>>> rules.difference_cap.effective_differences(2700, [-500]), rules.k_limited(40, 20)
([-500], 35)
>>> try:
...     rating_rules_named("rating-2025")
... except ValueError as error:
...     print(error)  # doctest: +NORMALIZE_WHITESPACE
unknown rating edition 'rating-2025'; expected one of rating-2006, rating-2009, rating-2011,
rating-2014, rating-2022, rating-2024, rating-2025-10
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from datetime import date
from fractions import Fraction

__all__ = [
    "RATING_EDITIONS",
    "DifferenceCap",
    "JuniorRule",
    "JuniorUntil",
    "RatingRules",
    "Rounding",
    "UnknownRatingEditionError",
    "rating_rules_in_force",
    "rating_rules_named",
]


class Rounding(enum.Enum):
    """How the rating change of a period is rounded to a whole number."""

    HALF_AWAY_FROM_ZERO = "half away from zero"
    """B.02 8.3.4 (2024): "rounded to the nearest whole number. 0.5 is rounded away from
    zero"."""

    def apply(self, value: Fraction) -> int:
        """Round ``value`` to a whole number.

        >>> Rounding.HALF_AWAY_FROM_ZERO.apply(Fraction(-5, 2))
        -3
        """
        return self.apply_ratio(value.numerator, value.denominator)

    def apply_ratio(self, numerator: int, denominator: int) -> int:
        """Round ``numerator / denominator`` (``denominator`` > 0) in integers.

        >>> Rounding.HALF_AWAY_FROM_ZERO.apply_ratio(-250, 100)
        -3
        """
        if numerator >= 0:
            return (2 * numerator + denominator) // (2 * denominator)
        return -((-2 * numerator + denominator) // (2 * denominator))


class JuniorUntil(enum.Enum):
    """The end of a junior's raised K, as the edition words it."""

    EIGHTEENTH_BIRTHDAY = "until their 18th birthday"
    """8.56 (2014): "K = 40 for all players until their 18th birthday"."""
    END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY = "until the end of the year of their 18th birthday"
    """8.3.3 (2022, 2024): "until the end of the year of their 18th birthday"."""

    def is_junior(self, birth_date: date, on: date) -> bool:
        """Whether a player born on ``birth_date`` is still a junior on ``on``.

        A player born on 29 February has their 18th birthday on 1 March in a common year
        (the project's reading; the regulations do not say).

        >>> born = date(2006, 5, 10)
        >>> JuniorUntil.EIGHTEENTH_BIRTHDAY.is_junior(born, date(2024, 5, 9))
        True
        >>> JuniorUntil.EIGHTEENTH_BIRTHDAY.is_junior(born, date(2024, 5, 10))
        False
        >>> JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY.is_junior(born, date(2024, 12, 31))
        True
        >>> JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY.is_junior(born, date(2025, 1, 1))
        False
        """
        if self is JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY:
            return on.year <= birth_date.year + 18
        return on < _eighteenth_birthday(birth_date)


def _eighteenth_birthday(birth_date: date) -> date:
    try:
        return birth_date.replace(year=birth_date.year + 18)
    except ValueError:  # 29 February, common year
        return date(birth_date.year + 18, 3, 1)


@dataclasses.dataclass(frozen=True, slots=True)
class JuniorRule:
    """The raised K for young players (8.56 from 1 July 2014; 8.3.3 in 2022 and 2024)."""

    k: int
    """The junior K: 40 in 8.56 (2014) and 8.3.3 (2022, 2024)."""
    below: int
    """Applies "as long as their rating remains under" this rating: 2300 (8.56, 8.3.3)."""
    until: JuniorUntil
    """How long a player counts as a junior (8.56 of 2014 vs 8.3.3 of 2022)."""


@dataclasses.dataclass(frozen=True, slots=True)
class DifferenceCap:
    """The 350/400-point rule: a larger rating difference counts as ``points``.

    Numbered 8.54 in the 2014 regulations and 8.3.1 in the 2022 and 2024 ones.
    """

    points: int
    """350 from 1 April 2006, 400 from 1 July 2009 (8.54 of 2014, 8.3.1 of 2022/2024)."""
    once_per_tournament: bool = False
    """8.3.1 (2022): "In any tournament, a player may benefit from only one upgrade under
    this rule, for the game in which the rating difference is greatest." Abolished on
    1 March 2024."""
    exempt_from: int | None = None
    """8.3.1 (amended 1 October 2025): "For players rated 2650 and above, the difference
    between ratings shall be used in all cases"."""

    def applies_to(self, rating: int) -> bool:
        """Whether a player rated ``rating`` has their differences capped (8.3.1 from
        1 October 2025 exempts 2650 and above)."""
        return self.exempt_from is None or rating < self.exempt_from

    def limit(self, difference: int) -> int:
        """``difference`` counted "as though it were a difference of" ``points`` when
        larger (8.54 / 8.3.1). The sign is kept.

        >>> DifferenceCap(400).limit(-550), DifferenceCap(400).limit(120)
        (-400, 120)
        """
        return max(-self.points, min(self.points, difference))

    def effective_differences(self, rating: int, differences: Sequence[int]) -> list[int]:
        """The differences the player's rating change is computed with, for one tournament
        (8.54 / 8.3.1).

        With :attr:`once_per_tournament` only the game with the greatest difference (in
        absolute value; the first such game on a tie) is capped, every other game keeps
        its real difference (8.3.1 of 2022). The limit is read as applying to the
        player's own games whatever their sign: the text speaks of one "upgrade" per
        player and tournament.

        >>> DifferenceCap(400).effective_differences(2000, [450, -600, 10])
        [400, -400, 10]
        >>> once = DifferenceCap(400, once_per_tournament=True)
        >>> once.effective_differences(2000, [450, -600, 10])
        [450, -400, 10]
        """
        if not self.applies_to(rating):
            return list(differences)
        if not self.once_per_tournament:
            return [self.limit(d) for d in differences]
        result = list(differences)
        over = [i for i, d in enumerate(differences) if abs(d) > self.points]
        if over:
            greatest = max(over, key=lambda i: abs(differences[i]))  # first on a tie
            result[greatest] = self.limit(differences[greatest])
        return result


@dataclasses.dataclass(frozen=True, slots=True)
class RatingRules:
    """One edition of the Rating Regulations, as far as a live rating needs it.

    The per-edition article numbers are in :attr:`cap_article`, :attr:`k_article` and
    :attr:`rounding_article`; the field docstrings cite the 2024 numbering (8.3.x).
    """

    name: str
    """Registry key, ``rating-YYYY`` (``rating-2025-10`` for the October 2025 amendment)."""
    in_force_from: date
    """First day the edition applies (its "applied from" date; see :attr:`notes`)."""
    difference_cap: DifferenceCap | None
    """The 350/400-point rule (8.3.1); ``None`` would mean real differences for all."""
    k_new_player: int
    """8.3.3: K "for a player new to the rating list until they have completed events with
    at least" :attr:`new_player_games` games: 25 (2006, 2009), 30 (2011), 40 (2014 on)."""
    k_below_established: int
    """8.3.3: K "as long as a player's rating remains under 2400": 15, then 20 from 2014."""
    k_established: int
    """8.3.3: K "once a player's published rating has reached 2400": 10 in every edition."""
    junior: JuniorRule | None
    """8.56 (2014) / 8.3.3 (2022): raised K for young players; ``None`` before 2014."""
    k_times_games_max: int | None
    """8.3.3: "If the number of games (n) … multiplied by K … exceeds 700, then K shall be
    the largest whole number such that K x n does not exceed 700"; ``None`` when absent."""
    rounding: Rounding
    """8.3.4: how the rating change is rounded, once, on the total."""
    cap_article: str
    """Article of the 350/400-point rule in this edition."""
    k_article: str
    """Article of the K-factor rule in this edition."""
    rounding_article: str
    """Article of the rounding rule in this edition."""
    new_player_games: int = 30
    """8.3.3: games a new player must complete before leaving :attr:`k_new_player`."""
    established_from: int = 2400
    """8.3.3: the rating that earns :attr:`k_established`."""
    notes: str = ""
    """Where the facts come from and how sure they are."""

    def k_limited(self, k: int, games_in_period: int) -> int:
        """``k`` under the K × n ≤ 700 rule of 8.3.3, when this edition has it.

        >>> rules = rating_rules_named("rating-2024")
        >>> rules.k_limited(40, 20), rules.k_limited(40, 17), rules.k_limited(20, 36)
        (35, 40, 19)
        >>> rating_rules_named("rating-2014").k_limited(40, 20)
        40
        """
        limit = self.k_times_games_max
        if limit is None or games_in_period <= 0 or k * games_in_period <= limit:
            return k
        return limit // games_in_period


_PRE_2011_NOTE = (
    "Rule of 350/400 points and K 25/15/10 from chesselo.com and the metacpan "
    "Games::Ratings::Chess::FIDE notes citing 'FIDE Handbook B.02.10'; the 350-point dates "
    "(1 Apr 2006 – 30 Jun 2009) from chesselo.com only [NV]. Rounding of these editions is "
    "not recorded; the 2024 rule (0.5 away from zero) is assumed."
)

_EDITIONS: tuple[RatingRules, ...] = (
    RatingRules(
        name="rating-2006",
        in_force_from=date(2006, 4, 1),
        difference_cap=DifferenceCap(350),
        k_new_player=25,
        k_below_established=15,
        k_established=10,
        junior=None,
        k_times_games_max=None,
        rounding=Rounding.HALF_AWAY_FROM_ZERO,
        cap_article="B.02 (350-point rule; article number not recorded)",
        k_article="B.02.10",
        rounding_article="not recorded",
        notes=_PRE_2011_NOTE + " Also used for any date before 1 April 2006.",
    ),
    RatingRules(
        name="rating-2009",
        in_force_from=date(2009, 7, 1),
        difference_cap=DifferenceCap(400),
        k_new_player=25,
        k_below_established=15,
        k_established=10,
        junior=None,
        k_times_games_max=None,
        rounding=Rounding.HALF_AWAY_FROM_ZERO,
        cap_article="B.02 (400-point rule; article number not recorded)",
        k_article="B.02.10",
        rounding_article="not recorded",
        notes=_PRE_2011_NOTE,
    ),
    RatingRules(
        name="rating-2011",
        in_force_from=date(2011, 7, 1),
        difference_cap=DifferenceCap(400),
        k_new_player=30,
        k_below_established=15,
        k_established=10,
        junior=None,
        k_times_games_max=None,
        rounding=Rounding.HALF_AWAY_FROM_ZERO,
        cap_article="8.54 (number as in 2014; not recorded for 2011)",
        k_article="8.56",
        rounding_article="not recorded",
        notes="K 30/15/10: samara-chess.ru quoting the pre-July-2014 8.56; chesselo.com.",
    ),
    RatingRules(
        name="rating-2014",
        in_force_from=date(2014, 7, 1),
        difference_cap=DifferenceCap(400),
        k_new_player=40,
        k_below_established=20,
        k_established=10,
        junior=JuniorRule(k=40, below=2300, until=JuniorUntil.EIGHTEENTH_BIRTHDAY),
        k_times_games_max=None,
        rounding=Rounding.HALF_AWAY_FROM_ZERO,
        cap_article="8.54",
        k_article="8.56",
        rounding_article="not recorded",
        notes=(
            "8.56 of 2014 verbatim on samara-chess.ru; the K x n <= 700 sentence is not in "
            "that extract, so this edition is taken without it [NV]."
        ),
    ),
    RatingRules(
        name="rating-2022",
        in_force_from=date(2022, 1, 1),
        difference_cap=DifferenceCap(400, once_per_tournament=True),
        k_new_player=40,
        k_below_established=20,
        k_established=10,
        junior=JuniorRule(k=40, below=2300, until=JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY),
        k_times_games_max=700,
        rounding=Rounding.HALF_AWAY_FROM_ZERO,
        cap_article="8.3.1",
        k_article="8.3.3 (number as in 2024)",
        rounding_article="8.3.4 (number as in 2024)",
        notes=(
            "8.3.1 with the one-upgrade sentence verbatim (B02-2022). When the junior "
            "'end of the year' wording and the 700 cap first appeared (2014, 2017 or 2022) "
            "is not verified; they are placed here."
        ),
    ),
    RatingRules(
        name="rating-2024",
        in_force_from=date(2024, 3, 1),
        difference_cap=DifferenceCap(400),
        k_new_player=40,
        k_below_established=20,
        k_established=10,
        junior=JuniorRule(k=40, below=2300, until=JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY),
        k_times_games_max=700,
        rounding=Rounding.HALF_AWAY_FROM_ZERO,
        cap_article="8.3.1",
        k_article="8.3.3",
        rounding_article="8.3.4",
        notes="B02-2024 verbatim; one-upgrade limit abolished (FIDE QC news, 1 March 2024).",
    ),
    RatingRules(
        name="rating-2025-10",
        in_force_from=date(2025, 10, 1),
        difference_cap=DifferenceCap(400, exempt_from=2650),
        k_new_player=40,
        k_below_established=20,
        k_established=10,
        junior=JuniorRule(k=40, below=2300, until=JuniorUntil.END_OF_YEAR_OF_EIGHTEENTH_BIRTHDAY),
        k_times_games_max=700,
        rounding=Rounding.HALF_AWAY_FROM_ZERO,
        cap_article="8.3.1 (amended 1 October 2025)",
        k_article="8.3.3",
        rounding_article="8.3.4",
        notes="B02-2024 8.3.1 as amended from 1 October 2025 (standard ratings only).",
    ),
)

RATING_EDITIONS: dict[str, RatingRules] = {rules.name: rules for rules in _EDITIONS}
"""Every edition by name, oldest first."""


class UnknownRatingEditionError(KeyError, ValueError):
    """No rating edition has the name asked for (a ``KeyError`` and a ``ValueError``)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def rating_rules_in_force(on: date) -> RatingRules:
    """The edition in force on ``on``; the oldest one (``rating-2006``) for earlier dates."""
    current = _EDITIONS[0]
    for rules in _EDITIONS:
        if rules.in_force_from <= on:
            current = rules
    return current


def rating_rules_named(name: str) -> RatingRules:
    """The edition called ``name``; :exc:`UnknownRatingEditionError` lists the names."""
    try:
        return RATING_EDITIONS[name]
    except KeyError:
        names = ", ".join(RATING_EDITIONS)
        raise UnknownRatingEditionError(
            f"unknown rating edition {name!r}; expected one of {names}"
        ) from None
