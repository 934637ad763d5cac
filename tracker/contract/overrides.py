"""What the arbiter says over a source's tournament registration on the command line
(``--edition``, ``--rounds``, ``--system``), applied the same way by ``tracker replay``,
``check`` and ``certificate``, ``tracker publish`` and ``tracker follow`` (the arbiter's
file or a broadcast followed alone)."""

from __future__ import annotations

import dataclasses

from tracker.contract.inputs import TournamentRegistered
from tracker.domain.tournaments import System, round_robin_rounds


@dataclasses.dataclass(frozen=True, slots=True)
class Overrides:
    """The registration's fields the arbiter gives; ``None`` keeps the source's."""

    edition: str | None = None
    planned_rounds: int | None = None
    """``--rounds``: the number the source does not state, or states wrongly."""
    system: System | None = None
    """``--system``: the arbiter names what the source does not tell (or tells wrongly)."""

    def __bool__(self) -> bool:
        return any(v is not None for v in (self.edition, self.planned_rounds, self.system))

    def apply(self, e: TournamentRegistered, players: int) -> TournamentRegistered:
        """``e`` with what is given over it. A system named is a fact, without evidence;
        a round robin named where neither ``--rounds`` nor the source gives the rounds
        plans those its ``players`` need.

        >>> from datetime import date
        >>> e = TournamentRegistered(tournament_id="t", start_date=date(2011, 5, 2),
        ...                          system=System.UNKNOWN, system_evidence="no words")
        >>> named = Overrides(system=System.ROUND_ROBIN).apply(e, 10)
        >>> named.system.value, named.planned_rounds, named.system_evidence
        ('round_robin', 9, None)
        """
        update: dict[str, object] = {}
        if self.edition is not None:
            update["edition"] = self.edition
        if self.planned_rounds is not None:
            update["planned_rounds"] = self.planned_rounds
        if self.system is not None:
            update["system"] = self.system
            update["system_evidence"] = None
            if self.system.predetermined and "planned_rounds" not in update:
                update["planned_rounds"] = e.planned_rounds or round_robin_rounds(
                    players, self.system
                )
        return e.model_copy(update=update) if update else e


__all__ = ["Overrides"]
