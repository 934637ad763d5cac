"""The story of ``tracker replay`` tells every alert type, each by its own function
(:func:`tracker.render.report._told`, a ``functools.singledispatch``): a new alert type
that forgets its lines fails here instead of vanishing from the story."""

from __future__ import annotations

import typing

from tracker import contract as ev
from tracker.render.report import _told

GROUPED = {ev.NormProspect, ev.NormOutOfReach}
"""Told together, round by round, by the story itself (the watch's changes of contention)."""


def _alert_types() -> set[type]:
    union = ev.OutputEvent
    if typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    return set(typing.get_args(union))


def test_every_alert_type_but_the_grouped_ones_has_its_lines() -> None:
    types = _alert_types()
    assert types >= GROUPED
    untold = {t.__name__ for t in types - GROUPED if t not in _told.registry}
    assert untold == set()
