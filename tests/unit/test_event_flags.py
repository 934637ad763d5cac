"""The Swiss exemption round by round (1.43e of 2009, 1.4.3d of 2024) as
:func:`swiss_exemption_by_round` works it out, each player judged once and added to the tally
of each round they count in, against the plain reading of the articles: for each round, the
list of players who count there (2009: paired at least once so far; 2024: there, and missing
at most one round, pairing-allocated byes excepted), then at least 20 rated players not from
the host federation, from at least 3 federations, 10 of them GM, IM, WGM or WIM."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.builders import FIDE_2009, FIDE_2024
from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import System, Tournament
from tracker.engine.event_flags import presence, swiss_exemption_by_round
from tracker.norms.search import Cell
from tracker.rules import TitleRules

SWISS = Tournament("t", date(2025, 7, 1), 5, system=System.SWISS, host_federation="GER")
TITLES = [None, Title.GM, Title.IM, Title.WGM, Title.WIM, Title.FM, Title.CM, None]
FEDERATIONS = [None, "GER", "FID", "FRA", "ESP", "NED", "FRA", "ESP", "FRA", "ESP", "NED"]
RATINGS = [None, 2300, 2500, 2300, 2500, 2300, 2500]
CODES = [Code.WIN, Code.DRAW, Code.LOSS, Code.FORFEIT_LOSS, Code.FORFEIT_WIN]
BYES = [Code.PAIRING_BYE, Code.HALF_BYE, Code.ZERO_BYE]


def plain(
    players: dict[int, Player],
    cells: dict[int, list[Cell]],
    up_to: int,
    rules: TitleRules,
    last_only: bool,
    optimistic: bool,
) -> tuple[bool, ...]:
    """Each round's list of players who count, judged as the articles say."""
    missed = rules.swiss_exemption_max_missed
    if rules.swiss_exemption_per_round and missed is not None:
        present = presence(cells)
        steady = [
            (players[rank], rounds)
            for rank, rounds in present.items()
            if rank in players and up_to - len(rounds) <= missed
        ]
        lists = [[p for p, rounds in steady if r in rounds] for r in range(1, up_to + 1)]
    else:
        first = {
            rank: min((c.round for c in mine if c.opponent is not None), default=None)
            for rank, mine in cells.items()
        }
        wanted = range(up_to if last_only else 1, up_to + 1)
        lists = [[players[k] for k, f in first.items() if f is not None and f <= r] for r in wanted]
    out = []
    for there in lists:
        foreign = [
            p
            for p in there
            if p.rating is not None
            and (rules.is_foreign(p.federation, "GER") if p.federation is not None else optimistic)
        ]
        titled = sum(1 for p in foreign if p.title in (Title.GM, Title.IM, Title.WGM, Title.WIM))
        feds = {p.federation_key for p in foreign}
        needed_players, needed_feds, needed_titled = rules.swiss_exemption
        out.append(
            len(foreign) >= needed_players and len(feds) >= needed_feds and titled >= needed_titled
        )
    return tuple(out)


@st.composite
def fields(draw: st.DrawFn) -> tuple[dict[int, Player], dict[int, list[Cell]], int]:
    """A field around the exemption's thresholds (20 players, 3 federations, 10 titled),
    with absences, requested and pairing-allocated byes and forfeits."""
    count = draw(st.integers(20, 40))
    players = {
        rank: Player(
            rank=rank,
            name=f"P{rank}",
            federation=draw(st.sampled_from(FEDERATIONS)),
            title=draw(st.sampled_from(TITLES)),
            rating=draw(st.sampled_from(RATINGS)),
        )
        for rank in range(1, count + 1)
    }
    up_to = draw(st.integers(1, 5))
    cells: dict[int, list[Cell]] = {}
    for rank in players:
        mine = []
        for r in range(1, up_to + 1):
            kind = draw(st.integers(0, 19))
            if kind == 0:
                continue  # absent
            if kind == 1:
                mine.append(Cell(r, None, draw(st.sampled_from(BYES))))
            else:
                opponent = rank % count + 1
                mine.append(
                    Cell(r, opponent, CODES[0] if kind > 5 else draw(st.sampled_from(CODES)))
                )
        cells[rank] = mine
    return players, cells, up_to


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    field=fields(),
    rules=st.sampled_from([FIDE_2009, FIDE_2024]),
    last_only=st.booleans(),
    optimistic=st.booleans(),
)
def test_the_tallies_give_what_each_rounds_list_gives(
    field: tuple[dict[int, Player], dict[int, list[Cell]], int],
    rules: TitleRules,
    last_only: bool,
    optimistic: bool,
) -> None:
    players, cells, up_to = field
    found = swiss_exemption_by_round(
        SWISS, players, cells, up_to, rules, last_only=last_only, optimistic=optimistic
    )
    assert found == plain(players, cells, up_to, rules, last_only, optimistic)


def test_twenty_titled_foreigners_hold_it_from_three_federations_not_from_two() -> None:
    """The fields above are drawn around the thresholds, so that both answers come up (about
    half the rounds of each edition hold the exemption); the thresholds themselves:"""
    feds = ["FRA", "ESP", "NED"]
    cells = {r: [Cell(1, r % 20 + 1, Code.DRAW)] for r in range(1, 21)}
    for count, answer in ((3, True), (2, False)):
        players = {
            r: Player(rank=r, name=f"P{r}", federation=feds[r % count], title=Title.GM, rating=2500)
            for r in cells
        }
        for rules in (FIDE_2009, FIDE_2024):
            assert swiss_exemption_by_round(SWISS, players, cells, 1, rules) == (answer,)
