"""The Annex tables of the 2024 Title Regulations (1.7: "Tables in the Annex show the range
for tournaments up to 19 rounds") regenerated from the ``fide-2024`` edition's own numbers
(1.4.6–1.4.9) and compared cell by cell with the table text of the reference (§3.9), for 9
to 19 rounds; and the summary of the number of opponents (§3.10) from the edition's mix
(1.4.4, 1.4.5) and 1.7's 13 games.
"""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction

import pytest

from tests.support.builders import player
from tests.support.paths import DATA
from tracker.domain.titles import NORM_TITLES, Title
from tracker.domain.tournaments import Tournament
from tracker.norms.tables import score_table
from tracker.rules import title_rules_named
from tracker.rules.mix import WeightedMO

ANNEX = DATA / "b01-2024-annex.md"
RULES = title_rules_named("fide-2024")

Cell = tuple[int, int | None]


def _score(token: str) -> Fraction:
    return Fraction(int(token.rstrip("½") or 0)) + (Fraction(1, 2) if "½" in token else 0)


def _cell(token: str) -> Cell:
    if token.startswith("≥"):
        return int(token[1:].strip()), None
    low, high = token.split("–")
    return int(low), int(high)


def parse_tables() -> dict[int, dict[Fraction, list[Cell]]]:
    tables: dict[int, dict[Fraction, list[Cell]]] = {}
    current: dict[Fraction, list[Cell]] = {}
    for line in ANNEX.read_text(encoding="utf-8").splitlines():
        header = re.match(r"^#### (\d+) rounds", line)
        if header:
            current = tables.setdefault(int(header.group(1)), {})
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"\d+½?", cells[0].replace(" ¹", "")):
            current[_score(cells[0].replace(" ¹", ""))] = [_cell(c) for c in cells[1:]]
    return tables


def parse_summary() -> dict[int, tuple[int, ...]]:
    """Rounds -> (title-holders, MO, max own federation, max one federation)."""
    rows = {}
    for line in ANNEX.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0].isdigit():
            rows[int(cells[0])] = tuple(int(c) for c in cells[1:5])
    return rows


TABLES = parse_tables()
SUMMARY = parse_summary()


def test_the_reference_has_every_table() -> None:
    assert sorted(TABLES) == list(range(9, 20))
    assert sum(len(rows) for rows in TABLES.values()) == 142
    assert sorted(SUMMARY) == list(range(7, 20))


@pytest.mark.parametrize("rounds", range(9, 20))
def test_score_table_regenerated_cell_by_cell(rounds: int) -> None:
    """Every row of the table, and no other, for each norm title."""
    printed = TABLES[rounds]
    for column, title in enumerate(NORM_TITLES):
        generated = {row.score: (row.low, row.high) for row in score_table(RULES, title, rounds)}
        assert set(generated) == set(printed), (rounds, title.value)
        for score, cells in printed.items():
            assert generated[score] == cells[column], (rounds, title.value, str(score))


@pytest.mark.parametrize("rounds", range(9, 20))
def test_number_of_opponents_from_the_mix(rounds: int) -> None:
    """1.4.5a ⌈n/2⌉ title-holders; 1.4.5b–e max(3, ⌈n/3⌉); 1.4.4 ⌊3n/5⌋ and ⌊2n/3⌋; no
    maximum of unrated opponents in 2024."""
    t = Tournament(id="t", start_date=date(2024, 5, 1), planned_rounds=rounds)
    holders, mo, own, one = SUMMARY[rounds]
    for title in NORM_TITLES:
        rule = RULES.mix(title, rounds, t, player(1), None)
        assert isinstance(rule.mo, WeightedMO)
        assert (rule.min_title_holders, rule.mo.needed) == (holders, mo)
        assert (rule.max_own_federation, rule.max_one_federation) == (own, one)
        assert rule.max_unrated is None


@pytest.mark.parametrize("rounds", range(9, 20))
def test_more_than_13_rounds_count_as_13_games(rounds: int) -> None:
    """1.7: the tables of 14 to 19 rounds count as 13 games."""
    t = Tournament(id="t", start_date=date(2024, 5, 1), planned_rounds=rounds)
    assert RULES.credited_games(rounds, 0, t) == min(rounds, 13)


def test_gm_column_of_nine_rounds() -> None:
    """A spot check of the parse: 9 rounds, 6½ points needs Ra 2434–2474 for a GM norm."""
    assert TABLES[9][Fraction(13, 2)][0] == (2434, 2474)
    assert score_table(RULES, Title.GM, 9)[0].score == 7
