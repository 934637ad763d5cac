"""Is it a norm event? Title norms and title-by-rating levels come only from standard games
over the board with the minimum time of the rating regulations (B.02 2024 1.1: 120 minutes
for 60 moves when a player is rated 2400 or more, 90 from 1800, 60 below) and of the title
regulations (2009 1.14, 2024 1.1.3: 120 minutes). Rapid, blitz (Laws of Chess A.1, B.1) and
online events give round summaries and live ratings only, and say why. The round dates
(TRF 132) give the flags of 2009 1.13/1.15 and 2024 1.1.3/1.1.3a."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest

from cli.main import main
from tests.support.paths import SEEDS
from tracker import contract as ev
from tracker.domain.rate_of_play import Pace, classify, minutes_for_60_moves, rating_minimum
from tracker.host.replay import Sourced, read_events, replay, with_overrides


def seed(name: str, **records: str) -> str:
    """A seed's text with header records replaced (``r122="15 min"``) or dropped (``""``)."""
    text = (SEEDS / name).read_text(encoding="utf-8")
    for code, value in records.items():
        number = code.removeprefix("r")
        line = f"{number} {value}" if value else ""
        text = re.sub(rf"(?m)^{number}( .*)?$", line, text)
        if value and not re.search(rf"(?m)^{number} ", text):
            text = f"{number} {value}\n{text}"
    return text


def alerts(text: str, edition: str | None = None) -> list[ev.OutputEvent]:
    return list(replay(with_overrides(read_events(text, "x.trf"), edition)))


def kinds(found: list[ev.OutputEvent]) -> Counter[str]:
    return Counter(a.type for a in found)


# --------------------------------------------------------------------------- reading


@pytest.mark.parametrize(
    ("written", "minutes", "pace"),
    [
        ("90 min/40 moves + 30 min + 30 sec/move", 150, Pace.STANDARD),  # FIDE's usual
        ("40/120, 60", 180, Pace.STANDARD),  # FIDE's TRF16 sample (Karl-Mala 2005)
        ("90 mins + 30sec increment", 120, Pace.STANDARD),  # Swiss Master
        ("2 Stunden 40 / Zuege, 30 min. Rest", 150, Pace.STANDARD),  # a German export
        ("G/90;+30", 120, Pace.STANDARD),
        ("5400+30", 120, Pace.STANDARD),  # TRF26 222, seconds
        ("60 min", 60, Pace.STANDARD),  # Laws A.1: 60 minutes is no longer rapid
        ("45 min + 15 sec", 60, Pace.STANDARD),
        ("15 min + 10 sec/move", 25, Pace.RAPID),  # the rapid championship of issue 11
        ("15 minutes plus 10 sec per move", 25, Pace.RAPID),  # the Friendship Cup 2024
        ("25+10", 35, Pace.RAPID),
        ("10 min + 5 sec", 15, Pace.RAPID),
        ("10 min", 10, Pace.BLITZ),  # Laws B.1: 10 minutes or less
        ("3+2", 5, Pace.BLITZ),
        ("180+2", 5, Pace.BLITZ),  # TRF26 seconds
        ("1+0", 1, Pace.BLITZ),
    ],
)
def test_time_controls_laws_a1_b1(written: str, minutes: int, pace: Pace) -> None:
    rate = classify(written)
    assert (rate.minutes, rate.pace) == (Fraction(minutes), pace)
    assert minutes_for_60_moves(written) == minutes


def test_unknown_and_words() -> None:
    assert classify(None).pace is Pace.UNKNOWN
    assert classify("moves/time, increment").pace is Pace.UNKNOWN  # JaVaFo's sample
    assert classify("", "Individual: Swiss-System (Standard)").pace is Pace.STANDARD
    assert classify("", "Rapid").pace is Pace.RAPID
    assert classify("Blitz").pace is Pace.BLITZ


def test_online_is_read_from_any_record() -> None:
    assert classify(None, None, ("https://lichess.org/swiss/FaLp5fSD",)).online
    assert classify("3+2 online").online
    assert not classify("90+30", "Individual: Swiss-System", ("Internationales Open",)).online


def test_b02_1_1_minimum_time_by_rating() -> None:
    """B.02 (2024) 1.1: 120 minutes if either player is rated 2400 or more, 90 if 1800 or
    more, 60 if both are below 1800 (60 moves)."""
    assert [rating_minimum(r) for r in (2400, 2399, 1800, 1799, None)] == [120, 90, 90, 60, 60]


# --------------------------------------------------------------------------- the gate


def test_rapid_event_gives_no_norm_b02_1_1() -> None:
    """The seed's GM norm, played at 15 min + 10 s (25 minutes for 60 moves): a rapid event
    (Laws A.1). No norm, no prospect, no title rating; the round summaries (with live
    ratings) say why."""
    standard = alerts(seed("gm-roundrobin-2011.trf"))
    rapid = alerts(seed("gm-roundrobin-2011.trf", r122="15 min + 10 sec/move"))
    assert kinds(standard)["norm_achieved"] == 1
    assert set(kinds(rapid)) == {"round_finished"}
    summaries = [a for a in rapid if isinstance(a, ev.RoundFinished)]
    assert len(summaries) == 9
    assert all(s.not_a_norm_event and "rapid event" in s.not_a_norm_event for s in summaries)
    assert "25 min for 60 moves" in (summaries[0].not_a_norm_event or "")
    before = [a for a in standard if isinstance(a, ev.RoundFinished)]
    assert [s.standings for s in summaries] == [s.standings for s in before]


def test_blitz_event_gives_no_title_rating_b02_1_1() -> None:
    """A seed whose live ratings reach a title level, played as blitz: no title alert.
    Judged under 2024, whose 1.3 counts an interim rating for CM (under 2009 the live CM
    level is only a note: 1.3 asks a published rating, issue 19)."""
    standard = alerts(seed("swiss-open-9r-2012.trf"), "fide-2024")
    assert kinds(standard)["title_rating_reached"] == 1
    blitz = alerts(seed("swiss-open-9r-2012.trf", r122="3 min + 2 sec"), "fide-2024")
    assert set(kinds(blitz)) == {"round_finished"}


def test_online_event_gives_no_norm() -> None:
    online = alerts(seed("gm-roundrobin-2011.trf", r022="https://lichess.org/swiss/x"))
    assert set(kinds(online)) == {"round_finished"}
    first = online[0]
    assert isinstance(first, ev.RoundFinished)
    assert (first.not_a_norm_event or "").startswith("an online event")


def test_too_little_time_for_a_2400_player_b02_1_1() -> None:
    """90 minutes for 60 moves: standard, but B.02 1.1 rates games with a player of 2400 or
    more only from 120 minutes; the seed's field is that strong: no norm, no title rating."""
    slow = alerts(seed("swiss-11r-secured-2013.trf", r122="90 min"))
    assert set(kinds(slow)) == {"round_finished"}
    first = slow[0]
    assert isinstance(first, ev.RoundFinished)
    assert "120 min" in (first.not_a_norm_event or "")


def small_event(time_control: str) -> list[ev.OutputEvent]:
    """Four players below 2400; the first (2295, untitled) beats the others in turn."""
    tid = "club"
    events: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid,
            start_date=date(2011, 5, 1),
            planned_rounds=3,
            time_control=time_control,
        )
    ]
    for rank, rating in enumerate((2295, 2250, 2240, 2230), 1):
        events.append(
            ev.PlayerRegistered(
                tournament_id=tid, rank=rank, name=f"P{rank}", federation="GER", rating=rating
            )
        )
    pairs = [((1, 2), (3, 4)), ((3, 1), (4, 2)), ((1, 4), (2, 3))]
    for r, boards in enumerate(pairs, 1):
        for white, black in boards:
            result = "1-0" if white == 1 else "0-1" if black == 1 else "1/2-1/2"
            events.append(
                ev.GameResult(tournament_id=tid, round=r, white=white, black=black, result=result)
            )
    return list(replay(Sourced(e, "x") for e in events))


def _fm_note(found: list[ev.OutputEvent]) -> str:
    """The note the last round summary gives player 1's standing (a live title level that
    2009 1.3 counts only on a published list)."""
    last = [a for a in found if isinstance(a, ev.RoundFinished)][-1]
    return next(s.note for s in last.standings if s.player.rank == 1)


def test_norm_needs_120_minutes_1_14_even_where_games_are_rated() -> None:
    """2009 1.14 (2024 1.1.3): a norm event gives 120 minutes. At 60 min + 30 s (90 for
    60 moves) a field below 2400 plays rated games (B.02 1.1: 90 from 1800), so the FM level
    reached live by player 1 is said (2009 1.3: as a note, a published rating being needed
    for the title), but the event gives no norm or prospect; at 60 minutes the games are not
    rated (B.02 1.1) and no title level is said either."""
    ninety = small_event("60 min + 30 sec/move")
    assert kinds(ninety) == Counter({"round_finished": 3})
    assert _fm_note(ninety).startswith("FM level 2300 reached live in round 1 (2302)")
    first = ninety[0]
    assert isinstance(first, ev.RoundFinished)
    assert "needs ≥ 120 min for 60 moves (1.14)" in (first.not_a_norm_event or "")
    sixty = small_event("60 min")
    assert kinds(sixty) == Counter({"round_finished": 3})
    assert _fm_note(sixty) == ""
    assert _fm_note(small_event("90 min + 30 sec/move")).startswith("FM level 2300")


def test_no_time_control_keeps_norms_and_says_so() -> None:
    """Without 122/222 the event is judged as a standard one (as before), and the norm's
    flags say so."""
    found = alerts(seed("gm-roundrobin-2011.trf", r122="", r092=""))
    norm = next(a for a in found if isinstance(a, ev.NormAchieved))
    assert norm.flags is not None
    assert norm.flags.rate_of_play == "unknown"
    assert "no time control in the file" in (norm.flags.rate_of_play_reason or "")
    standard = next(
        a for a in alerts(seed("gm-roundrobin-2011.trf")) if isinstance(a, ev.NormAchieved)
    )
    assert standard.flags is not None
    assert standard.flags.rate_of_play == "standard"


def test_check_breakdown_names_the_rate_of_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rapid.trf"
    path.write_text(seed("gm-roundrobin-2011.trf", r122="15 min + 10 sec/move"), encoding="utf-8")
    assert main(["check", str(path), "--player", "6", "--title", "GM"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"rate of play.*25 min for 60 moves", out)
    assert main(["replay", str(path)]) == 0
    assert "# NOT a norm event: a rapid event" in capsys.readouterr().out


# --------------------------------------------------------------------------- round dates


CROWDED_132 = " " * 87 + (
    "11/10/14  11/10/15  11/10/15  11/10/15  11/10/16  11/10/17  11/10/18  11/10/19  11/10/20"
)
"""The seed's round dates with three rounds on 15 October (issue 19)."""


def test_1_13_and_1_1_3_two_rounds_a_day_at_most() -> None:
    """The seed has one day with two rounds: within the limit (the flag says so)."""
    norm = next(a for a in alerts(seed("gm-roundrobin-2011.trf")) if isinstance(a, ev.NormAchieved))
    assert norm.flags is not None
    assert (norm.flags.rounds_per_day, norm.flags.rounds_per_day_ok) == (2, True)


@pytest.mark.parametrize(("edition", "article"), [(None, "1.13"), ("fide-2024", "1.1.3")])
def test_three_rounds_a_day_give_no_norm_and_no_title_level(
    edition: str | None, article: str
) -> None:
    """2009 1.13 / 2024 1.1.3: no more than two rounds a day. Three standard rounds on 15
    October make it no title event: no norm, no prospect, no title level; every round
    summary says why, citing the article (issue 19)."""
    found = alerts(seed("gm-roundrobin-2011.trf", r132=CROWDED_132), edition)
    assert not [a for a in found if a.type.startswith(("norm_", "title_", "ignorable"))]
    summaries = [a for a in found if isinstance(a, ev.RoundFinished)]
    assert len(summaries) == 9
    for s in summaries:
        assert s.not_a_norm_event is not None
        assert "3 rounds on 2011-10-15 (132)" in s.not_a_norm_event
        assert f"no more than 2 rounds a day ({article})" in s.not_a_norm_event


def test_rounds_a_day_from_the_start_and_end_dates_without_132() -> None:
    """Without round dates, 042/052 against the rounds: 9 rounds in 3 days put at least 3
    on one day (1.13)."""
    text = seed("gm-roundrobin-2011.trf", r132="", r042="2011/10/14", r052="2011/10/16")
    found = alerts(text)
    assert not [a for a in found if isinstance(a, ev.NormAchieved)]
    finished = next(a for a in found if isinstance(a, ev.RoundFinished))
    assert finished.not_a_norm_event is not None
    assert "9 rounds from 2011-10-14 to 2011-10-16" in finished.not_a_norm_event
    assert "(1.13)" in finished.not_a_norm_event


def test_twelve_hours_a_day_at_most(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """2009 1.12: at most 12 hours of play a day, assuming 60 moves. 150 min/40 + 60 min/20
    gives each player 210 minutes for 60 moves: two rounds on a day are 14 hours (the seed
    plays rounds 5 and 6 on one day). ``check`` shows the failed requirement with the
    article."""
    text = seed("gm-roundrobin-2011.trf", r122="150 min/40 moves + 60 min/20 moves + 30 min")
    # (the rate of play is read as 210 minutes for 60 moves)
    found = alerts(text)
    assert not [a for a in found if isinstance(a, ev.NormAchieved)]
    finished = next(a for a in found if isinstance(a, ev.RoundFinished))
    assert finished.not_a_norm_event is not None
    assert "no more than 12 hours of play a day (1.12, 60 moves: 14 h)" in finished.not_a_norm_event
    path = tmp_path / "slow.trf"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path), "--player", "6", "--title", "GM"]) == 0
    out = capsys.readouterr().out
    assert "GM norm for IM Garrido Ruiz, Pablo (ESP): not achieved" in out
    assert re.search(r"NO\s+1\.12\s+schedule.*≤ 12 h a day.*2 rounds on 2011-10-18", out), out


def test_a_one_day_event_without_a_time_control_is_not_standard(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A one-day event of 9 rounds with no time-control record (the French rapid
    championship 2023): a field rated 2400 or more needs 120 min each for 60 moves to be
    rated standard (B.02 1.1), so 9 rounds take 36 hours: it is no standard event, and it
    gives no norm and no title level; the certificate is refused with the reason."""
    text = seed("swiss-open-9r-2012.trf", r122="", r132="", r052="2012/07/14")
    found = alerts(text)
    assert kinds(found).keys() == {"round_finished"}
    reason = found[0].not_a_norm_event  # type: ignore[union-attr]
    assert reason is not None
    assert "9 rounds from 2012-07-14 to 2012-07-14" in reason
    assert "takes at least 240 min (both clocks, 120 min each for 60 moves, B.02 1.1)" in reason
    path = tmp_path / "one-day.trf"
    path.write_text(text, encoding="utf-8")
    assert main(["certificate", str(path), "--player", "6", "--title", "GM"]) == 2
    assert "B.02 1.1 schedule" in capsys.readouterr().err


def test_1_1_3a_one_round_a_day_for_gm_norms_2024() -> None:
    """2024 1.1.3a: a GM norm from an event with at least three days of a single round;
    only under 2024, only for GM and WGM norms."""
    norm = next(
        a
        for a in alerts(seed("gm-roundrobin-2011.trf"), "fide-2024")
        if isinstance(a, ev.NormAchieved)
    )
    assert norm.flags is not None
    assert norm.flags.one_round_a_day_3_days is True
    doubled = (
        "11/10/14  11/10/14  11/10/15  11/10/15  11/10/16  11/10/16  11/10/17  11/10/17  11/10/18"
    )
    text = seed("gm-roundrobin-2011.trf", r132=" " * 87 + doubled)
    norm = next(a for a in alerts(text, "fide-2024") if isinstance(a, ev.NormAchieved))
    assert norm.flags is not None
    assert norm.flags.one_round_a_day_3_days is False
    assert norm.flags.rounds_per_day == 2
    norm_2009 = next(a for a in alerts(text) if isinstance(a, ev.NormAchieved))
    assert norm_2009.flags is not None
    assert norm_2009.flags.one_round_a_day_3_days is None


def test_1_15_events_longer_than_90_days_2009() -> None:
    found = alerts(seed("gm-roundrobin-2011.trf", r052="2012/02/01"))
    norm = next(a for a in found if isinstance(a, ev.NormAchieved))
    assert norm.flags is not None
    assert norm.flags.longer_than_90_days is True
    norm_2024 = next(
        a
        for a in alerts(seed("gm-roundrobin-2011.trf"), "fide-2024")
        if isinstance(a, ev.NormAchieved)
    )
    assert norm_2024.flags is not None
    assert norm_2024.flags.longer_than_90_days is None
