"""Following a broadcast's PGN (issue 14, item 2): reading the tags, finding the players in
a start list (a TRF or FIDE's rating list) by FIDE id or by name, a round robin followed by
its broadcast alone, and a broadcast beside the arbiter's file, which stays the authority."""

from __future__ import annotations

from pathlib import Path

import pytest

from follow.runner import Options
from follow.sources import UrlSource
from tests.support.follow import (
    SEEDS,
    boards,
    broadcast,
    cut,
    games,
    live,
    pgn_game,
    rating_list_txt,
    rating_list_xml,
    replay_lines,
    seed,
    serving,
    txt_line,
)
from tests.support.follow import follower as make_follower
from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.formats.pgn import Side, read_games
from tracker.formats.rating_list import RatingListError, read_rating_list
from tracker.formats.start_list import StartList, same_person
from tracker.formats.trf import format_trf, to_events

FOLLOW = SEEDS / "follow"
RR = "gm-roundrobin-2011.trf"


# ----------------------------------------------------------------------------- reading


def test_a_lichess_style_round_with_games_in_progress_and_one_cut_short() -> None:
    text = (
        '[Event "Open"]\n[Round "5.3"]\n[White "Carlsen, Magnus"]\n[Black "Caruana, Fabiano"]\n'
        '[Result "*"]\n[WhiteFideId "1503014"]\n[BlackFideId "2020009"]\n[WhiteElo "2830"]\n'
        '[WhiteTitle "GM"]\n\n1. e4 e5 2. Nf3 *\n\n'
        '[Event "Open"]\n[Round "5.4"]\n[White "Ding, Liren"]\n[Black "Nepomniachtchi, Ian"]\n'
        '[Result "½-½"]\n\n1. d4 1/2-1/2\n\n'
        '[Event "Open"]\n[Round "?"]\n[White "Giri, Anish"]\n[Black "So, Wesley"]\n'
        '[Result "1-0"]\n\n1. c4 1-0\n\n'
        '[Event "Open"]\n[Round "5.6"]\n[White "Firouzja, Alireza"]\n[Bla'
    )
    one, two, three, four = read_games(text)
    assert (one.round, one.board, one.result) == (5, 3, None)
    assert one.white == Side("Carlsen, Magnus", 1503014, 2830, "GM")
    assert (one.black.fide_id, one.black.rating) == (2020009, None)
    assert two.result == "1/2-1/2"  # written as the contract writes it
    assert (three.round, three.board, three.round_text) == (None, None, "?")
    assert (four.round, four.board, four.white.name, four.black.name) == (
        5,
        6,
        "Firouzja, Alireza",
        "",
    )
    assert four.result is None  # its Result tag never arrived: still playing


def test_the_rating_list_in_its_txt_and_xml_forms_says_the_same() -> None:
    trf = seed(RR)
    txt = read_rating_list((FOLLOW / "costa-brava-2011-players.txt").read_text("utf-8"))
    xml = read_rating_list((FOLLOW / "costa-brava-2011-players.xml").read_text("utf-8"))
    assert txt == xml
    assert [e.fide_id for e in txt] == [p.fide_id for p in trf.players]
    garrido = txt[5]
    assert (garrido.name, garrido.federation, garrido.sex, garrido.title) == (
        "Garrido Ruiz, Pablo",
        "ESP",
        "m",
        Title.IM,
    )
    assert (garrido.rating, garrido.k_factor, garrido.birth_year) == (2455, 10, 1976)
    # the committed start lists are what the helpers write from the seed
    assert (FOLLOW / "costa-brava-2011-players.txt").read_text("utf-8") == rating_list_txt(trf)
    assert (FOLLOW / "costa-brava-2011-players.xml").read_text("utf-8") == rating_list_xml(trf)
    assert (FOLLOW / "costa-brava-2011.pgn").read_text("utf-8") == broadcast(trf, 9)


def test_the_rating_list_takes_the_higher_title_and_follows_the_header_columns() -> None:
    header = (
        "ID Number      Name                                                         "
        "Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
    )
    at = {label: header.index(label) for label in ("ID Number", "Name", "Fed", "Sex", "Tit")}
    at |= {"WTit": header.index("WTit"), "OTit": header.index("OTit")}
    at |= {label: header.index(f" {label} ") + 1 for label in ("SRtng", "SGm", "SK", "B-day")}
    values = {"ID Number": "13708694", "Name": "Dzagnidze, Nana", "Fed": "GEO", "Sex": "F"}
    values |= {"Tit": "IM", "WTit": "WGM", "OTit": "FT", "SRtng": "2503", "SGm": "9"}
    values |= {"SK": "10", "B-day": "1987"}
    line = ""
    for label, value in sorted(values.items(), key=lambda kv: at[kv[0]]):
        line = line.ljust(at[label]) + value
    line = line.ljust(header.index("Flag")) + "w"
    (e,) = read_rating_list(header + "\n" + line + "\n")
    assert (e.fide_id, e.sex, e.title, e.other_titles) == (13708694, "w", Title.IM, "FT")
    assert (e.rating, e.games, e.k_factor, e.birth_year, e.flag) == (2503, 9, 10, 1987, "w")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Name Fed\n", "line 1: no header line starting with 'ID Number'"),
        (
            "ID Number      Name                Fed SEP26\n"
            "12x45          Somebody, Some      GER 2100\n",
            "line 2, column 1: FIDE id '12x45' is not a number",
        ),
        (
            "ID Number      Name                Fed SEP26\n"
            "12345          Somebody, Some      GE  2100\n",
            "line 2, column 36: federation 'GE' is not a code",
        ),
        (  # three letters, but no federation on FIDE's list
            "ID Number      Name                Fed SEP26\n"
            "12345          Somebody, Some      ZZZ 2100\n",
            "line 2, column 36: federation 'ZZZ' is not a code",
        ),
        (
            "<playerslist><player><fideid>1</fideid><name>Somebody, Some</name>"
            "<country>ZZZ</country></player></playerslist>",
            "player 1: federation 'ZZZ' is not a code",
        ),
        (
            "<playerslist><player><fideid>1</fideid></player></playerslist>",
            "player 1: name is empty",
        ),
        ("<playerslist><player>", "line 1, column 22: not well-formed XML"),
    ],
)
def test_a_broken_rating_list_names_where(text: str, message: str) -> None:
    with pytest.raises(RatingListError) as caught:
        read_rating_list(text)
    assert str(caught.value) == message


# ----------------------------------------------------------------------------- matching


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Carlsen, Magnus", "Carlsen,M", True),
        ("Carlsen, Magnus", "Magnus Carlsen", True),
        ("Carlsen, Magnus", "M. Carlsen", True),
        ("Vachier-Lagrave, Maxime", "Vachier Lagrave, M", True),
        ("Nepomniachtchi, Ian", "Nepomniachtchi,I.", True),
        ("Ding, Liren", "Ding Liren", True),
        ("Ding, Liren", "Liren, Ding", False),  # both say which is the surname
        ("Ødegaard, Øystein", "Odegaard, Oystein", True),
        ("Carlsen, Magnus", "Carlsen, Henrik", False),
        ("Carlsen, Magnus", "Carlsen,H", False),
        ("Carlsen, M", "Mads Jensen", False),
        ("Garrido Ruiz, Pablo", "Pablo Garrido", True),  # one surname dropped
    ],
)
def test_names_written_differently(a: str, b: str, same: bool) -> None:
    assert same_person(a, b) is same
    assert same_person(b, a) is same


def test_a_name_that_fits_two_entrants_is_ambiguous_never_guessed() -> None:
    start = StartList.from_rating_list(
        read_rating_list(
            (FOLLOW / "costa-brava-2011-players.txt").read_text("utf-8")
            + txt_line(
                [
                    "90000099",
                    "Fekete, Balazs",
                    "HUN",
                    "M",
                    "",
                    "",
                    "",
                    "",
                    "2300",
                    "0",
                    "15",
                    "1990",
                    "",
                ]
            )
            + "\n"
        )
    )
    assert start.find(Side("Fekete, Bence")).rank == 1  # the exact name wins
    found = start.find(Side("Fekete,B"))
    assert found.rank is None
    assert found.problem == (
        "'Fekete,B' is ambiguous: Fekete, Bence (rank 1), Fekete, Balazs (rank 11)"
    )
    # a FIDE id decides
    assert start.find(Side("Fekete,B", fide_id=90000099)).rank == 11
    assert start.find(Side("Nobody, Known")).problem == "'Nobody, Known' is not in the start list"


def test_cyrillic_names_are_told_apart() -> None:
    """Names in Cyrillic are transliterated before the ASCII fold, which alone would leave
    them no words at all (and any two of them the same person)."""
    names = ["Иванов, Иван", "Петров, Пётр"]
    start = StartList(
        tuple(
            ev.PlayerRegistered(tournament_id="t", rank=rank, name=name, federation="RUS")
            for rank, name in enumerate(names, 1)
        )
    )
    assert not same_person("Иванов, Иван", "Петров, Пётр")
    assert start.find(Side("Иванов, Иван")).rank == 1
    assert start.find(Side("Петров, Пётр")).rank == 2
    assert start.find(Side("Петров,П")).rank == 2
    assert start.find(Side("Сидоров, Сидор")).problem == (
        "'Сидоров, Сидор' is not in the start list"
    )
    assert same_person("Иванов, Иван", "Ivanov, Ivan")  # the broadcast writes it in Latin


def test_names_the_fold_cannot_read_match_nobody() -> None:
    """A name in a script neither the ASCII fold nor the transliteration reads (Armenian,
    Chinese) has no words: it is matched by FIDE id only, never taken for another such
    name."""
    names = ["Արոնյան, Լևոն", "王皓"]
    start = StartList(
        tuple(
            ev.PlayerRegistered(tournament_id="t", rank=rank, name=name, federation="ARM")
            for rank, name in enumerate(names, 1)
        )
    )
    assert not same_person("Արոնյան, Լևոն", "丁立人")
    assert start.find(Side("丁立人")).problem == "'丁立人' is not in the start list"
    assert start.find(Side("Ivanov, Ivan")).problem == "'Ivanov, Ivan' is not in the start list"


def test_a_fide_id_and_a_name_that_point_at_two_players_are_reported() -> None:
    start = StartList.from_trf(seed(RR))
    found = start.find(Side("Santoro, Matteo", fide_id=90000001))
    assert found.rank is None
    assert found.problem == (
        "'Santoro, Matteo': FIDE id 90000001 is Fekete, Bence (rank 1) but the name is "
        "Santoro, Matteo (rank 9)"
    )
    # an id the list does not know, on a player the list knows by another id
    found = start.find(Side("Santoro, Matteo", fide_id=12345))
    assert found.problem == (
        "'Santoro, Matteo' (FIDE id 12345): the start list has Santoro, Matteo with FIDE id "
        "90000009"
    )
    # a name spelt past recognition, with the right id: the id decides
    assert start.find(Side("Santorro, Mateo", fide_id=90000009)).rank == 9


# ----------------------------------------------------------------------------- alone


def _event_facts() -> ev.TournamentRegistered:
    first = to_events(seed(RR))[0]
    assert isinstance(first, ev.TournamentRegistered)
    return first


@pytest.mark.parametrize("start", ["trf", "txt", "xml"])
async def test_a_round_robin_followed_by_its_broadcast_alone(start: str) -> None:
    """Games appear with ``*`` and finish one by one; the start list is the arbiter's TRF
    (no rounds needed) or FIDE's rating list with the event facts of the command line."""
    final = seed(RR)
    if start == "trf":
        start_list = StartList.from_trf(cut(final, 0))
        event = _event_facts()
    else:
        text = rating_list_txt(final) if start == "txt" else rating_list_xml(final)
        start_list = StartList.from_rating_list(read_rating_list(text))
        # the command line gives what the broadcast and the rating list do not say (the
        # README's command: name, dates, federation, rate of play, round dates), not the
        # venue, the arbiter or the type of event
        blank = {"city": None, "chief_arbiter": None, "event_type": None}
        event = _event_facts().model_copy(update=blank)
    with serving() as server:
        run = make_follower(
            pgns=[UrlSource(server.url("/round.pgn"))],
            start_list=start_list,
            options=Options(interval=0.0, event=event),
        )
        for r in range(1, 10):
            for finished in range(len(games(final, r)) + 1):
                server.set("/round.pgn", broadcast(final, r, finished))
                await run.follower.poll()
    assert run.lines() == replay_lines(format_trf(final))
    assert not [line for line in run.said if ": sent " not in line]


async def test_an_odd_round_robin_closes_its_rounds_with_one_player_sitting_out() -> None:
    final = seed(RR)
    nine = final.__class__(
        header=final.header,
        players=tuple(
            p.__class__(p.rank, p.name, p.federation, p.sex, p.title, p.rating, p.fide_id)
            for p in final.players[:9]
        ),
    )
    start = StartList.from_trf(nine)
    event = _event_facts().model_copy(update={"planned_rounds": 9})
    # round 1 of a 9-player round robin: four boards, player 9 sits out
    pgn = "".join(
        pgn_game(final, 1, w, b, "1-0") for w, b, _ in games(final, 1) if 10 not in (w, b)
    )
    assert pgn.count("[Round ") == 4
    with serving() as server:
        server.set("/r.pgn", pgn)
        run = make_follower(
            pgns=[UrlSource(server.url("/r.pgn"))],
            start_list=start,
            options=Options(interval=0.0, event=event),
        )
        await run.follower.poll()
    assert run.follower.ledger is not None
    assert ("closed", 1) in run.follower.ledger.facts
    assert run.follower.ledger.announced == 1


# ----------------------------------------------------------------------------- beside the file


async def test_the_broadcast_brings_results_first_and_the_file_corrects_it() -> None:
    final = seed("swiss-open-9r-2012.trf")
    snapshots = live(final)
    top = games(final, 5)[:3]  # the broadcast boards of round 5
    (w1, b1, r1), (w2, b2, r2), (w3, b3, _r3) = top
    wrong = "1-0" if r1 != "1-0" else "0-1"
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")), [UrlSource(server.url("/top.pgn"))])
        paired = 1 + 3 * 4  # round 5 paired, no result yet
        for text in snapshots[: paired + 1]:
            server.set("/t.trf", text)
            await run.follower.poll()
        ledger = run.follower.ledger
        assert ledger is not None
        # the broadcast: board 1 finishes (wrongly typed in), board 2 finishes, board 3 plays
        server.set(
            "/top.pgn",
            pgn_game(final, 5, w1, b1, wrong)
            + pgn_game(final, 5, w2, b2, r2)
            + pgn_game(final, 5, w3, b3, None),
        )
        await run.follower.poll()
        ledger = run.follower.ledger
        assert ledger is not None
        assert ledger.board(5, w1, b1) == ev.GameResult(
            tournament_id="swiss-open-9r-2012", round=5, white=w1, black=b1, result=wrong
        )
        assert ledger.facts[("result", 5, *sorted((w2, b2)))].source == "pgn"
        # the arbiter's file, with every result of round 5: it corrects board 1
        for text in snapshots[paired + 1 :]:
            server.set("/t.trf", text)
            await run.follower.poll()
    assert run.lines() == replay_lines(format_trf(final))
    corrected, still = run.reports("disagreement")
    assert f"the broadcast gave round 5: {w1}-{b1} {wrong}" in corrected
    assert f"the arbiter's file says round 5: {w1}-{b1} {r1}" in corrected
    assert corrected.endswith("the arbiter's file stands (corrected)")
    # the broadcast keeps its result: it still disagrees, and is told once
    assert f"the broadcast says round 5: {w1}-{b1} {wrong}" in still
    assert still.endswith("the arbiter's file stands")


async def test_a_broadcast_that_contradicts_the_file_is_reported_and_not_sent() -> None:
    final = seed("swiss-open-9r-2012.trf")
    snapshots = live(final)
    (w1, b1, r1), (w2, b2, _) = games(final, 3)[:2]
    done = 1 + 3 * 2 + 1  # round 3 half finished: boards 1 and 2 have results
    assert (min(w1, b1), max(w1, b1)) in boards(final, 3)[:10]
    flipped = {"1-0": "0-1", "0-1": "1-0"}.get(r1 or "", "1-0")
    pgn = (
        pgn_game(final, 3, w1, b1, flipped)  # differs from the file's result
        + pgn_game(final, 3, b2, w2, "1-0")  # other colours than the file's
        + pgn_game(final, 3, w1, w2, "1-0")  # a board the file does not have
        + pgn_game(final, 4, w1, b1, "1-0")  # round 4 is not paired yet: it waits
    )
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")), [UrlSource(server.url("/p.pgn"))])
        for text in snapshots[: done + 1]:
            server.set("/t.trf", text)
            await run.follower.poll()
        facts = dict(run.follower.ledger.facts) if run.follower.ledger else {}
        server.set("/p.pgn", pgn)
        await run.follower.poll()
        assert run.follower.ledger is not None
        assert dict(run.follower.ledger.facts) == facts
    said = run.reports("disagreement")
    assert len(said) == 3
    assert any("the arbiter's file stands" in line and f"{w1}-{b1}" in line for line in said)
    assert any("(other colours); the file stands" in line for line in said)
    assert any(f"has no board {w1}-{w2}" in line for line in said)


async def test_unmatched_broadcast_players_are_reported(tmp_path: Path) -> None:
    final = seed(RR)
    (w, b, _), *_ = games(final, 1)
    text = pgn_game(final, 1, w, b, "1-0").replace(final.player(w).name, "Unknown, Somebody")
    text = text.replace(f'[WhiteFideId "{final.player(w).fide_id}"]', '[WhiteFideId "0"]')
    with serving() as server:
        server.set("/p.pgn", text)
        run = make_follower(
            pgns=[UrlSource(server.url("/p.pgn"))],
            start_list=StartList.from_trf(cut(final, 0)),
            options=Options(interval=0.0, event=_event_facts()),
        )
        await run.follower.poll()
    (line,) = run.reports("unmatched")
    assert "White: 'Unknown, Somebody' is not in the start list" in line
    assert run.follower.ledger is not None
    assert not any(k[0] in ("pairing", "result") for k in run.follower.ledger.facts)
    _ = tmp_path


async def test_a_broadcast_followed_alone_corrects_its_own_result() -> None:
    final = seed(RR)
    (w, b, result), *_ = games(final, 1)
    wrong = "1-0" if result != "1-0" else "0-1"
    with serving() as server:
        run = make_follower(
            pgns=[UrlSource(server.url("/r.pgn"))],
            start_list=StartList.from_trf(cut(final, 0)),
            options=Options(interval=0.0, event=_event_facts()),
        )
        server.set("/r.pgn", pgn_game(final, 1, w, b, wrong))
        await run.follower.poll()
        server.set("/r.pgn", pgn_game(final, 1, w, b, result))
        await run.follower.poll()
    assert run.follower.ledger is not None
    assert run.follower.ledger.board(1, w, b) == ev.GameResult(
        tournament_id="gm-roundrobin-2011", round=1, white=w, black=b, result=result
    )
    assert not run.reports("disagreement")


def test_a_broadcast_followed_alone_takes_the_venue_from_the_site_tag() -> None:
    """Issue 20: IT1's venue (TRF 022, the city) stayed blank for an event followed by its
    broadcast alone; the PGN's Site tag gives it, unless the event's facts name one."""
    from datetime import date

    from tracker.ingest.broadcast import registration

    played = read_games((FOLLOW / "costa-brava-2011.pgn").read_text(encoding="utf-8"))
    assert {g.site for g in played} == {"Palamos"}
    start = StartList.from_trf(seed(RR))
    facts = ev.TournamentRegistered(tournament_id="t", start_date=date(2011, 10, 14))
    first = registration(facts, start, played)[0]
    assert isinstance(first, ev.TournamentRegistered)
    assert first.city == "Palamos"
    named = registration(facts.model_copy(update={"city": "Girona"}), start, played)[0]
    assert isinstance(named, ev.TournamentRegistered)
    assert named.city == "Girona"
    unknown = read_games('[Site "?"]\n[Round "1.1"]\n[White "A"]\n[Black "B"]\n\n*\n')
    assert unknown[0].site is None
    bare = registration(facts, start, unknown)[0]
    assert isinstance(bare, ev.TournamentRegistered)
    assert bare.city is None
