"""B.01 2024, a title application based on norms (reference §3.8, §3.3, §3.5, §3.2): each
condition with its article, judged by :func:`tracker.titles.judgement.judge` under
``fide-2024``'s application rules."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from tests.support.builders import FIDE_2024
from tests.support.titles import CANDIDATE, PLAYER, norm, rating
from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.titles.judgement import judge

LEVEL = rating(2510)


def application(
    norms: Sequence[ev.TitleNorm],
    ratings: Sequence[ev.TitleRating] = (LEVEL,),
    title: Title = Title.GM,
) -> ev.TitleApplication:
    return judge(CANDIDATE, PLAYER, norms, ratings, title, FIDE_2024)


def requirement(app: ev.TitleApplication, article: str) -> ev.Requirement:
    (found,) = [r for r in app.requirements if r.article == article]
    return found


def test_1_5_1_norms_cover_27_games() -> None:
    """1.5.1: norms covering at least 27 games; two of 9 leave 9 to make."""
    app = application([norm("a"), norm("b")])
    assert not app.complete
    assert app.missing == ("9 more games of norms (18 of 27: 1.5.1)",)
    games = next(r for r in app.requirements if r.name == "games of norms")
    assert (games.article, games.needed, games.actual, games.met) == ("1.5.1", "≥ 27", "18", False)
    done = application([norm("a"), norm("b"), norm("c")])
    assert done.complete
    assert done.games_credited == 27


def test_1_4_1d_whole_points_above_the_norm_count_as_games() -> None:
    """1.4.1d: each whole point above the norm's requirement counts as a game: two norms of
    9 and 11 games, the second 7 points over (credited 18), make 27 with the first; without
    those points they are 20."""
    over = [norm("a"), norm("b", games=11, credited=18)]
    assert application(over).complete
    plain = application([norm("a"), norm("b", games=11)])
    assert plain.missing == ("7 more games of norms (20 of 27: 1.5.1)",)


def test_1_5_1_two_or_more_norms() -> None:
    """The 27 games come from two norms or more: a single norm never makes an application
    (under 2024 none counts for more than 13 games anyway)."""
    app = application([norm("a", games=13, credited=27)])
    assert "1 more norm (1.5.1: 2 or more)" in app.missing


def test_1_1_3a_gm_and_wgm_need_a_norm_with_one_round_a_day() -> None:
    """1.1.3a: a GM or WGM application needs one norm from an event with one round a day on
    at least three days; an IM application does not. A norm whose round dates are not known
    cannot be taken for one: the judgement says so."""
    twice = [norm(k, one_round_days=1) for k in "abc"]
    gm = application(twice)
    assert not gm.complete
    assert gm.missing == ("a norm from an event with one round a day on at least 3 days (1.1.3a)",)
    assert requirement(gm, "1.1.3a").met is False
    im = application([norm(k, title="IM", one_round_days=1) for k in "abc"], title=Title.IM)
    assert im.complete
    assert all(r.article != "1.1.3a" for r in im.requirements)
    unknown = application([*twice[:2], norm("c", one_round_days=None)])
    assert "the days of the rounds are not known for: c" in unknown.missing[0]
    assert application([*twice[:2], norm("c", one_round_days=3)]).complete


def test_1_4_3e_one_norm_under_the_normal_foreigner_requirement() -> None:
    """1.4.3e: at least one norm under the normal foreigner requirement (1.4.3, 1.4.4). A
    norm of an exempt event counts when its games meet it anyway."""
    exempt = [norm(k, exemption="1.4.3d", normal=False) for k in "abc"]
    app = application(exempt)
    assert app.missing == (
        "a norm that meets the normal foreigner requirement (1.4.3e); the norms so far "
        "needed their exemption: a (1.4.3d), b (1.4.3d), c (1.4.3d)",
    )
    anyway = application([*exempt[:2], norm("c", exemption="1.4.3a", normal=True)])
    assert anyway.complete
    unknown = application([*exempt[:2], norm("c", exemption="1.4.3d", normal=None)])
    assert "not known for (opponents of unknown federation): c" in unknown.missing[0]


def test_1_4_1c_one_8_game_norm_per_application() -> None:
    """1.4.1c: 8 games counted as 9 make a norm, only one such norm per application: with
    two of them and two 9-game norms, one short norm is left out and 27 games remain."""
    short = [norm(k, games=8, credited=9, short=True) for k in "ab"]
    app = application([*short, norm("c")])
    assert not app.complete
    assert app.games_credited == 18
    assert [n.event for n in app.norms].count("a") + [n.event for n in app.norms].count("b") == 1
    (left,) = app.left_out
    assert left.reason == "another 8-game norm is used (1.4.1c: ≤ 1)"
    assert application([*short, norm("c"), norm("d")]).complete
    assert requirement(application([*short, norm("c"), norm("d")]), "1.4.1c").actual == "1"


def test_1_5_6_after_30_june_2022_one_norm_from_its_event_types() -> None:
    """1.5.6: an application with a norm achieved after 30 June 2022 needs one norm from the
    event types listed (a strong Swiss, the Olympiad …). Norms all older do not."""
    recent = [norm(k, event_type=False) for k in "abc"]
    app = application(recent)
    assert app.missing == (
        "a norm from an event of 1.5.6 (the norms of a, b, c are later than 2022-06-30)",
    )
    assert application([*recent[:2], norm("c", event_type=True)]).complete
    old = [
        norm(k, on=date(2019, 5, 1), edition="fide-2009r2017", event_type=None, one_round_days=9)
        for k in "abc"
    ]
    assert application(old).complete
    assert requirement(application(old), "1.5.6").actual == "no norm after 2022-06-30"
    unknown = application([*recent[:2], norm("c", event_type=None)])
    assert "whether these events are of its types is not known: c" in unknown.missing[0]


def test_1_5_6_an_older_norm_can_be_left_out_instead() -> None:
    """With three old norms and one recent norm from no such event, the application uses the
    old ones: the recent one would ask for a 1.5.6 norm."""
    old = [norm(k, on=date(2021, 5, 1), edition="fide-2009r2017", event_type=None) for k in "abc"]
    app = application([*old, norm("d", on=date(2024, 5, 1), event_type=False)])
    assert app.complete
    assert [n.event for n in app.norms] == ["a", "b", "c"]


def test_1_5_3_the_rating_reached_at_some_time() -> None:
    """1.5.3: GM 2500 reached at some time; the judgement says the highest rating known and
    when."""
    norms = [norm(k) for k in "abc"]
    app = application(norms, [rating(2487, date(2026, 3, 1)), rating(2450, date(2025, 1, 1))])
    assert app.missing == ("rating 2500 (1.5.3): highest 2487 on 2026-03-01",)
    assert requirement(app, "1.5.3").met is False
    done = application(norms, [rating(2501, date(2026, 3, 1))])
    assert done.complete
    assert done.complete_on == date(2026, 3, 1)
    assert requirement(done, "1.5.3").actual.startswith("2501 published on 2026-03-01")


def test_1_5_3a_an_interim_rating_counts_with_the_federation_s_proof() -> None:
    """1.5.3a: an interim rating (in a rating period, even in a tournament) counts; the
    burden of proof rests with the federation: the requirement cites 1.5.3a and a note says
    what to carry. The first rating to reach the level dates the application; on the same
    day a published one is preferred."""
    norms = [norm(k) for k in "abc"]
    interim = rating(2504, date(2025, 2, 4), kind="interim")
    app = application(norms, [interim, rating(2502, date(2025, 4, 1))])
    assert app.complete
    assert app.rating == interim
    assert requirement(app, "1.5.3a").met
    assert any(n.startswith("1.5.3a: the rating 2504 is interim") for n in app.notes)
    same_day = rating(2500, date(2025, 2, 4))
    assert application(norms, [interim, same_day]).rating == same_day


def test_1_5_2_a_norm_for_two_titles_serves_both_applications() -> None:
    """1.5.2: a norm good for more than one title may be used for both: a woman's GM and WGM
    norms of the same three events complete both applications, each naming the other use."""
    both = [norm(k, title=t) for k in "abc" for t in ("GM", "WGM")]
    gm = application(both, [rating(2505)], Title.GM)
    wgm = application(both, [rating(2505)], Title.WGM)
    assert gm.complete
    assert wgm.complete
    assert [n.event for n in gm.norms] == [n.event for n in wgm.norms] == ["a", "b", "c"]
    assert "1.5.2: a norm good for two titles serves both: a, b, c" in wgm.notes


def test_a_norm_with_open_conditions_is_not_used() -> None:
    """A norm announced before the last round with conditions still open is not used until
    they no longer matter; the judgement says why."""
    pending = norm("c", problems=("1.4.3d: the exemption depends on who plays round 9",))
    app = application([norm("a"), norm("b"), pending])
    assert not app.complete
    assert app.left_out[0].reason == "1.4.3d: the exemption depends on who plays round 9"


def test_the_choice_prefers_the_earliest_then_the_fewest_norms() -> None:
    """Several sets meet every condition: the application uses the one complete earliest,
    then the one with the fewest norms, then the most games, and says so."""
    norms = [
        norm("a", on=date(2025, 1, 1)),
        norm("b", on=date(2025, 2, 1)),
        norm("c", on=date(2025, 3, 1), credited=10),
        norm("d", on=date(2025, 3, 1)),
        norm("e", on=date(2025, 4, 1), credited=13),
    ]
    app = application(norms)
    assert [n.event for n in app.norms] == ["a", "b", "c"]
    assert app.complete_on == date(2025, 3, 1)
    assert app.why == (
        "complete on 2025-03-01: no set of these norms meets every condition earlier; 4 sets "
        "of 3 norms do by then, this one has the most games (28), and comes first by the "
        "norms' keys among those with as many"
    )
    assert {left.event: left.reason for left in app.left_out} == {
        "d": "not needed: the set is complete",
        "e": "not needed: the set is complete",
    }
