"""Event behaviour is dispatched in one place per concern (issue 24): each input event type
has its change to the state (:data:`tracker.engine.facts.RECORDERS`), and the story of
``tracker replay`` tells every alert type by its own function
(:func:`tracker.render.report._told`). A new event type that forgets one fails here
instead of crashing the worker or vanishing from the story."""

from __future__ import annotations

import typing

from tracker import contract as ev
from tracker.engine.facts import RECORDERS
from tracker.render.report import _told

GROUPED = {ev.NormProspect, ev.NormOutOfReach}
"""Told together, round by round, by the story itself (the watch's changes of contention)."""


def _types(union: object) -> set[type]:
    if typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    return set(typing.get_args(union))


def test_every_input_event_type_but_the_registration_changes_the_state() -> None:
    """The registration is :func:`tracker.engine.transition.record`'s own (it may come
    before any state); every other type has its function."""
    types = _types(ev.InputEvent)
    assert ev.TournamentRegistered in types
    assert set(RECORDERS) == types - {ev.TournamentRegistered}


def test_every_alert_type_but_the_grouped_ones_has_its_lines() -> None:
    types = _types(ev.OutputEvent)
    assert types >= GROUPED
    untold = {t.__name__ for t in types - GROUPED if t not in _told.registry}
    assert untold == set()
