"""Norms of the 2009 era in a title application: each counts under the regulations in force
when it was achieved (1.53 of 2009, 1.5.4 of 2024), and an application judged while the 2009
text was in force asks what 1.50, 1.52 and 1.43f ask (reference §4); before 1 July 2009 the
German summary's 1 and 2.2. Held norms come in the minimal form of
:class:`tracker.titles.sources.HeldNorm`."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.support.builders import FIDE_2009R2012, FIDE_2024, PRE_2009
from tests.support.titles import CANDIDATE, PLAYER, norm, rating
from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.titles.judgement import judge
from tracker.titles.sources import HeldNormError, held_norm


def held(**fields: Any) -> ev.TitleNorm:
    record: dict[str, Any] = {
        "fide_id": CANDIDATE,
        "title": "GM",
        "event": "European Championship",
        "start_date": "2011-03-21",
        "end_date": "2011-04-03",
        "rounds": 11,
        "games": 11,
        "normal_foreigners": True,
        "one_round_days": 11,
        **fields,
    }
    return held_norm(record, "held.json: norms[0]")[1]


def test_1_49_a_2009_championship_norm_keeps_its_games_beyond_13() -> None:
    """1.49 of 2009: more than 13 rounds count as 13 games, except world or continental
    championships; 2024's 1.7 has no exception. A continental championship norm of 15 games
    counts 15 under fide-2009, the same record dated 2025 counts 13."""
    old = held(rounds=15, games=15, kinds=["world_or_continental_championship"])
    assert (old.edition, old.games_credited) == ("fide-2009", 15)
    new = held(
        rounds=15,
        games=15,
        kinds=["world_or_continental_championship"],
        start_date="2025-03-21",
        end_date="2025-04-05",
    )
    assert (new.edition, new.games_credited) == ("fide-2024", 13)


def test_1_5_4_a_2009_norm_counts_under_its_own_rules_in_a_2024_application() -> None:
    """An application judged under 2024 takes the 2011 norm as its edition credited it: 15
    games and a 12-game norm make 27 (two 2024 norms of the same games would make 25)."""
    old = held(rounds=15, games=15, kinds=["world_or_continental_championship"])
    later = norm("Open 2019", on=date(2019, 6, 1), edition="fide-2009r2017", games=12)
    app = judge(CANDIDATE, PLAYER, [old, later], [rating(2501)], Title.GM, FIDE_2024)
    assert app.complete
    assert app.games_credited == 27
    assert (
        "1.5.4: each norm counts under the regulations in force when it was achieved "
        "(fide-2009, fide-2009r2017)"
    ) in app.notes


def test_1_41c_whole_points_by_the_norms_own_edition() -> None:
    """1.41c: the games are increased by the whole points above the requirement, counted by
    the norm's own edition; a certificate's figure that disagrees is refused, naming it."""
    assert held(points_above_norm=2).games_credited == 13
    with pytest.raises(HeldNormError, match=r"norms\[0\]: games_credited: 12, but fide-2009"):
        held(points_above_norm=2, games_credited=12)


def test_the_2009_application_rules_1_50_1_52_1_43f() -> None:
    """Judged while the 2009 text (with its 2012 revision) was in force: 27 games (1.50),
    the rating (1.52), one norm without an exemption (1.43f); no 1.1.3a, 1.4.1c or 1.5.6."""
    norms = [
        norm(k, on=date(2013, 5, 1), edition="fide-2009r2012", one_round_days=1, event_type=None)
        for k in "abc"
    ]
    app = judge(CANDIDATE, PLAYER, norms, [rating(2500)], Title.GM, FIDE_2009R2012)
    assert app.complete
    assert [r.article for r in app.requirements] == ["1.50", "1.50", "1.43f", "1.52"]
    exempt = [n.model_copy(update={"normal_foreigners": False}) for n in norms]
    no = judge(CANDIDATE, PLAYER, exempt, [rating(2500)], Title.GM, FIDE_2009R2012)
    assert no.missing[0].startswith("a norm that meets the normal foreigner requirement (1.43f)")


def test_before_2009_the_summary_s_1_and_2_2() -> None:
    """The German summary: norms over 27 games and the rating (1), one norm that needs none
    of the exemptions (2.2)."""
    norms = [norm(k, on=date(2007, 5, 1), edition="fide-pre-2009") for k in "ab"]
    app = judge(CANDIDATE, PLAYER, norms, [rating(2450)], Title.GM, PRE_2009)
    assert [r.article for r in app.requirements] == ["1", "1", "2.2", "1"]
    assert app.missing == (
        "9 more games of norms (18 of 27: 1)",
        "rating 2500 (1): highest 2450 on 2025-01-01",
    )


def test_a_held_norm_names_the_field_it_gets_wrong() -> None:
    with pytest.raises(HeldNormError, match=r"norms\[0\]: normal_foreigners: Field required"):
        held_norm({k: v for k, v in _minimal().items() if k != "normal_foreigners"}, "x: norms[0]")
    with pytest.raises(HeldNormError, match=r"games: Input should be a valid integer"):
        held(games="9")
    with pytest.raises(HeldNormError, match=r"short_norm: fide-2009 has no 8-game norm"):
        held(rounds=9, games=8, short_norm=True)
    with pytest.raises(HeldNormError, match=r"games: a norm under fide-2009 needs 9 games"):
        held(rounds=9, games=8)
    with pytest.raises(HeldNormError, match=r"edition: unknown edition 'fide-1999'"):
        held(edition="fide-1999")
    short = held(rounds=9, games=8, short_norm=True, start_date="2025-03-01", end_date="2025-03-09")
    assert (short.short_norm, short.games_credited) == (True, 9)


def _minimal() -> dict[str, Any]:
    return {
        "fide_id": CANDIDATE,
        "title": "GM",
        "event": "Open",
        "start_date": "2011-03-21",
        "end_date": "2011-03-29",
        "rounds": 9,
        "games": 9,
        "normal_foreigners": True,
    }
