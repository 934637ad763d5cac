"""The editions' memo of mix rules (``TitleRules.mix_memo``) must never hand one edition's
rule to another: a variant made with :func:`dataclasses.replace` starts its own memo.

1.43a exempts a national championship final from the federation rules; with the 2009
reading (:attr:`exemptions_lift_caps`) the caps of 1.44a go too. A variant edition that
keeps the caps must find them broken by seven opponents from the candidate's federation,
even after the registry's edition has answered the very same question.
"""

from __future__ import annotations

import dataclasses
import itertools

from tests.support.builders import FIDE_2009, START, check, player, verdict
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System, Tournament
from tracker.norms.search import Verdict
from tracker.rules import TITLE_EDITIONS
from tracker.rules.mix import MixRule


def national_final(rules: object) -> Verdict:
    feds = ["GER"] * 7 + ["FRA", "ESP"]
    opponents = [(2650, "GM", f, "=") for f in feds]
    return verdict(
        opponents,
        rules=rules,  # type: ignore[arg-type]
        kinds=[EventKind.NATIONAL_CHAMPIONSHIP_FINAL],
    )


def caps_checked(v: Verdict) -> bool:
    return any(c.article == "1.44a" for c in v.checks)


def test_replaced_edition_does_not_see_the_registry_editions_mix_rules() -> None:
    lifted = national_final(FIDE_2009)
    assert lifted.achieved
    assert not caps_checked(lifted)
    kept = dataclasses.replace(FIDE_2009, exemptions_lift_caps=False)
    capped = national_final(kept)
    assert caps_checked(capped)
    assert not check(capped, "opponents from GER")
    assert not capped.achieved
    assert national_final(FIDE_2009).achieved


def test_replaced_edition_starts_an_empty_memo() -> None:
    national_final(FIDE_2009)
    assert FIDE_2009.mix_memo
    assert dataclasses.replace(FIDE_2009, exemptions_lift_caps=False).mix_memo == {}


def test_memo_does_not_make_editions_unequal() -> None:
    national_final(FIDE_2009)
    assert dataclasses.replace(FIDE_2009) == FIDE_2009


def test_the_memo_keys_each_edition_by_all_its_mix_reads_of_the_applicant() -> None:
    """The memo keeps one rule for the applicants :meth:`TitleRules.mix_reads` treats alike
    (``tracker.norms.requirements._edition_mix``): every edition's mix must then be the same for
    them, in Swiss, round robin and double round robin events at home and abroad (2.2's
    host and guest shares and 2.3's titled candidate tell them apart before 2009)."""
    applicants = [
        player(1, rating, title, fed, sex)
        for rating in (2450, None)
        for title in (None, "IM", "WGM", "FM")
        for fed in ("GER", "FRA", None)
        for sex in ("m", "w")
    ]
    distinct = 0
    for rules in TITLE_EDITIONS:
        for system in (System.SWISS, System.ROUND_ROBIN, System.DOUBLE_ROUND_ROBIN):
            for host in (None, "GER"):
                t = Tournament("t", START[rules.name], 9, system, host_federation=host)
                for title, games, exemption in itertools.product(
                    (Title.GM, Title.WIM), (9, 13), (None, rules.swiss_exemption_article)
                ):
                    made: dict[object, MixRule] = {}
                    for p in applicants:
                        rule = rules.mix(title, games, t, p, exemption, games - 1)
                        known = made.setdefault(rules.mix_reads(p), rule)
                        assert rule == known, (rules.name, system, host, title, p)
                    distinct = max(distinct, len(made))
    assert distinct > 1  # the applicants differ where an edition's mix reads them
