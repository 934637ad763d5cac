"""What a tournament is: its system, dates, host and the kinds of event that rules name."""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from datetime import date


class System(enum.Enum):
    """Pairing system. Round robins have predetermined pairings. ``unknown``: what the file
    says does not settle it (no words for it, or words and facts that disagree); no rule of
    one system is applied to it as if it were known, and its norms are announced only with
    the assumption named (:mod:`tracker.engine.secured`)."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    UNKNOWN = "unknown"

    @property
    def predetermined(self) -> bool:
        """Round robins (single or double): the pairings are fixed before the event."""
        return self is System.ROUND_ROBIN or self is System.DOUBLE_ROUND_ROBIN


class EventKind(enum.Enum):
    """Kinds of event that the title regulations treat specially."""

    NATIONAL_CHAMPIONSHIP_FINAL = "national_championship_final"
    """Final stage of a national (men's or women's) championship: 1.43a (2009)."""
    NATIONAL_TEAM_CHAMPIONSHIP = "national_team_championship"
    """1.43b (2009)."""
    ZONAL = "zonal"
    """Zonal tournament: 1.43c (2009); zonal or sub-zonal: 1.4.3c (2024)."""
    QC_APPROVED_EXEMPTION = "qc_approved_exemption"
    """Another type exempted from the federation rule by the QC Chairman: 1.43d (2009)."""
    TEAM_CHAMPIONSHIP = "team_championship"
    """World or continental team (2024: or club) championship: 7 games suffice, 1.41b (2009),
    1.4.1b (2024)."""
    WORLD_CUP = "world_cup"
    """World Cup or Women's World Championship: 8 games count as 9, 1.41b (2009)."""
    WORLD_OR_CONTINENTAL_CHAMPIONSHIP = "world_or_continental_championship"
    """Individual world or continental championship: not capped at 13 games, 1.49 (2009)."""
    EUROPEAN_CLUB_CUP = "european_club_cup"
    """European Club Cup: fewer than 9 games suffice if it has 7 rounds or more (pre-2009 2.1);
    a continental club championship for 1.4.1b (2024)."""
    OLYMPIAD = "olympiad"
    """The Chess Olympiad: one of the events of 1.5.6 (2024)."""
    CANDIDATES_QUALIFIER = "candidates_qualifier"
    """A Grand Swiss (GSC) event that directly qualifies players to the Candidates: 1.5.6."""
    WORLD_CUP_QUALIFIER = "world_cup_qualifier"
    """A tournament that directly qualifies players to the World Cup: 1.5.6 (2024)."""
    EVE_EVENT = "eve_event"
    """An individual tournament held under the EVE regulations: 1.5.6 (2024)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Tournament:
    """The registered facts of one tournament."""

    id: str
    start_date: date
    planned_rounds: int | None
    """``None`` when the number of rounds is not known: then no round is the last."""
    system: System = System.SWISS
    name: str = ""
    end_date: date | None = None
    host_federation: str | None = None
    kinds: frozenset[EventKind] = frozenset()
    edition: str | None = None
    """Name of a regulation edition forced by the organiser; ``None`` chooses by start date."""
    city: str | None = None
    """TRF ``022``: where the event is played."""
    chief_arbiter: str | None = None
    """TRF ``102``."""
    time_control: str | None = None
    """The rate of play as written (TRF ``122`` / ``222``)."""
    event_type: str | None = None
    """TRF ``092`` as written."""
    round_dates: tuple[date | None, ...] = ()
    """TRF ``132``: each round's date where known."""
    system_evidence: str | None = dataclasses.field(default=None, compare=False)
    """How the system was read from the file (``092``, ``192``, the field against the
    rounds, the pairings), or why it is unknown; ``None`` when it was given as a fact. Words
    about a fact, not a fact: a registration that differs only here is the same one."""

    def is_(self, kind: EventKind) -> bool:
        return kind in self.kinds

    def is_last(self, number: int) -> bool:
        """Whether round ``number`` is the last one planned; never while the number of
        rounds is unknown."""
        return number == self.planned_rounds

    def rounds_per_day(self) -> Counter[date]:
        """How many rounds each day of :attr:`round_dates` has (days without a known date
        left out): what 1.13 (2009) and 1.1.3 (2024) limit, and 1.1.3a asks one a day of."""
        return Counter(d for d in self.round_dates if d is not None)

    def one_round_days(self) -> int | None:
        """Days with a single round (1.1.3a of 2024); ``None`` without round dates."""
        per_day = self.rounds_per_day()
        return sum(1 for n in per_day.values() if n == 1) if per_day else None

    def plans_between(self, low: int, high: int | None = None) -> bool:
        """Whether the planned number of rounds is known and from ``low`` to ``high``
        (no upper limit without one): the rules that name a number of rounds apply only to
        an event known to have it."""
        n = self.planned_rounds
        return n is not None and low <= n and (high is None or n <= high)


def round_robin_rounds(players: int, system: System) -> int:
    """The rounds a round robin of ``players`` takes: n − 1 for an even number of players,
    n for an odd one (each player sits out one round), twice that in a double round robin.

    >>> round_robin_rounds(10, System.ROUND_ROBIN), round_robin_rounds(9, System.ROUND_ROBIN)
    (9, 9)
    >>> round_robin_rounds(6, System.DOUBLE_ROUND_ROBIN)
    10
    """
    single = players - 1 if players % 2 == 0 else players
    return 2 * single if system is System.DOUBLE_ROUND_ROBIN else single
