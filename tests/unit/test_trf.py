"""Tests of tracker.formats.trf: reading TRF16/TRF26 files and turning them into input events."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.paths import DATA, ROOT
from tracker.contract import (
    Bye,
    GameResult,
    Pairing,
    PlayerRegistered,
    RoundClosed,
    TournamentRegistered,
    parse_input,
)
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System
from tracker.formats.trf import (
    Cell,
    TrfError,
    TrfFile,
    TrfHeader,
    TrfPlayer,
    TrfRecord,
    format_player_line,
    format_trf,
    parse_trf,
    to_events,
)

T = TypeVar("T")
SEEDS = ROOT / "seeds"
FIXTURE = DATA / "weinberg_memorial_2010.trf"


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


# --------------------------------------------------------------------------- helpers


def put(line: str, column: int, text: str) -> str:
    """Write ``text`` at a 1-based column, padding with blanks."""
    line = line.ljust(column - 1 + len(text))
    return line[: column - 1] + text + line[column - 1 + len(text) :]


def player(
    rank: str,
    name: str,
    cells: Sequence[tuple[str, str, str] | None] = (),
    *,
    sex: str = "m",
    title: str = "",
    rating: str = "2400",
    fed: str = "GER",
    fide_id: str = "",
    birth: str = "",
    points: str = "",
    place: str = "",
) -> str:
    """A ``001`` line built column by column, independently of tracker.formats.trf's writer."""
    line = "001"
    line = put(line, 5, f"{rank:>4}")
    line = put(line, 10, sex)
    line = put(line, 11, f"{title:>3}")
    line = put(line, 15, name)
    line = put(line, 49, f"{rating:>4}")
    line = put(line, 54, fed)
    line = put(line, 58, f"{fide_id:>11}")
    line = put(line, 70, birth)
    line = put(line, 81, f"{points:>4}")
    line = put(line, 86, f"{place:>4}")
    for i, cell in enumerate(cells):
        if cell is None:
            continue
        opponent, colour, result = cell
        line = put(line, 92 + 10 * i, f"{opponent:>4}")
        line = put(line, 97 + 10 * i, colour)
        line = put(line, 99 + 10 * i, result)
    return line.rstrip()


def trf_text(*lines: str, header: tuple[str, ...] = ("012 Test Open", "042 2011/03/05")) -> str:
    return "\n".join((*header, *lines)) + "\n"


ROUND_ROBIN_4 = (
    player("1", "Ash, Anton", [("4", "w", "1"), ("3", "b", "="), ("2", "w", "0")]),
    player("2", "Birch, Bela", [("3", "w", "1"), ("4", "b", "1"), ("1", "b", "1")]),
    player("3", "Cedar, Carl", [("2", "b", "0"), ("1", "w", "="), ("4", "w", "=")]),
    player("4", "Dogwood, Dan", [("1", "b", "0"), ("2", "w", "0"), ("3", "b", "=")]),
)


# --------------------------------------------------------------------------- the fixture


@pytest.fixture(scope="module")
def weinberg() -> TrfFile:
    return parse_trf(read(FIXTURE))


def test_fixture_header(weinberg: TrfFile) -> None:
    h = weinberg.header
    assert h.name == "Weinberg Memorial 2010"
    assert h.city == "Wetzlar"
    assert h.federation == "GER"
    assert h.start_date == date(2010, 5, 14)
    assert h.end_date == date(2010, 5, 16)
    assert (h.player_count, h.rated_count, h.team_count) == (7, 6, None)
    assert h.tournament_type == "Individual: Swiss-System"
    assert h.chief_arbiter == "IA Hollmann, Dieter"
    assert h.deputy_arbiters == ("FA Kranz, Ute", "Lenz, Bernd")
    assert h.time_control == "90 min/40 moves + 30 min"
    assert h.round_dates == (
        date(2010, 5, 14),
        date(2010, 5, 14),
        date(2010, 5, 15),
        date(2010, 5, 15),
        date(2010, 5, 16),
    )
    assert weinberg.records == (TrfRecord(code="XXC", text="XXC white1"),)
    assert weinberg.rounds == 5
    assert weinberg.planned_rounds == 5
    assert weinberg.system is System.SWISS
    assert weinberg.host_federation == "GER"
    assert weinberg.tournament_id == "weinberg-memorial-2010"


def test_fixture_players(weinberg: TrfFile) -> None:
    assert [p.rank for p in weinberg.players] == [1, 2, 3, 4, 5, 6, 7]
    adler = weinberg.player(1)
    assert adler.name == "Adler, Konrad"
    assert adler.sex == "m"
    assert adler.title is Title.GM  # old rating-list letter 'g'
    assert adler.rating == 2531
    assert adler.federation == "GER"
    assert adler.fide_id == 90000901
    assert adler.birth_date == date(1977, 3, 12)  # YYYY.MM.DD
    assert adler.points == Fraction(9, 2)
    assert adler.final_rank == 1
    assert adler.cells[0] == Cell(opponent=5, colour="w", code=Code.WIN)
    assert weinberg.player(2).title is Title.IM
    czerny = weinberg.player(3)
    assert (czerny.sex, czerny.title) == ("w", Title.WGM)
    assert (czerny.birth_date, czerny.birth_year) == (None, 1990)
    assert czerny.cell(4) is None  # blank cell
    assert weinberg.player(4).title is Title.FM
    assert weinberg.player(4).birth_year is None
    assert weinberg.player(4).cell(1) == Cell(opponent=None, colour="-", code=Code.PAIRING_BYE)
    assert weinberg.player(5).cell(2) == Cell(None, "-", Code.HALF_BYE)  # lower-case 'h'
    fink = weinberg.player(6)
    assert fink.rating is None  # blank rating: unrated
    assert fink.cell(2) == Cell(opponent=7, colour="-", code=Code.FORFEIT_WIN)
    assert fink.cell(5) == Cell(None, "-", Code.ZERO_BYE)  # lower-case 'z'
    graf = weinberg.player(7)
    assert (graf.fide_id, graf.birth_date, graf.title) == (None, None, None)


def test_fixture_points_match_cells(weinberg: TrfFile) -> None:
    for p in weinberg.players:
        assert p.points == p.score, p.rank


def test_line_endings_are_equivalent() -> None:
    crlf = read(FIXTURE)
    assert "\r\n" in crlf
    lf = crlf.replace("\r\n", "\n")
    cr = crlf.replace("\r\n", "\r")
    assert "\n" not in cr
    assert parse_trf(cr) == parse_trf(lf) == parse_trf(crlf)


def test_line_numbers_with_cr_only_line_ends() -> None:
    text = trf_text(player("1", "Ash, Anton", rating="12x4")).replace("\n", "\r")
    with pytest.raises(TrfError, match=r"^line 3, column 49: rating '12x4' is not a number$"):
        parse_trf(text)


def test_comments_blank_lines_and_unknown_records() -> None:
    text = trf_text(
        "### a comment",
        "",
        "013 Team One                           1    2",
        "ABC anything at all",
    )
    trf = parse_trf(text)
    assert [r.code for r in trf.records] == ["013", "ABC"]
    assert trf.players == ()


# --------------------------------------------------------------------------- events


def test_to_events_of_fixture(weinberg: TrfFile) -> None:
    events = to_events(weinberg)
    first = events[0]
    assert isinstance(first, TournamentRegistered)
    assert first.tournament_id == "weinberg-memorial-2010"
    assert first.start_date == date(2010, 5, 14)
    assert first.end_date == date(2010, 5, 16)
    assert first.system is System.SWISS
    assert first.planned_rounds == 5
    assert first.host_federation == "GER"
    registered = [e for e in events if isinstance(e, PlayerRegistered)]
    assert [e.rank for e in registered] == [1, 2, 3, 4, 5, 6, 7]
    assert events[1 : 1 + len(registered)] == registered
    assert registered[0].title == "GM"
    assert registered[0].birth_date == date(1977, 3, 12)
    assert registered[2].sex == "w"
    assert registered[5].rating is None
    assert registered[6].fide_id is None

    by_round: dict[int, list[Pairing | Bye | GameResult | RoundClosed]] = {}
    for e in events[1 + len(registered) :]:
        assert isinstance(e, Pairing | Bye | GameResult | RoundClosed)
        by_round.setdefault(e.round, []).append(e)
    assert sorted(by_round) == [1, 2, 3, 4, 5]
    order: dict[type, int] = {Pairing: 0, Bye: 1, GameResult: 2, RoundClosed: 3}
    for r, round_events in by_round.items():
        kinds = [order[type(e)] for e in round_events]
        assert kinds == sorted(kinds), r
        assert isinstance(round_events[-1], RoundClosed)
        assert sum(isinstance(e, RoundClosed) for e in round_events) == 1
        pairings = [(e.white, e.black) for e in round_events if isinstance(e, Pairing)]
        results = [(e.white, e.black) for e in round_events if isinstance(e, GameResult)]
        assert pairings == results  # one per board, each board finished
        seated = [x for pair in pairings for x in pair]
        seated += [e.player for e in round_events if isinstance(e, Bye)]
        assert sorted(seated) == [1, 2, 3, 4, 5, 6, 7]  # everybody exactly once

    def of(r: int, kind: type[T]) -> list[T]:
        return [e for e in by_round[r] if isinstance(e, kind)]

    assert [(e.white, e.black) for e in of(1, Pairing)] == [(1, 5), (6, 2), (3, 7)]
    assert [(e.player, e.kind) for e in of(1, Bye)] == [(4, "U")]
    assert [e.result for e in of(1, GameResult)] == ["1-0", "0-1", "1/2-1/2"]
    # forfeit with unknown colours: the lower start rank is White, and it is a game
    assert of(2, GameResult)[2] == GameResult(
        tournament_id="weinberg-memorial-2010", round=2, white=6, black=7, result="+-"
    )
    assert [(e.player, e.kind) for e in of(2, Bye)] == [(5, "H")]
    assert [(e.player, e.kind) for e in of(3, Bye)] == [(6, "U")]
    assert [(e.player, e.kind) for e in of(4, Bye)] == [(3, "Z")]  # blank cell
    assert [(e.player, e.kind) for e in of(5, Bye)] == [(6, "Z")]


def test_events_survive_json_round_trip(weinberg: TrfFile) -> None:
    for event in to_events(weinberg):
        assert parse_input(event.model_dump_json()) == event


def test_tournament_id_argument_overrides() -> None:
    events = to_events(parse_trf(trf_text(*ROUND_ROBIN_4)), tournament_id="x-1")
    assert {e.tournament_id for e in events} == {"x-1"}


def test_forfeits_and_special_results() -> None:
    text = trf_text(
        player("1", "Ash, Anton", [("2", "w", "+"), ("3", "b", "W"), ("4", "w", "0")]),
        player("2", "Birch, Bela", [("1", "b", "-"), ("4", "w", "-"), ("3", "b", "D")]),
        player("3", "Cedar, Carl", [("4", "w", "L"), ("1", "w", "L"), ("2", "w", "D")]),
        player("4", "Dogwood, Dan", [("3", "b", "W"), ("2", "b", "-"), ("1", "b", "0")]),
    )
    results = [
        (e.round, e.white, e.black, e.result)
        for e in to_events(parse_trf(text))
        if isinstance(e, GameResult)
    ]
    assert results == [
        (1, 1, 2, "+-"),
        (1, 3, 4, "L-W"),
        (2, 3, 1, "L-W"),
        (2, 2, 4, "--"),
        (3, 1, 4, "0-0"),
        (3, 3, 2, "D-D"),
    ]


def test_forfeit_without_opponent_becomes_bye() -> None:
    text = trf_text(
        player("1", "Ash, Anton", [("0000", "-", "+")]),
        player("2", "Birch, Bela", [("0000", "-", "-")]),
        player("3", "Cedar, Carl", [("    ", " ", "F")]),
    )
    byes = [(e.player, e.kind) for e in to_events(parse_trf(text)) if isinstance(e, Bye)]
    assert byes == [(1, "F"), (2, "Z"), (3, "F")]


def test_future_rounds_are_not_emitted() -> None:
    text = trf_text(*(line[:101] for line in ROUND_ROBIN_4), "XXR 3")
    trf = parse_trf(text)
    assert trf.rounds == 1
    events = to_events(trf)
    assert isinstance(events[0], TournamentRegistered)
    assert events[0].planned_rounds == 3
    assert {e.round for e in events if isinstance(e, RoundClosed)} == {1}


def test_round_with_unfinished_games() -> None:
    text = trf_text(
        player("1", "Ash, Anton", [("2", "w", "1"), ("3", "w", " ")]),
        player("2", "Birch, Bela", [("1", "b", "0"), ("4", "b", "1")]),
        player("3", "Cedar, Carl", [("4", "b", "="), ("1", "b", " ")]),
        player("4", "Dogwood, Dan", [("3", "w", "="), ("2", "w", "0")]),
        "XXR 3",
    )
    trf = parse_trf(text)
    assert trf.player(1).cell(2) == Cell(opponent=3, colour="w", code=None)
    round_2 = [e for e in to_events(trf) if getattr(e, "round", None) == 2]
    assert [type(e) for e in round_2] == [Pairing, Pairing, GameResult]
    assert round_2[2] == GameResult(
        tournament_id="test-open", round=2, white=4, black=2, result="0-1"
    )

    # a bye entered ahead for round 3 while round 2 is still being played: in progress
    later = text.replace("XXR 3", "") + player("5", "Elm, Eva", [None, None, ("0000", "-", "H")])
    events = to_events(parse_trf(later))
    assert not any(isinstance(e, RoundClosed) and e.round > 1 for e in events)
    assert [e for e in events if getattr(e, "round", None) == 3] == [
        Bye(tournament_id="test-open", round=3, player=5, kind="H")
    ]


def test_a_swiss_round_with_results_after_a_round_without_them_is_an_error() -> None:
    text = trf_text(
        player("1", "Ash, Anton", [("2", "w", "1"), ("3", "w", " "), ("4", "b", "1")]),
        player("2", "Birch, Bela", [("1", "b", "0"), ("4", "b", "1"), ("3", "w", "0")]),
        player("3", "Cedar, Carl", [("4", "b", "="), ("1", "b", " "), ("2", "b", "1")]),
        player("4", "Dogwood, Dan", [("3", "w", "="), ("2", "w", "0"), ("1", "w", "0")]),
        "XXR 3",
        "XNS swiss",
    )
    with pytest.raises(TrfError, match="round 2: board 1-3 has no result, but round 3 has"):
        to_events(parse_trf(text))


def test_colours_decide_white() -> None:
    text = trf_text(
        player("1", "Ash, Anton", [("2", "b", "1")]),
        player("2", "Birch, Bela", [("1", "w", "0")]),
    )
    pairing = next(e for e in to_events(parse_trf(text)) if isinstance(e, Pairing))
    assert (pairing.white, pairing.black) == (2, 1)
    result = next(e for e in to_events(parse_trf(text)) if isinstance(e, GameResult))
    assert result.result == "0-1"


# --------------------------------------------------------------------------- systems


def test_round_robin_is_inferred() -> None:
    assert parse_trf(trf_text(*ROUND_ROBIN_4)).system is System.ROUND_ROBIN


def test_double_round_robin_is_inferred() -> None:
    lines = (
        player("1", "Ash, Anton", [("4", "w", "1"), ("3", "b", "="), ("2", "w", "0"),
                                   ("4", "b", "="), ("3", "w", "="), ("2", "b", "0")]),
        player("2", "Birch, Bela", [("3", "w", "1"), ("4", "b", "1"), ("1", "b", "1"),
                                    ("3", "b", "1"), ("4", "w", "="), ("1", "w", "1")]),
        player("3", "Cedar, Carl", [("2", "b", "0"), ("1", "w", "="), ("4", "w", "="),
                                    ("2", "w", "0"), ("1", "b", "="), ("4", "b", "1")]),
        player("4", "Dogwood, Dan", [("1", "b", "0"), ("2", "w", "0"), ("3", "b", "="),
                                     ("1", "w", "="), ("2", "b", "="), ("3", "w", "0")]),
    )  # fmt: skip
    assert parse_trf(trf_text(*lines)).system is System.DOUBLE_ROUND_ROBIN


def test_incomplete_round_robin_is_unknown_unless_declared() -> None:
    """A round robin exported mid-event, with no word for its system and no number of
    rounds: the file cannot tell it from a Swiss (issue 19)."""
    partial = [line[: 91 + 20] for line in ROUND_ROBIN_4]
    reading = parse_trf(trf_text(*partial)).system_reading
    assert reading.system is System.UNKNOWN
    assert "no record names the system" in reading.evidence
    declared = parse_trf(trf_text(*partial, "XNS round_robin"))
    assert declared.system is System.ROUND_ROBIN
    assert declared.header.system is System.ROUND_ROBIN


# --------------------------------------------------------------------------- TRF26 and extensions


TRF26_HEADER = (
    "012 Spring Cup 2013",
    "022 Brno",
    "032 CZE",
    "042 2013/04/02",
    "052 2013/04/06",
    "062 4",
    "072 4",
    "082 0",
    "092 Individual: Round robin",
    "102 IA Novak, Jan",
    "112 FA Mala, Eva",
    "122 90'/40 + 30' + 30\"",
    "142 5",
    "152 W",
    "162 W    1.0    D    0.5",
    "172 FIDE",
    "182 Example Pairing Program 1.0",
    "192 FIDE_ROUND_ROBIN",
    "202 DE BH SB",
    "212 PTS DE BH SB",
    "222 40/5400+30:1800+30",
)


def test_trf26_header_records() -> None:
    trf = parse_trf(trf_text(*ROUND_ROBIN_4, header=TRF26_HEADER))
    h = trf.header
    assert h.start_date == date(2013, 4, 2)
    assert h.end_date == date(2013, 4, 6)
    assert (h.player_count, h.rated_count, h.team_count) == (4, 4, 0)
    assert h.rounds == 5
    assert h.initial_colour == "W"
    assert h.scoring == "W    1.0    D    0.5"
    assert h.starting_rank_method == "FIDE"
    assert h.pairing_controller == "Example Pairing Program 1.0"
    assert h.encoded_type == "FIDE_ROUND_ROBIN"
    assert h.tiebreaks == "DE BH SB"
    assert h.standings_tiebreaks == "PTS DE BH SB"
    assert h.encoded_time_control == "40/5400+30:1800+30"
    assert h.time_control == "90'/40 + 30' + 30\""
    assert trf.planned_rounds == 5  # 142 when there is no XXR
    assert trf.records == ()
    event = to_events(trf)[0]
    assert isinstance(event, TournamentRegistered)
    assert event.planned_rounds == 5
    assert event.tournament_id == "spring-cup-2013"
    assert event.host_federation == "CZE"


def test_extension_records() -> None:
    header = (
        "012 Zonal 2.1 Something",
        "032 ENG",
        "042 2012/08/01",
        "142 5",
        "XXR 7",
        "XNS swiss",
        "XNK zonal qc_approved_exemption",
        "XNH sco",
        "XNI zonal-2012",
    )
    trf = parse_trf(trf_text(*ROUND_ROBIN_4, header=header))
    assert trf.header.planned_rounds == 7
    assert trf.planned_rounds == 7  # XXR wins over 142
    assert trf.system is System.SWISS  # declared, although everybody met everybody
    assert trf.header.kinds == (EventKind.ZONAL, EventKind.QC_APPROVED_EXEMPTION)
    assert trf.host_federation == "SCO"
    event = to_events(trf)[0]
    assert isinstance(event, TournamentRegistered)
    assert event.tournament_id == "zonal-2012"
    assert event.kinds == (EventKind.ZONAL, EventKind.QC_APPROVED_EXEMPTION)
    assert event.system is System.SWISS
    assert event.host_federation == "SCO"
    assert event.planned_rounds == 7


def test_start_date_falls_back_to_round_dates() -> None:
    header = ("012 No Start", put("132", 92, "11/06/02  11/06/03  11/06/04"))
    event = to_events(parse_trf(trf_text(*ROUND_ROBIN_4, header=header)))[0]
    assert isinstance(event, TournamentRegistered)
    assert event.start_date == date(2011, 6, 2)


def test_missing_start_date_is_an_error() -> None:
    trf = parse_trf(trf_text(*ROUND_ROBIN_4, header=("012 No Dates",)))
    with pytest.raises(TrfError, match="no start date: neither record 042 nor record 132"):
        to_events(trf)


def test_missing_name_and_id_is_an_error() -> None:
    trf = parse_trf(trf_text(*ROUND_ROBIN_4, header=("042 2011/03/05",)))
    with pytest.raises(TrfError, match="neither record XNI nor record 012"):
        to_events(trf)


def test_blank_federation_is_an_unknown_federation() -> None:
    trf = parse_trf(trf_text(player("1", "Ash, Anton", fed=""), "XXR 1"))
    assert trf.player(1).federation == ""
    registered = [e for e in to_events(trf) if isinstance(e, PlayerRegistered)]
    assert [e.federation for e in registered] == [None]
    assert '"federation":null' in registered[0].model_dump_json()


def test_fewer_planned_rounds_than_columns_is_an_error() -> None:
    trf = parse_trf(trf_text(*ROUND_ROBIN_4, "XXR 2"))
    with pytest.raises(TrfError, match="3 round columns but plans 2 rounds"):
        to_events(trf)


# --------------------------------------------------------------------------- errors


def error_of(*lines: str, header: tuple[str, ...] = ("012 Test Open", "042 2011/03/05")) -> str:
    with pytest.raises(TrfError) as info:
        parse_trf(trf_text(*lines, header=header))
    return str(info.value)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            player("1", "Ash, Anton", rating="ab12"),
            "line 3, column 49: rating 'ab12' is not a number",
        ),
        (player("x", "Ash, Anton"), "line 3, column 5: start rank 'x' is not a number"),
        (player("", "Ash, Anton"), "line 3, column 5: start rank is missing"),
        (player("0", "Ash, Anton"), "line 3, column 5: start rank 0 is out of range (1-9999)"),
        (player("1", "Ash, Anton", sex="x"), "line 3, column 10: sex 'x' is not m, w or f"),
        (player("1", "Ash, Anton", title="XM"), "line 3, column 11: title 'XM' is not known"),
        (player("1", ""), "line 3, column 15: name is empty"),
        (
            player("1", "Ash, Anton", fed="G3R"),
            "line 3, column 54: federation 'G3R' is not a 3-letter code",
        ),
        (
            player("1", "Ash, Anton", fide_id="12a"),
            "line 3, column 58: FIDE id '12a' is not a number",
        ),
        (
            player("1", "Ash, Anton", birth="1990/13/45"),
            "line 3, column 70: birth date '1990/13/45' is not a date",
        ),
        (
            player("1", "Ash, Anton", points="x.5"),
            "line 3, column 81: points 'x.5' is not a number",
        ),
        (
            put(player("1", "Ash, Anton"), 86, "  x1"),
            "line 3, column 86: rank 'x1' is not a number",
        ),
        (
            player("1", "Ash, Anton", [("0000", "-", "H"), ("0000", "-", "Q")]),
            "line 3, column 109: round 2: result code 'Q' is not known",
        ),
        (
            player("1", "Ash, Anton", [("0000", "x", "H")]),
            "line 3, column 97: round 1: colour 'x' is not w, b or -",
        ),
        (
            player("1", "Ash, Anton", [("0000", "w", "H")]),
            "line 3, column 97: round 1: colour 'w' without an opponent",
        ),
        (
            player("1", "Ash, Anton", [("00a1", "w", "1")]),
            "line 3, column 92: round 1: opponent '00a1' is not a number",
        ),
        (
            player("1", "Ash, Anton", [("0000", "-", "1")]),
            "line 3, column 99: round 1: result '1' needs an opponent",
        ),
        (
            put(player("1", "Ash, Anton", [("0000", "-", "H")]), 100, "x"),
            "line 3, column 100: round 1: unexpected 'x' (misaligned cell?)",
        ),
        (
            player("1", "Ash, Anton", [("1", "w", "1")]),
            "line 3, column 92: round 1: player 1 is paired with itself",
        ),
        (
            player("1", "Ash, Anton", [("7", "w", "1")]),
            "line 3, column 92: round 1: opponent 7 is not a player",
        ),
    ],
)
def test_malformed_player_lines(line: str, message: str) -> None:
    assert error_of(line) == message


def test_bye_code_with_an_opponent() -> None:
    message = error_of(
        player("1", "Ash, Anton", [("2", "w", "H")]),
        player("2", "Birch, Bela", [("1", "b", "H")]),
    )
    assert message == "line 3, column 99: round 1: bye code 'H' with opponent 2"


def test_opponent_cell_names_someone_else() -> None:
    message = error_of(
        player("1", "Ash, Anton", [("0000", "-", "H"), ("2", "w", "1")]),
        player("2", "Birch, Bela", [("0000", "-", "H"), ("3", "b", "0")]),
        player("3", "Cedar, Carl", [("0000", "-", "H"), ("2", "w", "1")]),
    )
    assert message == (
        "line 3, column 102: round 2: player 1 met 2, but the cell of 2 (line 4) names 3"
    )


def test_opponent_cell_is_blank() -> None:
    message = error_of(
        player("1", "Ash, Anton", [("2", "w", "1")]),
        player("2", "Birch, Bela"),
    )
    assert (
        message == "line 3, column 92: round 1: player 1 met 2, but the cell of 2 (line 4) is blank"
    )


def test_results_are_not_opposites() -> None:
    message = error_of(
        player("1", "Ash, Anton", [("2", "w", "1")]),
        player("2", "Birch, Bela", [("1", "b", "=")]),
    )
    assert message == (
        "line 3, column 99: round 1: result codes '1' of 1 and '=' of 2 (line 4) are not opposites"
    )


def test_two_wins_are_not_opposites() -> None:
    message = error_of(
        player("1", "Ash, Anton", [("2", "w", "+")]),
        player("2", "Birch, Bela", [("1", "b", "+")]),
    )
    assert "are not opposites" in message


def test_pending_against_finished_is_an_error() -> None:
    message = error_of(
        player("1", "Ash, Anton", [("2", "w", " ")]),
        player("2", "Birch, Bela", [("1", "b", "0")]),
    )
    assert message == (
        "line 3, column 99: round 1: result codes ' ' of 1 and '0' of 2 (line 4) are not opposites"
    )


def test_same_colour_for_both() -> None:
    message = error_of(
        player("1", "Ash, Anton", [("2", "w", "1")]),
        player("2", "Birch, Bela", [("1", "w", "0")]),
    )
    assert message == "line 3, column 97: round 1: players 1 and 2 both have colour 'w' (line 4)"


def test_duplicate_start_rank() -> None:
    message = error_of(player("1", "Ash, Anton"), player("1", "Birch, Bela"))
    assert message == "line 4, column 5: start rank 1 is used twice (also line 3)"


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("042 14th May", "line 1, column 5: start date '14th May' is not a date"),
        ("052 2011/02/30", "line 1, column 5: end date '2011/02/30' is not a date"),
        ("062 seven", "line 1, column 5: number of players 'seven' is not a number"),
        ("142 x", "line 1, column 5: number of rounds 'x' is not a number"),
        ("XXR 0", "line 1, column 5: number of rounds 0 is out of range (1-99)"),
        ("152 R", "line 1, column 5: initial colour 'R' is not W or B"),
        (
            "XNS knockout",
            "line 1, column 5: system 'knockout' is not one of swiss, round_robin,"
            " double_round_robin, unknown",
        ),
        ("XNK zonal simul", "line 1, column 11: event kind 'simul' is not known"),
        ("XNH England", "line 1, column 5: host federation 'England' is not a 3-letter code"),
        ("XNI", "line 1, column 5: tournament id is empty"),
        (
            put("132", 92, "11/06/02  11-6-x"),
            "line 1, column 102: round 2 date '11-6-x' is not a date",
        ),
    ],
)
def test_malformed_header_records(record: str, message: str) -> None:
    assert error_of(header=(record,)) == message


# --------------------------------------------------------------------------- writing


def test_format_round_trip_of_fixture(weinberg: TrfFile) -> None:
    text = format_trf(weinberg)
    assert parse_trf(text) == weinberg
    assert parse_trf(format_trf(weinberg, newline="\r")) == weinberg


def test_format_player_line_columns() -> None:
    cells = (Cell(4, "b", Code.DRAW), None, Cell(None, "-", Code.HALF_BYE))
    line = format_player_line(
        TrfPlayer(
            rank=12,
            name="Ash, Anton",
            federation="NOR",
            sex="m",
            title=Title.FM,
            rating=2301,
            fide_id=90000012,
            birth_date=date(1990, 2, 3),
            birth_year=1990,
            points=Fraction(7, 2),
            final_rank=3,
            cells=cells,
        )
    )
    assert line == player(
        "12",
        "Ash, Anton",
        [("4", "b", "="), None, ("0000", "-", "H")],
        title="FM",
        rating="2301",
        fed="NOR",
        fide_id="90000012",
        birth="1990/02/03",
        points="3.5",
        place="3",
    )


_names = st.from_regex(r"[A-Z][a-z]{1,12}, [A-Z][a-z]{1,12}", fullmatch=True)
_bye_cells = st.one_of(
    st.none(),
    st.sampled_from(
        [Code.HALF_BYE, Code.FULL_BYE, Code.PAIRING_BYE, Code.ZERO_BYE, Code.FORFEIT_LOSS]
    ).map(lambda code: Cell(opponent=None, colour="-", code=code)),
)


@st.composite
def _players(draw: st.DrawFn) -> TrfPlayer:
    birth = draw(st.none() | st.dates(date(1930, 1, 1), date(2015, 12, 31)))
    year_only = draw(st.none() | st.integers(1930, 2015))
    cells = tuple(draw(st.lists(_bye_cells, max_size=12)))
    while cells and cells[-1] is None:
        cells = cells[:-1]
    return TrfPlayer(
        rank=draw(st.integers(1, 9999)),
        name=draw(_names),
        federation=draw(st.sampled_from(["GER", "ESP", "FID", "USA", ""])),
        sex=draw(st.sampled_from(["m", "w", None])),
        title=draw(st.none() | st.sampled_from(list(Title))),
        rating=draw(st.none() | st.integers(1000, 2900)),
        fide_id=draw(st.none() | st.integers(1, 99_999_999_999)),
        birth_date=birth,
        birth_year=birth.year if birth else year_only,
        points=draw(st.none() | st.integers(0, 999).map(lambda n: Fraction(n, 10))),
        final_rank=draw(st.none() | st.integers(1, 9999)),
        cells=cells,
    )


@given(_players())
def test_player_line_round_trip(p: TrfPlayer) -> None:
    trf = TrfFile(header=TrfHeader(), players=(p,))
    assert parse_trf(format_trf(trf)) == trf


def test_header_round_trip() -> None:
    trf = parse_trf(trf_text(*ROUND_ROBIN_4, header=TRF26_HEADER))
    assert parse_trf(format_trf(trf)) == trf


# --------------------------------------------------------------------------- seeds


SEED_FILES = sorted(SEEDS.glob("*.trf"))


def test_there_are_seeds() -> None:
    names = {p.name for p in SEED_FILES}
    assert {
        "gm-roundrobin-2011.trf",
        "swiss-open-9r-2012.trf",
        "swiss-11r-secured-2013.trf",
        "forfeits-2012.trf",
        "dropped-win-2012.trf",
        "federation-fail-2011.trf",
    } <= names


@pytest.mark.parametrize("path", SEED_FILES, ids=lambda p: p.name)
def test_seed_parses_and_converts(path: Path) -> None:
    trf = parse_trf(read(path))
    assert trf.header.tournament_id == path.stem
    assert trf.header.start_date is not None
    assert date(2010, 1, 1) <= trf.header.start_date <= date(2013, 12, 31)
    assert trf.header.planned_rounds == trf.rounds
    assert trf.played_rounds == tuple(range(1, trf.rounds + 1))
    for p in trf.players:
        assert p.points == p.score, p.rank
        assert p.fide_id is not None
        assert p.fide_id > 90_000_000
        assert len(p.federation) == 3
    events = to_events(trf)
    assert sum(isinstance(e, RoundClosed) for e in events) == trf.rounds
    assert parse_trf(format_trf(trf)) == trf


def test_seed_fide_ids_are_unique() -> None:
    ids = [p.fide_id for path in SEED_FILES for p in parse_trf(read(path)).players]
    assert len(ids) == len(set(ids))


def test_seed_jsonl_matches_trf() -> None:
    trf = parse_trf(read(SEEDS / "gm-roundrobin-2011.trf"))
    lines = read(SEEDS / "gm-roundrobin-2011.jsonl").splitlines()
    recorded = [parse_input(line) for line in lines]
    expected = to_events(trf)
    assert [e.model_dump() for e in recorded] == [e.model_dump() for e in expected]
    assert [json.loads(line) for line in lines] == [
        json.loads(e.model_dump_json()) for e in expected
    ]
