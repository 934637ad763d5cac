"""Every article named in 2024 output is a 2024 article (issue 12, item 8).

The 2024 text numbers its articles 1.4.1a, 1.4.6b, 1.7 …; the 2009 text 1.41a, 1.46c, 1.49.
Every alert of the seed tournaments replayed under ``fide-2024``, of the tournaments of the
other article tests and of generated ones, and the text of ``tracker check``, the
certificates (JSON and HTML) and the player cards are scanned for a 2009-style number
(``1.4`` followed by a digit, or 1.22, 1.5x without the extra dot). A bye is left out under
1.4.2c (a point not decided over the board); a Swiss prospect assumes the 1.4.6b floor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings

from tests.support import generated
from tests.support.builders import replayed
from tests.support.paths import SEEDS
from tests.support.scenarios import events as category_events
from tests.support.scenarios import fid_swiss
from tracker import contract as ev
from tracker.engine.state import TournamentState
from tracker.engine.watch import watch_after
from tracker.host.replay import Replay, read_events, with_overrides
from tracker.render.certificate import certificate
from tracker.render.certificate_html import render as html
from tracker.render.report import check_lines, check_table, story
from tracker.render.views import player_card, standings

OLD_STYLE = re.compile(r"(?<![\d.])1\.(?:4\d|5\d|22)[a-g]?\d?(?![\d.])")
"""A 2009-style article number: 1.41a … 1.49, 1.50 … 1.54, 1.22, 1.46c1."""


BYE = re.compile(r'(\d[\d.]*[a-g]?)(?:: |","reason":"|</td><td>)bye: not a game')
"""The article a bye is left out under, in text, JSON and HTML."""


def old_style(text: str) -> list[str]:
    return OLD_STYLE.findall(text)


def test_the_pattern_finds_2009_numbers_only() -> None:
    assert old_style("1.41a 1.46c1 1.49, (1.42e/f) 1.53 1.22") == [
        "1.41a",
        "1.46c1",
        "1.49",
        "1.42e",
        "1.53",
        "1.22",
    ]
    assert old_style("1.4.1a 1.4.6b 1.7 1.5.6 1.1.4 1.3 0.6.2 2651.49 GM = 1.5 IM") == []


def everything_said(state: TournamentState, alerts: Iterable[ev.OutputEvent]) -> Iterable[str]:
    """The alerts' JSON and the story, then check's text for every player after every round,
    the player cards, the standings, and the certificate of every norm in force."""
    alerts = list(alerts)
    yield from (a.model_dump_json() for a in alerts)
    yield from story(alerts)
    for up_to in range(1, state.announced + 1):
        watch = watch_after(state, up_to)  # once a round, as check_table has it
        yield from check_table(state, up_to, watch)
        for rank in state.players:
            yield from check_lines(state, rank, None, up_to, watch)[0]
    for rank in state.players:
        yield player_card(state, rank).model_dump_json()
    yield standings(state).model_dump_json()
    for a in alerts:
        if isinstance(a, ev.NormAchieved) and f"norm:{a.player.rank}:{a.title}" in state.sent:
            cert = certificate(state, a.player.rank)
            yield cert.model_dump_json()
            yield re.sub(r"<style>.*?</style>", "", html(cert), flags=re.S)


def seed_under(name: str, edition: str) -> tuple[TournamentState, list[ev.OutputEvent]]:
    path = SEEDS / name
    run = Replay()
    alerts: list[ev.OutputEvent] = []
    for item in with_overrides(read_events(path.read_text(encoding="utf-8"), name), edition):
        alerts += run.feed(item)
    return next(iter(run.states.values())), alerts


@pytest.mark.parametrize("name", sorted(p.name for p in SEEDS.glob("*.trf")))
def test_2024_output_of_the_seeds_names_2024_articles_only(name: str) -> None:
    state, alerts = seed_under(name, "fide-2024")
    assert state.title_rules.name == "fide-2024"
    found = {hit for text in everything_said(state, alerts) for hit in old_style(text)}
    assert found == set(), name


def test_2024_output_of_other_tournaments_names_2024_articles_only() -> None:
    for items in (fid_swiss(None), category_events("fide-2024", "w", "FM")):
        state, alerts = replayed(items)
        assert state.title_rules.name == "fide-2024"
        found = {hit for text in everything_said(state, alerts) for hit in old_style(text)}
        assert found == set()


def test_2024_output_of_generated_tournaments_names_2024_articles_only() -> None:
    """Generated events with pairing-allocated byes, forfeits, FID and unrated players."""
    byes = []

    @settings(
        max_examples=15,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(items=generated.tournaments("fide-2024"))
    def run(items: list[ev.InputEvent]) -> None:
        state, alerts = replayed(items)
        texts = list(everything_said(state, alerts))
        assert [hit for text in texts for hit in old_style(text)] == []
        byes.extend(hit for text in texts for hit in BYE.findall(text))

    run()
    assert byes, "no bye was ever named"
    assert set(byes) == {"1.4.2c"}


@pytest.mark.parametrize(("edition", "article"), [("fide-2024", "1.4.2c"), ("fide-2009", "1.42c")])
def test_a_bye_is_left_out_under_1_4_2c_and_1_42c(edition: str, article: str) -> None:
    """A bye is a point "not decided over the board" (1.4.2c; 2009: 1.42c), not a matter
    of 1.4.1a's number of games."""
    state, _ = seed_under("swiss-open-9r-2012.trf", edition)
    with_bye = sorted(
        rank
        for rank, cells in state.all_cells(state.announced).items()
        if any(c.opponent is None for c in cells)
    )
    assert with_bye, "the seed has byes"
    lines, _ = check_lines(state, with_bye[0], None, state.announced)
    assert {hit for line in lines for hit in BYE.findall(line)} == {article}


def test_the_2024_swiss_prospect_assumes_the_1_4_6b_floor() -> None:
    _, alerts = seed_under("swiss-11r-secured-2013.trf", "fide-2024")
    assumptions = {
        a.prospect.assumption
        for a in alerts
        if isinstance(a, ev.NormProspect) and a.prospect is not None and a.prospect.assumption
    }
    assert assumptions == {
        "remaining opponents at best the highest-rated players not yet met over the board, "
        "each counted at least at the 1.4.6b floor"
    }
