"""The editions' memo of mix rules (``TitleRules.mix_memo``) must never hand one edition's
rule to another: a variant made with :func:`dataclasses.replace` starts its own memo.

1.43a exempts a national championship final from the federation rules; with the 2009
reading (:attr:`exemptions_lift_caps`) the caps of 1.44a go too. A variant edition that
keeps the caps must find them broken by seven opponents from the candidate's federation,
even after the registry's edition has answered the very same question.
"""

from __future__ import annotations

import dataclasses

from tests.support.builders import FIDE_2009, check, verdict
from tracker.domain.tournaments import EventKind
from tracker.norms.search import Verdict


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
