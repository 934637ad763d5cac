"""FIDE Tournament Report Files (TRF16, and the TRF26 records) in, input events out.

:func:`parse_trf` (:mod:`.read`) reads the text of a file into a :class:`TrfFile`
(:mod:`.model`, the file's values); :func:`to_events` (:mod:`.events`) turns it into the
stream of input events (:mod:`tracker.contract`) that the tournament would have produced
live; :func:`format_trf` (:mod:`.write`) writes a :class:`TrfFile` back as TRF16 text.

What is read
============

Columns are 1-based, as in the FIDE text (C.04 Annex 2, "TRF16"; TRF26 keeps the same player
record). Lines may end in CR LF, LF or CR alone; trailing blanks may be trimmed, so a line may
be shorter than the full width. Lines beginning with ``###`` are comments. Records of a type
not listed below (team records ``013`` and ``3xx``, JaVaFo's ``XX?``, the column rulers some
programs print) are kept in :attr:`TrfFile.records` and otherwise ignored. The text comes from
the file's bytes through :func:`tracker.formats.decoding.decode` (UTF-8, Windows-1250/1252 or
Latin-1, detected).

* ``012`` name, ``022`` city, ``032`` federation, ``042`` start date, ``052`` end date,
  ``062``/``072``/``082`` numbers of players, rated players and teams (a note in brackets
  after the number is dropped: ``062 129 (88)``), ``092`` type of tournament, ``102`` chief
  arbiter, ``112`` deputy arbiter (one line each), ``122`` time control, ``132`` round dates
  (at columns 92-99, 102-109, …). The value of a record starts at column 5.
* Dates (``042``, ``052``, ``132``, birth dates) in every form exporters write
  (:mod:`tracker.formats.dates`): ``YYYY/MM/DD``, ``YYYY.MM.DD``, ``YYYY-MM-DD``,
  ``DD.MM.YYYY``, ``DD. MM. YYYY``, ``DD/MM/YYYY``, ``May 29, 2020``, ``29. Mai 2020``; in
  ``132`` two-digit years as ``YY/MM/DD`` or ``DD.MM.YY``, one order for the whole line
  (the one that fits the start date).
* TRF26: ``142`` number of rounds, ``152`` initial colour (``W``/``B``), ``162`` scoring
  system, ``172`` starting-rank method, ``182`` pairing controller, ``192`` encoded type of
  tournament, ``202``/``212`` tie-breaks, ``222`` encoded time control. All but ``142`` and
  ``152`` are kept as text.
* ``001`` player: start rank 5-8, sex 10 (``m``; ``w`` or ``f`` for a woman), title 11-13,
  name 15-47, rating 49-52 (blank or ``0`` for unrated), federation 54-56 (blank, or three
  letters that are not a code on FIDE's list such as an anonymised ``ZZZ``: unknown, ``null``
  on ``player_registered``), FIDE id 58-68 (blank, ``0`` or dashes for none), birth
  date 70-79 (a date, a year alone, ``YYYY/00/00``; blank, zeros or ``    /  /`` for
  none), points 81-84, rank 86-89; then one cell per round, ten columns apart from column 92:
  opponent 92-95 (``0000``, ``0`` or blank for none), colour 97 (``w``, ``b``, ``-``; blank
  is ``-``), result 99 (``1 = 0 + - W D L H F U Z``, any case; blank is ``Z``; ``=`` without
  an opponent is a half-point bye, as Swiss Master writes it). A cell with an opponent and a
  blank result is a game paired but not yet finished.

Project extension records
=========================

The FIDE formats cannot say everything the norm rules need, so the project adds records in
the style of JaVaFo's ``XX?`` records (which start with ``X`` so that FIDE tools skip them).
Each is the code, a blank, then the value from column 5:

* ``XXR n``: planned number of rounds (as in JaVaFo). Without it, ``142``; without that, the
  number of round dates in ``132``; without that, for a round robin, the rounds its players
  need; else the number is unknown (:attr:`TrfFile.planned_rounds`).
* ``XNS system``: pairing system, ``swiss``, ``round_robin``, ``double_round_robin`` or
  ``unknown`` (:class:`~tracker.domain.tournaments.System`). Without it the system is read
  from ``092``, ``192``, the field against the planned rounds and the pairings
  (:mod:`tracker.formats.pairing_system`), and is ``unknown`` where they are missing or
  disagree.
* ``XNK kind kind …``: kinds of event the regulations treat specially, as the values of
  :class:`~tracker.domain.tournaments.EventKind` (``zonal``, ``national_championship_final``, …).
* ``XNH FED``: host federation. Without it, the ``032`` record.
* ``XNI id``: tournament id for the events. Without it, a slug of the ``012`` name, Greek
  and Cyrillic letters transliterated (:attr:`TrfFile.tournament_id`).

Errors
======

A malformed line raises :exc:`TrfError`, whose message names the line and column (1-based)
and the field:

>>> parse_trf("001    1      Kovacs, Adam                      ab12 HUN")
Traceback (most recent call last):
...
tracker.formats.trf.model.TrfError: line 1, column 49: rating 'ab12' is not a number
"""

from __future__ import annotations

from tracker.formats.trf.events import player_events, to_events
from tracker.formats.trf.model import (
    CELL_WIDTH,
    FIRST_CELL_COLUMN,
    Cell,
    TrfError,
    TrfFile,
    TrfHeader,
    TrfPlayer,
    TrfRecord,
    format_points,
    parse_birth,
    slugify,
)
from tracker.formats.trf.read import NOT_TRF, parse_trf
from tracker.formats.trf.write import format_cell, format_player_line, format_trf

__all__ = [
    "CELL_WIDTH",
    "FIRST_CELL_COLUMN",
    "NOT_TRF",
    "Cell",
    "TrfError",
    "TrfFile",
    "TrfHeader",
    "TrfPlayer",
    "TrfRecord",
    "format_cell",
    "format_player_line",
    "format_points",
    "format_trf",
    "parse_birth",
    "parse_trf",
    "player_events",
    "slugify",
    "to_events",
]
