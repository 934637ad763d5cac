"""The players of a tournament by start rank, and finding a broadcast's player among them.

A start list comes from the arbiter's TRF (start ranks as the file gives them) or from FIDE's
rating list (:mod:`tracker.formats.rating_list`; start ranks in the order of the file). A broadcast
names players by FIDE id, when its tags carry one, and by name, written as the broadcaster
writes it: ``Carlsen, Magnus``, ``Carlsen,M``, ``Magnus Carlsen``. :meth:`StartList.find`
matches by FIDE id first, else by name (:func:`same_person`); a name that fits two players is
reported as ambiguous, never guessed.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterable, Sequence

from tracker import contract as ev
from tracker.formats.pgn import Side
from tracker.formats.rating_list import RatingListEntry
from tracker.formats.transliterate import to_latin
from tracker.formats.trf import TrfFile, player_events

# --------------------------------------------------------------------------- names

_LETTERS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i"}
)


@dataclasses.dataclass(frozen=True, slots=True)
class Name:
    """A name as words: lower-case ASCII (Cyrillic and Greek transliterated by
    :func:`tracker.formats.transliterate.to_latin`), accents and punctuation dropped.
    ``surname`` is set when a comma says which words are the surname (``Carlsen, Magnus``)."""

    words: tuple[str, ...]
    surname: tuple[str, ...] | None
    given: tuple[str, ...]


def name_of(text: str) -> Name:
    """
    >>> name_of("Vachier-Lagrave, Maxime")
    Name(words=('vachier', 'lagrave', 'maxime'), surname=('vachier', 'lagrave'), given=('maxime',))
    >>> name_of("Magnus  Carlsen").surname is None
    True
    >>> name_of("Непомнящий, Ян").words
    ('nepomniashchii', 'ian')
    """
    # Cyrillic and Greek in Latin letters first: the ASCII fold would drop them all
    text = unicodedata.normalize("NFKD", to_latin(text).lower().translate(_LETTERS))
    text = text.encode("ascii", "ignore").decode()
    if "," in text:
        last, first = text.split(",", 1)
        surname = tuple(re.findall(r"[a-z0-9]+", last))
        given = tuple(re.findall(r"[a-z0-9]+", first))
        return Name(surname + given, surname or None, given)
    words = tuple(re.findall(r"[a-z0-9]+", text))
    return Name(words, None, ())


def _fits(
    short: Sequence[str], long: Sequence[str], surname: Sequence[str] = (), need_full: bool = True
) -> bool:
    """Whether every word of ``short`` stands for a different word of ``long``, in full or
    as its initial, with (``need_full``) at least one word of two letters or more in full,
    and one of the words of ``surname`` (when given) among those in full."""
    free = list(long)
    full: list[str] = []
    for word in sorted(short, key=len, reverse=True):  # full words before initials
        if word in free:
            free.remove(word)
            if len(word) > 1:
                full.append(word)
        elif len(word) == 1 and any(w.startswith(word) for w in free):
            free.remove(next(w for w in free if w.startswith(word)))
        else:
            return False
    if need_full and not full:
        return False
    return not surname or any(w in full for w in surname)


def _surnames_agree(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """One surname is the other, or some of its words (``Garrido`` for ``Garrido Ruiz``)."""
    short, long = sorted((a, b), key=len)
    return all(w in long for w in short)


def same_person(a: str, b: str) -> bool:
    """Whether two spellings can name the same person: the same words in any order, or with
    given names shortened to initials, or one of two surnames left out; when a comma says
    which words are the surname, a surname word is there in full, and when both say so, the
    surnames agree.

    >>> same_person("Carlsen, Magnus", "Carlsen,M"), same_person("Magnus Carlsen", "Carlsen, M.")
    (True, True)
    >>> same_person("Carlsen, Magnus", "Carlsen, Henrik"), same_person("Carlsen, M", "Mads Jensen")
    (False, False)
    """
    return _same(name_of(a), name_of(b))


def _same(x: Name, y: Name) -> bool:
    if not x.words or not y.words:
        return False
    if x.surname is not None and y.surname is not None:
        if not _surnames_agree(x.surname, y.surname):
            return False
        return _fits(x.given, y.given, need_full=False) or _fits(y.given, x.given, need_full=False)
    surname = x.surname or y.surname or ()
    return _fits(x.words, y.words, surname) or _fits(y.words, x.words, surname)


def _exact(x: Name, y: Name) -> bool:
    if not x.words or not y.words:  # nothing the fold could read (Chinese, Armenian, …)
        return False
    if x.surname is not None and y.surname is not None and x.surname != y.surname:
        return False
    return sorted(x.words) == sorted(y.words)


# --------------------------------------------------------------------------- the list


@dataclasses.dataclass(frozen=True, slots=True)
class Found:
    """The start rank of a broadcast player, or why there is none."""

    rank: int | None
    problem: str | None = None


PLACEHOLDER = "start-list"
"""The tournament id of a start list's registrations until they are registered for one."""


@dataclasses.dataclass(frozen=True, slots=True)
class StartList:
    players: tuple[ev.PlayerRegistered, ...]
    _by_id: dict[int, ev.PlayerRegistered] = dataclasses.field(
        init=False, repr=False, compare=False
    )
    _names: tuple[tuple[ev.PlayerRegistered, Name], ...] = dataclasses.field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        # looked up for every broadcast game on every poll: normalise each name once
        by_id = {p.fide_id: p for p in self.players if p.fide_id is not None}
        object.__setattr__(self, "_by_id", by_id)
        object.__setattr__(self, "_names", tuple((p, name_of(p.name)) for p in self.players))

    @classmethod
    def of(cls, events: Iterable[ev.InputEvent]) -> StartList:
        """The players these events register (a snapshot's facts)."""
        return cls(tuple(e for e in events if isinstance(e, ev.PlayerRegistered)))

    @classmethod
    def from_trf(cls, trf: TrfFile) -> StartList:
        """The players of a TRF, registered as :func:`tracker.formats.trf.to_events` registers them
        (raises :exc:`tracker.formats.trf.TrfError` as it does); neither its rounds nor its
        tournament records are read (the command line may give what they lack)."""
        return cls.of(player_events(trf, PLACEHOLDER))

    @classmethod
    def from_rating_list(cls, entries: Iterable[RatingListEntry]) -> StartList:
        """Start ranks in the order of the list. The list gives a birth year, not a date:
        the birth date stays unknown."""
        return cls(
            tuple(
                ev.PlayerRegistered(
                    tournament_id=PLACEHOLDER,
                    rank=rank,
                    name=e.name,
                    federation=e.federation,
                    fide_id=e.fide_id,
                    sex=e.sex,
                    title=e.title.value if e.title else None,
                    rating=e.rating,
                    k_factor=e.k_factor,
                )
                for rank, e in enumerate(entries, 1)
            )
        )

    def registered(self, tournament_id: str) -> list[ev.PlayerRegistered]:
        """The ``player_registered`` events of the players, for the tournament."""
        return [p.model_copy(update={"tournament_id": tournament_id}) for p in self.players]

    def find(self, side: Side) -> Found:
        """The player a broadcast names: by FIDE id, else by name.

        The id decides unless the name fits exactly one *other* player and not the id's
        (a wrong id tag and a right name, or the reverse: reported, not guessed). A name is
        matched exactly (the same words) before it is matched with initials; two players
        at the same level are ambiguous."""
        holder = self._by_id.get(side.fide_id) if side.fide_id is not None else None
        if holder is not None:
            if not side.name or _same(name_of(side.name), name_of(holder.name)):
                return Found(holder.rank)
            by_name = self._by_name(side.name)
            if by_name.rank is None:
                return Found(holder.rank)  # a name spelt past recognition: the id decides
            other = self._player(by_name.rank)
            return Found(
                None,
                f"{side.name!r}: FIDE id {side.fide_id} is {holder.name} (rank "
                f"{holder.rank}) but the name is {other.name} (rank {other.rank})",
            )
        by_name = self._by_name(side.name)
        if by_name.rank is not None and side.fide_id is not None:
            known = self._player(by_name.rank)
            if known.fide_id is not None and known.fide_id != side.fide_id:
                return Found(
                    None,
                    f"{side.name!r} (FIDE id {side.fide_id}): the start list has "
                    f"{known.name} with FIDE id {known.fide_id}",
                )
        return by_name

    def _player(self, rank: int) -> ev.PlayerRegistered:
        return next(p for p in self.players if p.rank == rank)

    def _by_name(self, name: str) -> Found:
        if not name:
            return Found(None, "no name in the tags")
        wanted = name_of(name)
        for test in (_exact, _same):
            hits = [p for p, n in self._names if test(wanted, n)]
            if len(hits) == 1:
                return Found(hits[0].rank)
            if len(hits) > 1:
                listed = ", ".join(f"{p.name} (rank {p.rank})" for p in hits)
                return Found(None, f"{name!r} is ambiguous: {listed}")
        return Found(None, f"{name!r} is not in the start list")


__all__ = ["PLACEHOLDER", "Found", "Name", "StartList", "name_of", "same_person"]
