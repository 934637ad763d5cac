"""Which titles a player can gain, one notion for every part (issue 12, items 1 and 2):
0.31 and 1.51 of 2009, 0.6.2 and 1.5.2 of 2024, section 1 of the pre-2009 summary.

A player is evaluated for every title she does not hold whose category she can gain (the
women's titles only women) and which is not below a title she holds in the same category;
no title of one category is ranked against one of the other, and a norm may serve two
applications (1.51 / 1.5.2).
"""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from cli.main import main
from tests.support.builders import (
    FIDE_2009,
    FIDE_2024,
    PRE_2009,
    START,
    climber_events,
    live_levels,
    player,
    replayed,
)
from tests.support.scenarios import events
from tracker import contract as ev
from tracker.domain.players import Sex
from tracker.domain.titles import Title
from tracker.engine.prospects import Outlook
from tracker.render.certificate import NoNorm, certificate
from tracker.render.report import check_lines
from tracker.render.views import player_card
from tracker.rules import TITLE_EDITIONS, TitleRules

EVERY_EDITION = pytest.mark.parametrize("rules", TITLE_EDITIONS, ids=lambda r: r.name)


# ----------------------------------------------------------------------------- the rule


@EVERY_EDITION
@pytest.mark.parametrize(
    ("sex", "title", "norm_titles"),
    [
        ("m", None, "GM IM"),
        ("m", "FM", "GM IM"),
        ("m", "IM", "GM"),
        ("m", "GM", ""),
        ("w", None, "GM IM WGM WIM"),
        # issue 12, 1: a woman FM gets WGM and WIM, a woman CM WIM, a woman IM WGM
        ("w", "FM", "GM IM WGM WIM"),
        ("w", "CM", "GM IM WGM WIM"),
        ("w", "IM", "GM WGM WIM"),
        ("w", "GM", "WGM WIM"),
        # a WGM: IM and GM, not WIM (below WGM among the women's titles)
        ("w", "WGM", "GM IM"),
        ("w", "WIM", "GM IM WGM"),
        ("w", "WFM", "GM IM WGM WIM"),
    ],
)
def test_0_31_norm_titles_by_category(
    rules: TitleRules, sex: str, title: str | None, norm_titles: str
) -> None:
    p = player(1, 2300, title, sex=sex)
    assert [t.value for t in rules.eligible_norm_titles(p)] == norm_titles.split()


@EVERY_EDITION
def test_0_31_a_player_whose_sex_is_not_given_gets_no_womens_title(rules: TitleRules) -> None:
    p = dataclasses.replace(player(1, 2300, "FM"), sex=None)
    assert [t.value for t in rules.eligible_norm_titles(p)] == ["GM", "IM"]
    why = rules.why_not_eligible(p, Title.WGM)
    assert why is not None
    assert "has no sex given" in why


@pytest.mark.parametrize(
    ("rules", "article"), [(PRE_2009, "(1)"), (FIDE_2009, "(0.31)"), (FIDE_2024, "(0.6.2)")]
)
def test_why_not_eligible_names_the_editions_article(rules: TitleRules, article: str) -> None:
    man = player(1, 2500, "GM", sex="m")
    assert rules.why_not_eligible(man, Title.GM) == "GM Player 1 (GER, 2500) holds the GM title"
    assert rules.why_not_eligible(man, Title.IM) == (
        f"IM is below the GM title GM Player 1 (GER, 2500) holds, in the same (open) category "
        f"{article}"
    )
    assert rules.why_not_eligible(man, Title.WGM) == (
        f"WGM is a women's title {article} and GM Player 1 (GER, 2500) is registered as a man"
    )
    wgm = player(2, 2300, "WGM", sex="w")
    assert rules.why_not_eligible(wgm, Title.WIM) == (
        f"WIM is below the WGM title WGM Player 2 (GER, 2300) holds, in the same (women's) "
        f"category {article}"
    )
    assert rules.why_not_eligible(wgm, Title.IM) is None


@EVERY_EDITION
def test_eligible_titles_cover_the_titles_by_rating_too(rules: TitleRules) -> None:
    woman_fm = player(1, 2300, "FM", sex="w")
    assert [t.value for t in rules.eligible_titles(woman_fm)] == [
        "GM",
        "IM",
        "WGM",
        "WIM",
        "WFM",
        "WCM",
    ]


@EVERY_EDITION
@pytest.mark.parametrize(
    ("sex", "title", "levels"),
    [
        ("m", None, "GM IM FM CM"),
        ("m", "FM", "GM IM"),
        # a title held shows its level reached "at some time" (1.3, 1.52): a woman FM has
        # nothing new at WGM's 2300 or WFM's 2100, a woman CM nothing at WIM's 2200
        ("w", "FM", "GM IM"),
        ("w", "CM", "GM IM WGM FM"),
        ("w", "WGM", "GM IM"),
        ("w", "WFM", "GM IM WGM FM WIM CM"),
        ("w", None, "GM IM WGM FM WIM CM WFM WCM"),
    ],
)
def test_1_3_and_1_52_rating_levels_that_are_news(
    rules: TitleRules, sex: str, title: str | None, levels: str
) -> None:
    p = player(1, 2000, title, sex=sex)
    assert [t.value for t in rules.rating_level_titles(p)] == levels.split()


# ----------------------------------------------------------------------------- in replay


def norms_of(alerts: list[ev.OutputEvent], rank: int = 1) -> list[str]:
    return [a.title for a in alerts if isinstance(a, ev.NormAchieved) and a.player.rank == rank]


@pytest.mark.parametrize("edition", sorted(START))
@pytest.mark.parametrize(
    ("sex", "title", "norms"),
    [
        ("w", "FM", ["WGM", "WIM"]),  # issue 12, 1: the woman FM gets both women's norms
        ("w", "CM", ["WGM", "WIM"]),
        ("w", None, ["WGM", "WIM"]),
        ("w", "WIM", ["WGM"]),
        ("w", "WGM", []),  # the WIM norm is below her title
        ("m", "FM", []),
    ],
)
def test_1_51_a_woman_holding_an_open_title_gets_womens_norms(
    edition: str, sex: str, title: str | None, norms: list[str]
) -> None:
    state, alerts = replayed(events(edition, sex, title))
    assert state.title_rules.name == edition
    assert norms_of(alerts) == norms


def test_1_5_2_a_woman_im_is_evaluated_for_the_wgm_norm() -> None:
    """A woman IM (2380) with the same games: the WGM norm and the WIM norm, women's titles
    that no open title she holds is above (0.6.2: lower titles are those of the same
    category); the old cross-ladder reading (IM 2400 covers WGM 2300) gave neither."""
    _, alerts = replayed(events("fide-2024", "w", "IM", rating=2380))
    assert norms_of(alerts) == ["WGM", "WIM"]


def test_prospects_and_the_player_card_follow_the_same_notion() -> None:
    items = events("fide-2024", "w", "FM")
    state, _ = replayed(items[:-4])  # after round 7 (two events a round)
    assert state.announced == 7
    titles = {title for rank, title in Outlook(state, 7).all(set()) if rank == 1}
    assert titles == {Title.GM, Title.IM, Title.WGM, Title.WIM}
    card = player_card(state, 1)
    assert [n.title for n in card.norms] == ["GM", "IM", "WGM", "WIM"]
    man_card = player_card(state, 2)  # the male GM
    assert man_card.norms == ()


# ----------------------------------------------------------------------------- check, certificate


def test_check_of_a_title_that_does_not_apply_says_why() -> None:
    state, _ = replayed(events("fide-2024", "w", "FM"))
    lines, status = check_lines(state, 2, Title.WGM, 9)
    assert status == 1
    assert lines[-1] == (
        "WGM norm for GM Man GM (NED): does not apply: WGM is a women's title (0.6.2) and "
        "GM Man GM (NED, 2350) is registered as a man"
    )
    lines, status = check_lines(state, 7, Title.IM, 9)
    assert status == 1
    assert lines[-1].endswith("does not apply: IM Ivo IM (ESP, 2350) holds the IM title")
    lines, status = check_lines(state, 1, Title.WGM, 9)
    assert status == 0
    assert lines[1] == "WGM norm for FM Anna (GER): ACHIEVED  [fide-2024]"


def test_check_without_a_title_for_a_player_who_can_gain_none() -> None:
    state, _ = replayed(events("fide-2024", "w", "FM"))
    gm = next(r for r, p in state.players.items() if p.title is Title.GM and p.sex is Sex.MAN)
    lines, status = check_lines(state, gm, None, 9)
    assert status == 0
    assert lines[1] == "GM Man GM (NED, 2350) can gain no norm title:"
    assert lines[2] == "  GM Man GM (NED, 2350) holds the GM title"
    assert "IM is below the GM title" in lines[3]
    assert "WGM is a women's title (0.6.2)" in lines[4]


def test_certificate_of_a_title_that_does_not_apply_says_why() -> None:
    state, _ = replayed(events("fide-2024", "w", "FM"))
    with pytest.raises(NoNorm, match=r"^title: IM Ivo IM \(ESP, 2350\) holds the IM title$"):
        certificate(state, 7, Title.IM)
    with pytest.raises(NoNorm, match="WGM is a women's title"):
        certificate(state, 2, Title.WGM)
    cert = certificate(state, 1, Title.WGM)
    assert (cert.title, cert.rp, cert.edition) == ("WGM", 2430, "fide-2024")
    assert certificate(state, 1).title == "WGM"  # the strongest norm she achieved


@pytest.fixture
def jsonl(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("cat") / "women.jsonl"
    path.write_text("".join(e.model_dump_json() + "\n" for e in events("fide-2024", "w", "FM")))
    return str(path)


def test_cli_check_and_certificate_agree(jsonl: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 12, 2: check and certificate give the same answer for a title that does not
    apply (check: the reason and status 1; certificate: the reason as an error), and the
    title is read in any case."""
    assert main(["check", jsonl, "--player", "7", "--title", "im"]) == 1
    out = capsys.readouterr().out
    assert "IM norm for IM Ivo IM (ESP): does not apply: IM Ivo IM (ESP, 2350) holds" in out
    assert main(["certificate", jsonl, "--player", "7", "--title", "Im"]) == 2
    err = capsys.readouterr().err
    assert "holds the IM title" in err
    assert " a IM" not in err
    assert main(["check", jsonl, "--player", "1", "--title", "wgm"]) == 0
    assert "WGM norm for FM Anna (GER): ACHIEVED" in capsys.readouterr().out


# ----------------------------------------------------------------------------- title levels


def level_events(sex: str, title: str | None) -> list[ev.InputEvent]:
    """A player rated 2090 (K 15 under rating-2011) beats three players rated 2090: 2098,
    2105, 2113. A 2011 event: the WFM level is said on the standing, 2009's 1.3 asking a
    published rating for it (issue 19)."""
    return climber_events(date(2011, 5, 1), 2090, 3, sex=sex, title=title)


@pytest.mark.parametrize(
    ("sex", "title", "levels"),
    [
        ("w", None, ["WFM"]),
        ("w", "WCM", ["WFM"]),
        ("w", "FM", []),  # her FM shows 2300 reached at some time: WFM's 2100 is no news
        ("w", "CM", []),
        ("m", None, []),  # WFM is a women's title
    ],
)
def test_1_3_title_level_alerts_follow_the_same_notion(
    sex: str, title: str | None, levels: list[str]
) -> None:
    _, alerts = replayed(level_events(sex, title))
    assert not [a for a in alerts if isinstance(a, ev.TitleRatingReached)]
    said = live_levels(alerts, 1)
    assert [t for t, _, _ in said] == levels
    assert all(rating >= 2100 for _, _, rating in said)
