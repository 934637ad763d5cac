"""The pure core of the FIDE title-norm tracker: no I/O, no clock, no Kafka.

The layers, each a folder, import one way (``pyproject.toml`` holds the import-linter
contract): :mod:`~tracker.domain` ← :mod:`~tracker.rules` ← :mod:`~tracker.norms` ←
:mod:`~tracker.engine`; :mod:`~tracker.contract` ← :mod:`~tracker.formats` ←
:mod:`~tracker.ingest`; :mod:`~tracker.engine` ← :mod:`~tracker.render` ← :mod:`~tracker.host`.

What a host needs is named here: the one transition :func:`apply` over a
:class:`TournamentState`, the event contract (:mod:`tracker.contract`, imported as ``ev``),
the editions (:func:`title_rules_in_force`, :func:`title_rules_named`) and the embedded
:func:`replay` of a file's events.
"""

from tracker import contract
from tracker.engine.state import TournamentState
from tracker.engine.transition import Rejected, apply
from tracker.host.replay import InputError, Replay, Sourced, read_bytes, read_events, replay
from tracker.rules import TITLE_EDITIONS, TitleRules, title_rules_in_force, title_rules_named

__all__ = [
    "TITLE_EDITIONS",
    "InputError",
    "Rejected",
    "Replay",
    "Sourced",
    "TitleRules",
    "TournamentState",
    "apply",
    "contract",
    "read_bytes",
    "read_events",
    "replay",
    "title_rules_in_force",
    "title_rules_named",
]
