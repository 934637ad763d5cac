"""Players as registered for a tournament: the facts every rule reads."""

from __future__ import annotations

import dataclasses
import enum
from datetime import date

from tracker.domain.titles import Title


class Sex(enum.Enum):
    """TRF16 column 10: ``m`` or ``w``."""

    MAN = "m"
    WOMAN = "w"


@dataclasses.dataclass(frozen=True, slots=True)
class Player:
    """A player of one tournament, with the rating-list facts at its start (1.46b)."""

    rank: int
    """Starting rank, the id used in pairings and TRF cells."""
    name: str
    federation: str | None
    """Three-letter FIDE federation code; ``FID`` for players under the FIDE flag; ``None``
    when not known (a blank cell of the file). Rules that count federations never guess it:
    see :attr:`federation_key` and :mod:`tracker.norms.search`."""
    fide_id: int | None = None
    sex: Sex | None = None
    title: Title | None = None
    rating: int | None = None
    """Standard rating on the list in force at the start; ``None`` for an unrated player."""
    k_factor: int | None = None
    """Development coefficient from the rating list, when known; otherwise the edition's rule."""
    birth_date: date | None = None
    rated_games: int | None = None
    """Rated games played before the tournament, when known (K for new players, 1.3 30 games)."""
    computer: bool = False
    """A computer program entered as a player (1.42b 2009: its games do not count)."""

    @property
    def federation_key(self) -> str:
        """The federation as the most favourable reading counts it: a player of unknown
        federation is a federation of their own (``?`` and the start rank), foreign to
        everyone and shared with no one. Bounds and prospects ("is the norm still
        possible?") count with it; a verdict counts both ways (:mod:`tracker.norms.search`).

        >>> Player(7, "Doe, Jo", None).federation_key, Player(8, "Roe, Al", "GER").federation_key
        ('?7', 'GER')
        """
        return self.federation if self.federation is not None else f"?{self.rank}"

    def label(self) -> str:
        """``GM Carlsen, Magnus (NOR, 2830)``: how alerts name a player."""
        title = f"{self.title.value} " if self.title else ""
        rating = self.rating if self.rating is not None else "unrated"
        return f"{title}{self.name} ({self.federation or 'federation unknown'}, {rating})"
