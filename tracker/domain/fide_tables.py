"""The two conversion tables of the FIDE Rating Regulations, transcribed verbatim.

* Table 8.1(a) / 8.1.1 (numbered 10.1a in the 2009 rating regulations and printed again as
  1.4.9 of the 2024 title regulations): fractional score ``p`` to rating difference ``dp``.
* Table 8.1(b) / 8.1.2: rating difference ``D`` to the expected score of the higher-rated
  player ``H`` (the lower-rated one expects ``1 - H``).

>>> dp(100), dp(67), dp(50), dp(6)
(800, 125, 0, -444)
>>> expected_score(0), expected_score(400), expected_score(-400)
(Fraction(1, 2), Fraction(23, 25), Fraction(2, 25))
>>> percentage(7, 9), percentage(1, 2), percentage(Fraction(13, 2), 9)
(78, 50, 72)
"""

from __future__ import annotations

from fractions import Fraction

# p = 1.00, .99, …, .00 (101 entries); dp(1.0) and dp(0.0) are the "notional" ±800.
_DP_DESCENDING = (
    800, 677, 589, 538, 501, 470, 444, 422, 401, 383, 366, 351, 336, 322, 309, 296, 284, 273,
    262, 251, 240, 230, 220, 211, 202, 193, 184, 175, 166, 158, 149, 141, 133, 125, 117, 110,
    102, 95, 87, 80, 72, 65, 57, 50, 43, 36, 29, 21, 14, 7, 0, -7, -14, -21, -29, -36, -43,
    -50, -57, -65, -72, -80, -87, -95, -102, -110, -117, -125, -133, -141, -149, -158, -166,
    -175, -184, -193, -202, -211, -220, -230, -240, -251, -262, -273, -284, -296, -309, -322,
    -336, -351, -366, -383, -401, -422, -444, -470, -501, -538, -589, -677, -800,
)  # fmt: skip
DP_TABLE: tuple[int, ...] = tuple(reversed(_DP_DESCENDING))
"""``DP_TABLE[percent]`` is dp for a score of ``percent`` % (0 … 100), table 8.1(a)."""

# Upper bound of each D band of table 8.1(b) and the higher-rated player's expected score
# in hundredths: D in 0-3 -> .50, 4-10 -> .51, …, 620-735 -> .99, above 735 -> 1.00.
_PD_BANDS = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58),
    (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66),
    (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73), (188, 74),
    (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81), (267, 82),
    (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89), (374, 90),
    (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98),
    (735, 99),
)  # fmt: skip
PD_BANDS: tuple[tuple[int, int], ...] = _PD_BANDS


def percentage(score: Fraction | float | int, games: int) -> int:
    """The score as a whole percentage.

    Reading [unclear 130] Percentages: rounded to the nearest whole percent, .5 up (the 2009
    text is silent and arbiters used the same; this is the note to 1.4.9 of later editions and
    the practice behind table 1.49a)."""
    if games <= 0:
        raise ValueError("percentage of zero games")
    exact = Fraction(score) * 100 / games
    return int(exact + Fraction(1, 2)) if exact >= 0 else -int(-exact + Fraction(1, 2))


def percentage_of_half_points(half_points: int, games: int) -> int:
    """:func:`percentage` for a score given in half points, in integers (the hot path).

    >>> percentage_of_half_points(13, 9), percentage(Fraction(13, 2), 9)
    (72, 72)
    """
    return (100 * half_points + games) // (2 * games)


def average_half_up(total: int, count: int) -> int:
    """``total / count`` rounded to the nearest integer, .5 up (1.47b), in integers.

    >>> average_half_up(4761, 2), average_half_up(4760, 2)
    (2381, 2380)
    """
    return (2 * total + count) // (2 * count)


def dp(percent: int) -> int:
    """Rating difference for a whole-percent score, table 8.1(a)."""
    if not 0 <= percent <= 100:
        raise ValueError(f"percentage out of range: {percent}")
    return DP_TABLE[percent]


def _band_lookup() -> tuple[int, ...]:
    table = []
    for magnitude in range(_PD_BANDS[-1][0] + 2):
        table.append(next((h for upper, h in _PD_BANDS if magnitude <= upper), 100))
    return tuple(table)


_PD_BY_DIFFERENCE = _band_lookup()
"""The H column of table 8.1(b) for every difference 0 … 736 (736 and above give 1.00)."""


def expected_hundredths(difference: int) -> int:
    """Expected score in hundredths of a player rated ``difference`` points above the
    opponent, table 8.1(b); a negative difference gives the lower-rated player's ``L`` column.
    No cap is applied here: the 350/400-point rule belongs to the rating edition.

    >>> expected_hundredths(0), expected_hundredths(-400), expected_hundredths(800)
    (50, 8, 100)
    """
    magnitude = difference if difference >= 0 else -difference
    high = _PD_BY_DIFFERENCE[magnitude] if magnitude < len(_PD_BY_DIFFERENCE) else 100
    return high if difference >= 0 else 100 - high


def expected_score(difference: int) -> Fraction:
    """:func:`expected_hundredths` as a fraction."""
    return Fraction(expected_hundredths(difference), 100)


def round_half_up(value: Fraction) -> int:
    """Round to the nearest integer, .5 upward (1.47b / 1.4.7b for the average rating)."""
    return int((value + Fraction(1, 2)).__floor__())


def round_half_away(value: Fraction) -> int:
    """Round to the nearest integer, .5 away from zero (B.02 8.3.4 for rating changes)."""
    if value >= 0:
        return round_half_up(value)
    return -round_half_up(-value)
