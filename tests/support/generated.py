"""Hypothesis strategies of whole tournaments: round robins with titled, rated players
and random results, for the properties that must hold in every event."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.support.builders import START
from tracker import contract as ev
from tracker.domain.tournaments import System


@st.composite
def tournaments(draw: st.DrawFn, edition: str) -> list[ev.InputEvent]:
    """An event of 10 to 12 players over 9 rounds or all of a round robin's (a round robin,
    or a Swiss paired like one, with a pairing-allocated bye when the number is odd): men and
    women, with open and women's titles, FID and unrated players, ratings around the norm
    levels, and one to three players who score well."""
    n = draw(st.integers(10, 12))
    whole = n - 1 if n % 2 == 0 else n  # the rounds of a round robin
    rounds = draw(st.sampled_from([9, whole]))
    system = draw(st.sampled_from(["swiss", "round_robin"])) if rounds == whole else "swiss"
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=TID,
            start_date=START[edition],
            system=System(system),
            host_federation="GER",
            planned_rounds=rounds,
            edition=edition,
        )
    ]
    for rank in range(1, n + 1):
        sex = draw(st.sampled_from(["m", "w", "w", None]))
        titles = OPEN_TITLES + (WOMENS_TITLES if sex == "w" else [])
        out.append(
            ev.PlayerRegistered(
                tournament_id=TID,
                rank=rank,
                name=f"Player {rank}",
                federation=draw(st.sampled_from(["GER", "GER", "FRA", "ESP", "NED", "FID"])),
                fide_id=90_000_000 + rank,
                sex=sex,
                title=draw(st.sampled_from(titles)),
                rating=None if draw(st.integers(0, 9)) == 0 else draw(st.integers(2150, 2650)),
            )
        )
    heroes = draw(st.sets(st.integers(1, n), min_size=1, max_size=3))
    order = draw(st.permutations(list(range(1, n + 1))))
    slots = [*order, None] if n % 2 else list(order)  # circle method; None: the bye
    for number in range(1, rounds + 1):
        ring = [slots[0], *_rotated(slots[1:], number - 1)]
        half = len(ring) // 2
        for a, b in zip(ring[:half], reversed(ring[half:]), strict=True):
            if a is None or b is None:
                out.append(ev.Bye(tournament_id=TID, round=number, player=a or b, kind="U"))
                continue
            white, black = (a, b) if number % 2 else (b, a)
            result = draw(st.sampled_from(RESULTS))
            if (white in heroes) is not (black in heroes):
                won = draw(st.sampled_from(STRONG))
                hero_white = white in heroes
                result = {
                    "W": "1-0" if hero_white else "0-1",
                    "L": "0-1" if hero_white else "1-0",
                    "D": "1/2-1/2",
                }[won]
            out.append(
                ev.GameResult(
                    tournament_id=TID, round=number, white=white, black=black, result=result
                )
            )
    return out


TID = "gen"


OPEN_TITLES = [None, None, "GM", "GM", "IM", "IM", "FM", "CM"]


WOMENS_TITLES = ["WGM", "WIM", "WFM", "WCM"]


RESULTS = ["1-0", "0-1", "1/2-1/2", "1-0", "1/2-1/2", "0-1", "+-"]


STRONG = ["W", "W", "W", "D", "D", "L"]
"""A hero's result, so that norms happen: win, draw or loss from the hero's side."""


def _rotated(items: list[int | None], k: int) -> list[int | None]:
    k %= len(items)
    return items[-k:] + items[:-k] if k else list(items)
