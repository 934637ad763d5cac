"""The rate of play of an event, from what its file says (TRF ``122``/``222``, ``092``, and
where it was played), and the minimum times of the FIDE rules.

The time a player has for 60 moves decides everything (both the Laws and the rating
regulations assume 60 moves): the base time of every period that starts by move 60, plus 60
times the increment.

* FIDE Laws of Chess, Appendices A.1 and B.1: a game is *blitz* when each player has 10
  minutes or less, *rapid* when more than 10 but less than 60, otherwise it is standard.
* Rating Regulations B.02 (2024) 1.1: a standard game is rated only if each player has at
  least 120 minutes when either is rated 2400 or more, 90 when either is 1800 or more, and 60
  when both are below 1800 (:func:`rating_minimum`).
* Title Regulations: 120 minutes (2009 1.14, 2024 1.1.3; the edition's
  ``norm_rate_minimum``).

Time controls are free text in TRF16's ``122`` (``90 min + 30 sec/move``, ``40/120, 60``,
``90'/40+30'+30"``, ``15 minutes plus 10 sec per move``, ``G/90;+30``, ``1h30+30s``) and
encoded in seconds in TRF26's ``222`` (``5400+30``, ``40/6000+30:900+30``). A bare ``N+I``
is read in minutes and seconds (``90+30``) unless ``N`` is 300 or more, or at least 60 with an
increment of at most 5 (``180+2``, ``60+0``: TRF26 seconds, blitz and bullet).

>>> classify("90 min/40 moves + 30 min + 30 sec/move").minutes
Fraction(150, 1)
>>> classify("15 min + 10 sec/move").pace
<Pace.RAPID: 'rapid'>
>>> classify("40/120, 60").minutes, classify("5400+30").minutes, classify("3+2").pace
(Fraction(180, 1), Fraction(120, 1), <Pace.BLITZ: 'blitz'>)
>>> classify(None, "Individual: Swiss-System (Standard)").pace
<Pace.STANDARD: 'standard'>
>>> r = classify(None, "Individual: Swiss-System", where=("https://lichess.org/swiss/x",))
>>> r.pace, r.online
(<Pace.UNKNOWN: 'unknown'>, True)
>>> classify("moves/time, increment").pace  # a template left unfilled
<Pace.UNKNOWN: 'unknown'>
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
from collections.abc import Iterable
from fractions import Fraction

from tracker.domain.fraction_text import fraction_text

RAPID_ABOVE = 10
"""Laws of Chess A.1: rapid is more than 10 minutes for 60 moves, blitz (B.1) 10 or less."""
STANDARD_FROM = 60
"""Laws of Chess A.1: rapid is less than 60 minutes for 60 moves; from 60 it is standard."""


class Pace(enum.Enum):
    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"
    UNKNOWN = "unknown"


@dataclasses.dataclass(frozen=True, slots=True)
class RateOfPlay:
    """How fast the event is played, as far as its file tells."""

    pace: Pace
    minutes: Fraction | None
    """Each player's time for 60 moves, when the time control could be read."""
    online: bool
    """Played online (a platform's address, or "online", in the file's records)."""
    written: str
    """The time control as the file writes it (``""`` when absent)."""

    def detail(self) -> str:
        """``15 min + 10 sec/move: 25 min for 60 moves``, ``no time control in the file``."""
        if self.minutes is not None:
            return f"{self.written}: {fraction_text(self.minutes)} min for 60 moves"
        if self.written:
            return f"time control {self.written!r} not understood"
        return "no time control in the file"

    def describe(self) -> str:
        """``rapid (15 min + 10 sec/move: 25 min for 60 moves)``, ``unknown (no time
        control in the file)``."""
        return f"{self.pace.value} ({self.detail()})"


def rating_minimum(highest_rating: int | None) -> int:
    """B.02 (2024) 1.1: the least time for 60 moves with which a standard game is rated,
    from the higher rating of its two players: 120 minutes from 2400, 90 from 1800, 60 below
    (an unrated player counts as below 1800).

    >>> rating_minimum(2450), rating_minimum(2100), rating_minimum(1750), rating_minimum(None)
    (120, 90, 60, 60)
    """
    if highest_rating is not None and highest_rating >= 2400:
        return 120
    if highest_rating is not None and highest_rating >= 1800:
        return 90
    return 60


_ONLINE = re.compile(
    r"\b(online|internet|lichess|chess\.com|chess24|playchess|tornelo|chessclub\.com|"
    r"lichess\.org|chesskid)\b",
    re.IGNORECASE,
)
_PACE_WORDS = (
    (Pace.BLITZ, re.compile(r"\b(blitz|bullet|lightning)\b", re.IGNORECASE)),
    (
        Pace.RAPID,
        re.compile(r"\b(rapid|rapide|schnellschach|r[aá]pidas?|semi-?rapid|active)\b", re.I),
    ),
    (
        Pace.STANDARD,
        re.compile(r"\b(standard|classical|classic|klassisch|cadence lente|lente|slow)\b", re.I),
    ),
)


@functools.lru_cache(maxsize=256)
def _classify(
    time_control: str | None, event_type: str | None, where: tuple[str, ...]
) -> RateOfPlay:
    written = (time_control or "").strip()
    online = any(_ONLINE.search(text) for text in (written, event_type or "", *where) if text)
    minutes = minutes_for_60_moves(written) if written else None
    if minutes is not None:
        pace = (
            Pace.BLITZ
            if minutes <= RAPID_ABOVE
            else Pace.RAPID
            if minutes < STANDARD_FROM
            else Pace.STANDARD
        )
    else:
        pace = next(
            (
                p
                for p, words in _PACE_WORDS
                for text in (written, event_type or "")
                if words.search(text)
            ),
            Pace.UNKNOWN,
        )
    return RateOfPlay(pace, minutes, online, written)


def classify(
    time_control: str | None, event_type: str | None = None, where: Iterable[str] = ()
) -> RateOfPlay:
    """The rate of play from the time control (TRF ``122``/``222``) and the event type
    (``092``): the minutes for 60 moves when the time control can be read, else a word for
    the pace in either record (``Rapid``, ``Blitz``, ``Standard``); ``where`` (name, city,
    chief arbiter…) only tells whether the event was played online."""
    return _classify(time_control, event_type, tuple(where))


# --------------------------------------------------------------------------- time controls

_UNIT_WORDS = (
    (r"seconds?|secs?\.?|sekunden?|segundos?|sek\.?|сек\w*|s|\"|''", "s"),
    (r"hours?|hrs?|stunden?|std\.?|heures?|horas?|час\w*|h", "h"),
    (r"minutes?|minuten?|mins?\.?|minutos?|мин\w*|mn|m|'", "m"),
    (r"moves?|z[uü]ge|zuege|coups?|jugadas|tah\w*|ruch\w*|ход\w*|mv", "mv"),
)
_TOKEN = re.compile(
    r"(?P<num>\d+(?:[.,]\d+)?)\s*(?P<unit>"
    + "|".join(f"(?:{words})" for words, _ in _UNIT_WORDS)
    + r")?(?![a-zа-я])"
    + r"|(?P<mv>moves?|z[uü]ge|zuege|coups?|jugadas|tah\w*|ruch\w*|ход\w*)\b"
    + r"|(?P<sep>[/+,;])"
    + r"|\b(?P<in>in|for|per|f[uü]r|pour|por|en)\b"
)
_HOURS_MINUTES = re.compile(
    r"(\d+)\s*(?:h|hours?|hrs?)\s*(\d{1,2})\s*(?:m|min|mins|minutes|')?(?![\d\w'])"
)
_TRF26 = re.compile(r"(?:\d+/)?\d+(?:\+\d+)?(?::(?:\d+/)?\d+(?:\+\d+)?)*")


@dataclasses.dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    """``num`` (with :attr:`unit` ``h``, ``m``, ``s``, ``mv`` or ``""``), ``mv`` (the word
    alone), ``/``, ``+``, ``,``, ``in``."""
    value: Fraction = Fraction(0)
    unit: str = ""


def minutes_for_60_moves(text: str) -> Fraction | None:
    """Each player's time for 60 moves under a time control as files write it, or ``None``
    when it cannot be read.

    >>> minutes_for_60_moves("90 mins + 30sec increment"), minutes_for_60_moves("1h30+30s")
    (Fraction(120, 1), Fraction(120, 1))
    >>> minutes_for_60_moves("100'/40+50'/20+15'+30s"), minutes_for_60_moves("G/90;+30")
    (Fraction(180, 1), Fraction(120, 1))
    >>> minutes_for_60_moves("60 in 2hr, 30 in 1hr, rest in 1hr")  # 60 moves: the first period
    Fraction(120, 1)
    >>> minutes_for_60_moves("2 Stunden 40 / Zuege, 30 min. Rest")
    Fraction(150, 1)
    >>> minutes_for_60_moves("40/6000+30:900+30"), minutes_for_60_moves("180+2")
    (Fraction(145, 1), Fraction(5, 1))
    """
    plain = text.strip().lower()
    if _TRF26.fullmatch(plain.replace(" ", "")):
        return _bare(plain.replace(" ", ""))
    return _free_text(plain)


def _bare(text: str) -> Fraction | None:
    """``N``, ``N+I``, ``moves/N+I:…`` without units: TRF26 seconds, or minutes and seconds."""
    parsed = []
    for period in text.split(":"):
        moves_text, _, time_text = period.rpartition("/")
        base_text, _, inc_text = time_text.partition("+")
        parsed.append((int(moves_text) if moves_text else None, int(base_text), int(inc_text or 0)))
    moves, base, inc = parsed[0]
    seconds = (
        len(parsed) > 1
        or (moves is not None and base > 600)
        or base >= 300
        or (base >= 60 and "+" in text and inc <= 5)
    )
    if moves is not None and not seconds and len(parsed) == 1:
        # "40/120" in free text: 40 moves in 120 minutes
        return _total([(moves, Fraction(base))], Fraction(inc))
    scale = Fraction(1, 60) if seconds else Fraction(1)
    periods = [(m, b * scale) for m, b, _ in parsed]
    return _total(periods, Fraction(max(p[2] for p in parsed)))


def _free_text(text: str) -> Fraction | None:
    """A time control in words: periods (moves and time, ``40 moves in 2h``, ``90'/40``,
    ``40/90``, ``2h 40 / Zuege``; the last without moves) and an increment in seconds."""
    text = re.sub(r"\b(plus|and|then|puis|dann|et|und)\b|&", "+", text)
    text = re.sub(r"\bg\s*/?\s*(?=\d)", "", text)  # US "G/90", "G90": game in 90
    text = _HOURS_MINUTES.sub(lambda m: f"{int(m[1]) * 60 + int(m[2])}m", text)  # 1h30
    tokens = _tokens(text)
    seconds = [t.value for t in tokens if t.unit == "s"]
    increment = max(seconds, default=Fraction(0))
    tokens = [t for t in tokens if t.unit != "s"]
    periods: list[tuple[int | None, Fraction]] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.kind != "num":
            i += 1
            continue
        if t.unit == "mv" or (t.unit == "" and _moves_first(tokens, i)):
            # moves, then their time: "40 moves in 2h", "40/120", "60 in 2hr"
            found = _period_after(tokens, i + 1)
            if found is not None:
                periods.append((int(t.value), found[0]))
                i = found[1]
                continue
            i += 1
            continue
        # a time (or a bare number), perhaps followed by its moves: "90'/40", "2h for 40
        # moves", "2 Stunden 40 / Zuege"
        moves, j = _moves_after(tokens, i + 1)
        if (
            t.unit == ""
            and moves is None
            and periods
            and increment == 0
            and i == len(tokens) - 1
            and tokens[i - 1].kind == "+"
        ):
            increment = t.value  # "90' + 30": a trailing bare number is the increment
            break
        periods.append((moves, _minutes(t)))
        i = j
    if not periods:
        return None
    return _total(periods, increment)


def _tokens(text: str) -> list[_Tok]:
    tokens: list[_Tok] = []
    for m in _TOKEN.finditer(text):
        if m["num"]:
            unit = m["unit"] or ""
            unit = next((u for words, u in _UNIT_WORDS if unit and re.fullmatch(words, unit)), "")
            tokens.append(_Tok("num", _number(m["num"]), unit))
        elif m["mv"]:
            tokens.append(_Tok("mv"))
        elif m["sep"]:
            tokens.append(_Tok(m["sep"] if m["sep"] in "/+" else ","))
        else:
            tokens.append(_Tok("in"))
    # "30 s/move", "10 sec per move": the moves word belongs to the increment
    out: list[_Tok] = []
    for t in tokens:
        if t.kind == "mv" and len(out) >= 2 and out[-1].kind in ("/", "in") and out[-2].unit == "s":
            out.pop()
            continue
        out.append(t)
    return out


def _moves_first(tokens: list[_Tok], i: int) -> bool:
    """A bare number followed by ``/`` or ``in`` and a time: ``40/120``, ``60 in 2hr``."""
    nxt = tokens[i + 1] if i + 1 < len(tokens) else None
    after = tokens[i + 2] if i + 2 < len(tokens) else None
    return (
        nxt is not None
        and nxt.kind in ("/", "in")
        and after is not None
        and after.kind == "num"
        and after.unit in ("h", "m", "")
    )


def _period_after(tokens: list[_Tok], j: int) -> tuple[Fraction, int] | None:
    """The time after a number of moves (past ``/``, ``in``, the word "moves")."""
    while j < len(tokens) and tokens[j].kind in ("/", "in", "mv"):
        j += 1
    if j < len(tokens) and tokens[j].kind == "num" and tokens[j].unit in ("h", "m", ""):
        return _minutes(tokens[j]), j + 1
    return None


def _moves_after(tokens: list[_Tok], j: int) -> tuple[int | None, int]:
    """The number of moves a time is for, when it follows (``/40``, ``for 40 moves``,
    ``40 moves``, ``40 / Zuege``), and where the scan goes on."""
    rest = tokens[j : j + 3]
    kinds = [(t.kind, t.unit) for t in rest]
    word_after = len(rest) > 2 and rest[2].kind == "mv"
    if (
        len(rest) >= 2
        and kinds[0][0] in ("/", "in")
        and kinds[1] in (("num", ""), ("num", "mv"))
        and (kinds[0][0] == "/" or kinds[1][1] == "mv" or word_after)
    ):
        return int(rest[1].value), j + (3 if word_after else 2)
    if rest and kinds[0] == ("num", "mv"):
        return int(rest[0].value), j + 1
    if len(rest) >= 3 and kinds[0] == ("num", "") and rest[1].kind == "/" and rest[2].kind == "mv":
        return int(rest[0].value), j + 3
    return None, j


def _minutes(t: _Tok) -> Fraction:
    return t.value * 60 if t.unit == "h" else t.value


def _total(periods: list[tuple[int | None, Fraction]], increment_seconds: Fraction) -> Fraction:
    """Base time of every period that starts by move 60, plus 60 increments."""
    total, moves = Fraction(0), 0
    for count, minutes in periods:
        if moves >= 60:
            break
        total += minutes
        if count is None:
            break
        moves += count
    return total + increment_seconds  # 60 moves × s seconds = s minutes


def _number(text: str) -> Fraction:
    return Fraction(text.replace(",", "."))
