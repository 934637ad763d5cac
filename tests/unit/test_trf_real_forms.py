"""What arbiters' programs really write, read as they mean it (tracker.formats.trf,
tracker.formats.dates, tracker.formats.decoding, tracker.formats.transliterate); and the precise
error where a line is broken."""

from __future__ import annotations

from datetime import date

import pytest

from tracker.contract import PlayerRegistered, TournamentRegistered
from tracker.domain.results import Code
from tracker.formats.dates import parse_date
from tracker.formats.decoding import decode
from tracker.formats.trf import Cell, TrfError, parse_trf, to_events
from tracker.host.replay import read_bytes

from .test_trf import ROUND_ROBIN_4, player, put, trf_text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2005/07/28", date(2005, 7, 28)),
        ("2005.07.28", date(2005, 7, 28)),
        ("2005-07-28", date(2005, 7, 28)),
        ("28.07.2005", date(2005, 7, 28)),
        ("28. 07. 2005", date(2005, 7, 28)),  # Swiss-Manager (FIDE's TRF16 sample)
        ("24/09/2010", date(2010, 9, 24)),  # JaVaFo's sample
        ("09/24/2010", date(2010, 9, 24)),  # month first: the second number is no month
        ("May 29, 2020", date(2020, 5, 29)),  # lichess
        ("29 May 2020", date(2020, 5, 29)),
        ("29. Mai 2020", date(2020, 5, 29)),
        ("1er juillet 2023", date(2023, 7, 1)),
        ("3 de febrero de 2024", date(2024, 2, 3)),
        ("Okt 4, 2019", date(2019, 10, 4)),
        ("déc. 7 2019", date(2019, 12, 7)),
        ("11/03/05", date(2011, 3, 5)),  # the 132 form YY/MM/DD
        ("28.02.30", date(2030, 2, 28)),  # DD.MM.YY when YY/MM/DD cannot be
    ],
)
def test_date_forms(text: str, expected: date) -> None:
    assert parse_date(text) == expected


@pytest.mark.parametrize("text", ["14th May", "2011/02/30", "Smarch 3, 2020", "12/13/14/15"])
def test_not_dates(text: str) -> None:
    with pytest.raises(ValueError, match="not a date"):
        parse_date(text)


def test_start_dates_of_real_exports_are_read() -> None:
    for written, expected in (
        ("042 28. 07. 2005", date(2005, 7, 28)),
        ("042 May 29, 2020", date(2020, 5, 29)),
        ("042 24/09/2010", date(2010, 9, 24)),
    ):
        trf = parse_trf(trf_text(*ROUND_ROBIN_4, header=("012 Test", written)))
        assert trf.header.start_date == expected


def test_round_dates_with_two_digit_years_in_either_order() -> None:
    """Record 132: YY/MM/DD as TRF16 asks, or DD.MM.YY; one order for the line, the one
    that fits the start date."""
    for cells, start, expected in (
        # icu_tournament's Krause sample
        ("08.06.07  08.06.08  08.06.09", "042 2008.06.07", (7, 8, 9)),
        ("07.06.08  08.06.08  09.06.08", "042 2008.06.07", (7, 8, 9)),
    ):
        record = put("132", 92, cells)
        trf = parse_trf(trf_text(*ROUND_ROBIN_4, header=("012 Test", start, record)))
        assert trf.header.round_dates == tuple(date(2008, 6, d) for d in expected)
    record = put("132", 92, "24/11/23  24/11/23  24/11/24")  # Swiss-Manager
    trf = parse_trf(trf_text(*ROUND_ROBIN_4, header=("012 Test", "042 2024/11/23", record)))
    assert trf.header.round_dates == (date(2024, 11, 23), date(2024, 11, 23), date(2024, 11, 24))


def test_annotated_counts() -> None:
    """``062 129 (88)``: Swiss-Manager adds, in brackets, the players who took part."""
    trf = parse_trf(trf_text(*ROUND_ROBIN_4, header=("012 T", "042 2024/11/23", "062 129 (88)")))
    assert trf.header.player_count == 129
    with pytest.raises(TrfError, match=r"line 3, column 5: number of players 'many' is not"):
        parse_trf(trf_text(header=("012 T", "042 2024/11/23", "062 many (88)")))


def test_sex_f_is_a_woman() -> None:
    trf = parse_trf(trf_text(player("1", "Ash, Ana", sex="f"), "XXR 1"))
    assert trf.player(1).sex == "w"
    registered = [e for e in to_events(trf) if isinstance(e, PlayerRegistered)]
    assert registered[0].sex == "w"


def test_rating_and_fide_id_zero_or_blank_or_dashes() -> None:
    trf = parse_trf(
        trf_text(
            player("1", "Ash, Ana", rating="0000", fide_id="0"),
            player("2", "Birch, Bo", rating="", fide_id="-----------"),
            "XXR 1",
        )
    )
    assert [(p.rating, p.fide_id) for p in trf.players] == [(None, None), (None, None)]


def test_birth_dates_as_exporters_write_them() -> None:
    trf = parse_trf(
        trf_text(
            player("1", "Ash, Ana", birth="    /  /"),  # Swiss Master
            player("2", "Birch, Bo", birth="2014/00/00"),  # Swiss-Manager: a year
            player("3", "Cedar, Cy", birth="12.04.1987"),
            player("4", "Dogwood, Di", birth="0000/00/00"),
            "XXR 1",
        )
    )
    assert [(p.birth_date, p.birth_year) for p in trf.players] == [
        (None, None),
        (None, 2014),
        (date(1987, 4, 12), 1987),
        (None, None),
    ]


def test_half_point_bye_written_as_a_draw_without_opponent() -> None:
    """Swiss Master writes a half-point bye as ``0000 - =``; ``0000 - 1`` stays an error."""
    trf = parse_trf(trf_text(player("1", "Ash, Ana", [("0000", "-", "=")]), "XXR 1"))
    assert trf.player(1).cells == (Cell(None, "-", Code.HALF_BYE),)


def test_column_rulers_and_team_records_are_kept_and_ignored() -> None:
    ruler = "DDD SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB"
    lines = (
        "         1         2         3",
        "1234567890123456789012345678901234567890",
        ruler,
        "013 ΣΑΧ                                1    2    3    4",
        "310   1 Team 1                                   2285   14.0   13.5   1     1    2",
        "XXC white1",
        *ROUND_ROBIN_4,
    )
    trf = parse_trf(trf_text(*lines))
    assert [r.code for r in trf.records] == ["   ", "123", "DDD", "013", "310", "XXC"]
    assert len(trf.players) == 4


def test_greek_and_cyrillic_names_give_readable_stable_unique_ids() -> None:
    greek = "ΔΙΑΣΥΛΛΟΓΙΚΟ ΚΥΠΕΛΛΟ ΚΡΗΤΙΚΗΣ ΦΙΛΙΑΣ 2024"
    ids = {
        name: parse_trf(trf_text(*ROUND_ROBIN_4, header=(f"012 {name}", "042 2024/11/23")))
        for name in (greek, "Кубок Москвы 2024", "Кубок Киева 2024", "北京公开赛")
    }
    assert ids[greek].tournament_id == "diasyllogiko-kypello-kritikis-filias-2024"
    assert ids["Кубок Москвы 2024"].tournament_id == "kubok-moskvy-2024"
    assert ids["北京公开赛"].tournament_id.startswith("t-")
    assert len({t.tournament_id for t in ids.values()}) == 4
    again = parse_trf(trf_text(*ROUND_ROBIN_4, header=("012 北京公开赛", "042 2024/11/23")))
    assert again.tournament_id == ids["北京公开赛"].tournament_id


# --------------------------------------------------------------------------- encodings


CZECH_POLISH = "012 Memoriál Dvořáka\n022 Třinec\n" + "\n".join(
    [
        player("1", "Dvořák, Tomáš", [("2", "w", "1")], fed="CZE", rating="2310"),
        player("2", "Kowalski, Łukasz", [("1", "b", "0")], fed="POL", rating="2290"),
    ]
)
WESTERN = "012 Open de Sète\n022 Sète\n" + "\n".join(
    [
        player("1", "Núñez, José", [("2", "w", "1")], fed="ESP", rating="2310"),
        player("2", "Lefèvre, Hélène", [("1", "b", "0")], fed="FRA", rating="2290", sex="w"),
    ]
)


@pytest.mark.parametrize(
    ("text", "encoding", "detected"),
    [
        (CZECH_POLISH, "cp1250", "cp1250"),
        (CZECH_POLISH, "utf-8", "utf-8"),
        (CZECH_POLISH, "utf-8-sig", "utf-8-sig"),
        (WESTERN, "cp1252", "latin-1"),  # no byte 0x80-0x9F: Latin-1 and 1252 read alike
        (WESTERN + "\n### Œuvre", "cp1252", "cp1252"),
        (WESTERN, "latin-1", "latin-1"),
        (WESTERN, "utf-8", "utf-8"),
    ],
)
def test_encodings_are_detected(text: str, encoding: str, detected: str) -> None:
    decoded = decode(text.encode(encoding))
    assert (decoded.text, decoded.encoding) == (text, detected)


def test_names_survive_the_files_code_page() -> None:
    for text, encoding in ((CZECH_POLISH, "cp1250"), (WESTERN, "cp1252")):
        events = read_bytes(
            (text + "\n042 2011/03/05\nXXR 1\n").replace("\n", "\r\n").encode(encoding), "x.trf"
        )
        names = [s.event.name for s in events if isinstance(s.event, PlayerRegistered)]
        assert names == [line[14:47].strip() for line in text.splitlines()[2:]]
        tournament = events[0].event
        assert isinstance(tournament, TournamentRegistered)


def test_hungarian_words_that_only_fit_1250() -> None:
    decoded = decode("Kőrösi, Győző; Szűcs, Ödön".encode("cp1250"))
    assert decoded.encoding == "cp1250"


def test_a_broken_line_keeps_its_precise_error() -> None:
    text = trf_text(player("1", "Ash, Anton", rating="ab12"), header=("012 T", "042 2024/11/23"))
    with pytest.raises(TrfError, match=r"^line 3, column 49: rating 'ab12' is not a number$"):
        parse_trf(text)
    with pytest.raises(Exception, match=r"x\.trf: line 3, column 49: rating 'ab12'"):
        read_bytes(text.encode("cp1250"), "x.trf")
