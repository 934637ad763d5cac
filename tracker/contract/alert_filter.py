"""Which alerts a subscriber wants: by tournament, by type, by the player's federation.

Works on an alert's JSON object, so it passes any alert type, including types added after a
subscriber was written. An alert without a player (``round_finished``) never matches a
federation filter: a federation feed carries the alerts about its players.

>>> f = AlertFilter.of(federations=["rou"], types=["norm_achieved,title_rating_reached"])
>>> f.matches({"type": "norm_achieved", "tournament_id": "t", "player": {"federation": "ROU"}})
True
>>> f.matches({"type": "norm_achieved", "tournament_id": "t", "player": {"federation": "SRB"}})
False
>>> f.matches({"type": "round_finished", "tournament_id": "t"})
False
>>> AlertFilter.of().matches({"type": "anything_new", "tournament_id": "t"})
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping


def _split(values: Iterable[str] | None) -> frozenset[str]:
    """Repeated and comma-separated values, blanks dropped."""
    return frozenset(v.strip() for value in values or () for v in value.split(",") if v.strip())


@dataclasses.dataclass(frozen=True, slots=True)
class AlertFilter:
    """Empty sets let everything through."""

    tournaments: frozenset[str] = frozenset()
    types: frozenset[str] = frozenset()
    federations: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls,
        tournaments: Iterable[str] | None = None,
        types: Iterable[str] | None = None,
        federations: Iterable[str] | None = None,
    ) -> AlertFilter:
        """From repeated or comma-separated values (query strings, CLI options)."""
        return cls(
            tournaments=_split(tournaments),
            types=_split(types),
            federations=frozenset(f.upper() for f in _split(federations)),
        )

    def matches(self, alert: Mapping[str, object]) -> bool:
        if self.tournaments and alert.get("tournament_id") not in self.tournaments:
            return False
        if self.types and alert.get("type") not in self.types:
            return False
        if self.federations:
            player = alert.get("player")
            federation = player.get("federation") if isinstance(player, Mapping) else None
            if federation not in self.federations:
                return False
        return True


__all__ = ["AlertFilter"]
