"""Writes the *authored* files of this directory: invented tournaments (invented players,
ids 9xxxxxxx or none) that reproduce what real exports do, where the real files' licences
do not let the project commit them (SOURCES.md says which quirk comes from where).

Deterministic: ``python tests/data/real/authored.py`` rewrites every file byte for byte
(``tests/unit/test_real_corpus.py`` checks that it does). The pairings are a plain Swiss (score
groups, no repeats) or round robin (Berger tables); results are drawn from the ratings
with a fixed seed; nothing here is the project's reader or writer.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))  # the checkout, for tests.support.builders

from tests.support.builders import berger  # noqa: E402  (after the path above)


@dataclasses.dataclass
class P:
    rank: int
    name: str
    rating: int | None
    fed: str = ""
    sex: str = "m"
    title: str = ""
    fide_id: int | None = None
    birth: str = ""
    cells: list[tuple[int | None, str, str] | None] = dataclasses.field(default_factory=list)
    """One per round; ``None`` for a blank cell."""

    @property
    def points(self) -> float:
        value = {"1": 1.0, "=": 0.5, "+": 1.0, "H": 0.5, "F": 1.0, "U": 1.0, "W": 1.0}
        return sum(value.get(c[2], 0.0) for c in self.cells if c is not None)

    def met(self) -> set[int]:
        return {c[0] for c in self.cells if c is not None and c[0] is not None}


def result(white: P, black: P, rng: random.Random) -> tuple[str, str]:
    """A result drawn from the ratings (the Elo expectation, a third of games drawn)."""
    d = (white.rating or 1400) - (black.rating or 1400) + 35
    expected = 1 / (1 + 10 ** (-d / 400))
    draw = 0.32
    x = rng.random()
    if x < expected - draw / 2:
        return "1", "0"
    if x < expected + draw / 2:
        return "=", "="
    return "0", "1"


def swiss(
    players: list[P],
    rounds: int,
    rng: random.Random,
    *,
    absent: Callable[[P, int], str | None] = lambda p, r: None,
    played: int | None = None,
) -> None:
    """A plain Swiss: in each round the players present, by score then rating, are paired
    down the list with the first they have not met; an odd one out gets a pairing-allocated
    bye. ``absent(p, r)`` gives a bye letter (``H``, ``Z``, ``F``) for a player not paired;
    ``played`` rounds have results, the rest only the byes entered ahead."""
    for r in range(1, rounds + 1):
        here = []
        for p in players:
            letter = absent(p, r)
            if letter:
                p.cells.append((None, "-", letter))
            elif r <= (played or rounds):
                here.append(p)
        if r > (played or rounds):
            continue
        here.sort(key=lambda p: (-p.points, -(p.rating or 0), p.rank))
        free = list(here)
        if len(free) % 2:
            bye = next(p for p in reversed(free) if all(c is None or c[2] != "U" for c in p.cells))
            free.remove(bye)
            bye.cells.append((None, "-", "U"))
        while free:
            a = free.pop(0)
            b = next((q for q in free if q.rank not in a.met()), free[0])
            free.remove(b)
            colours = [c[1] for c in a.cells if c is not None]
            whites = colours.count("w") - colours.count("b")
            white, black = (b, a) if whites > 0 else (a, b)
            rw, rb = result(white, black, rng)
            white.cells.append((black.rank, "w", rw))
            black.cells.append((white.rank, "b", rb))


def cell(c: tuple[int | None, str, str] | None, lichess: bool = False) -> str:
    if c is None:
        return " " * 10
    opponent, colour, res = c
    if opponent is None:
        return f"       {res}  " if lichess else f"0000 - {res}  "
    return f"{opponent:4d} {colour} {res}  "


def line(p: P, place: int, *, lichess: bool = False, rank_blank: bool = False) -> str:
    rating = "" if p.rating is None else str(p.rating)
    out = (
        f"001 {p.rank:4d} {p.sex}{p.title:>3} {p.name:<33} {rating:>4} {p.fed:<3} "
        f"{p.fide_id or '':>11} {p.birth:<10} {p.points:4.1f} "
        f"{'' if rank_blank else place:>4}  "
    )
    return out + "".join(cell(c, lichess) for c in p.cells)


def places(players: Sequence[P]) -> dict[int, int]:
    order = sorted(players, key=lambda p: (-p.points, -(p.rating or 0), p.rank))
    return {p.rank: i for i, p in enumerate(order, 1)}


OUT = [HERE]
"""Where :func:`write` puts the files (the test regenerates them elsewhere)."""


def write(name: str, lines: list[str], *, newline: str = "\n", encoding: str = "utf-8") -> None:
    data = newline.join(lines) + newline
    (OUT[0] / name).write_bytes(data.encode(encoding))


def dates_132(start: date, per_round: Sequence[int], fmt: str) -> str:
    """Record 132: the date of each round (``per_round``: days after the start)."""
    text = "".join(f"{(start + timedelta(days=d)).strftime(fmt):<10}" for d in per_round)
    return f"{'132':<91}{text}".rstrip()


# --------------------------------------------------------------------------- the files


def karl_mala_style() -> None:
    """Swiss-Manager's TRF16 as FIDE's own sample shows it: ``28. 07. 2005`` dates, blank
    032, a blank 132, titles as rating-list letters, many blank federations, ``40/120, 60``,
    a withdrawal by a forfeit with the opponent named (``- -``), a "spielfrei" dummy player,
    sex ``f``, Latin-1 with German names, CR LF."""
    rng = random.Random(2005)
    first = ["Jürgen", "Björn", "Günter", "Klaus", "Jörg", "Uwe", "Sönke", "Heiko", "Timo"]
    last = ["Müller", "Jäger", "Weiß", "Köhler", "Schröder", "Bäcker", "Krüger", "Hofmann"]
    players = []
    for rank in range(1, 42):
        rating = 2560 - rank * 14 + rng.randint(-10, 10) if rank < 36 else None
        title = "  g" if rank <= 3 else "  m" if rank <= 8 else "  f" if rank <= 12 else ""
        woman = rank in (7, 19, 26)
        fed = "" if rank % 5 else ["GER", "POL", "UKR", "CHI", "GER", "GER"][(rank // 5) % 6]
        players.append(
            P(
                rank,
                f"{last[rank % len(last)]},{first[rank % len(first)]}{'e' if woman else ''}",
                rating,
                fed,
                "f" if woman else " ",
                " wf" if woman and title else title,
                90_100_000 + rank if rating else None,
                f"19{50 + rank % 45:02d}.{1 + rank % 12:02d}.{1 + rank % 28:02d}",
            )
        )
    dropout = players[12]
    opponent = players[36]
    swiss(
        [p for p in players if p not in (dropout, opponent)],
        7,
        rng,
    )
    dropout.cells = [(opponent.rank, "-", "-")]
    opponent.cells = [(dropout.rank, "-", "+"), *[(None, "-", "Z")] * 6]
    spielfrei = P(42, "spielfrei", None, "", " ", "", None, "")
    spielfrei.cells = [None] * 6 + [(None, "-", "-")]
    everyone = [*players, spielfrei]
    at = places(everyone)
    lines = [
        "012 4. Sommer-Open Beispielstadt",
        "022 Beispielstadt (Main) /GER",
        "032",
        "042 28. 07. 2005",
        "052 31. 07. 2005",
        "062 42",
        "072 35",
        "082 0",
        "092 Individual: Swiss-System (Standard)",
        "102 Erika Musterfrau (SV Beispiel)",
        "112 NSR Max Mustermann, NSR Hans Beispiel",
        "122 40/120, 60",
        "132",
    ]
    for p in everyone:
        text = line(p, at[p.rank] if p.name != "spielfrei" else 0)
        lines.append(text + " " if p.rank % 3 else text)  # some lines keep a trailing blank
    write("authored-karl-mala-style-2005.trf", lines, newline="\r\n", encoding="latin-1")


def lichess_style() -> None:
    """A lichess Swiss export: ``Jun 5, 2020``, the city and chief arbiter as lichess
    addresses, no ratings, federations or ids, byes with a blank opponent (``       H``),
    absences as ``-``, XXR and XXC."""
    rng = random.Random(2020)
    names = [
        "quietknight", "pawnstorm77", "zugzwang_jo", "fianchetto", "rookie1999", "hippo_def",
        "en_passant", "blitzkrieg", "castle_long", "knightmare", "gambit_gus", "dragonslayer",
        "opposition",
    ]  # fmt: skip
    players = [P(i, n, None, "", " ") for i, n in enumerate(names, 1)]
    ratings = {p.rank: 2100 - 40 * p.rank for p in players}
    for p in players:
        p.rating = ratings[p.rank]
    swiss(
        players,
        10,
        rng,
        absent=lambda p, r: (
            "H"
            if (p.rank, r) in ((5, 1), (8, 1))
            else "-"
            if (p.rank == 8 and r > 1) or (p.rank, r) == (13, 4)
            else None
        ),
    )
    for p in players:
        p.rating = None  # lichess ratings are not FIDE ratings: the export leaves them out
    lines = [
        "012 Juni 3 Plus 2 Turnier",
        "022 https://lichess.org/swiss/Xq3vB9aT",
        "032 Lichess",
        "042 Jun 5, 2020",
        "052 Jun 5, 2020",
        "062 13",
        "072 0",
        "082 0",
        "092 Individual: Swiss-System",
        "102 https://lichess.org/swiss",
        "112",
        "122",
        "132",
        "XXR 10",
        "XXC white1",
    ]
    lines += [line(p, 0, lichess=True, rank_blank=True) for p in players]
    write("authored-lichess-swiss-2020.trf", lines)


CZECH_RR = [
    # rank, name, rating, fed, sex, title
    (1, "Procházka, Vojtěch", 2380, "CZE", "m", "FM"),
    (2, "Kowalski, Łukasz", 2520, "POL", "m", "GM"),
    (3, "Dvořák, Tomáš", 2440, "CZE", "m", "IM"),
    (4, "Nagy, Gábor", 2410, "HUN", "m", "IM"),
    (5, "Šťastný, Jiří", 2400, "CZE", "m", "IM"),
    (6, "Wiśniewska, Małgorzata", 2350, "POL", "w", "WGM"),
    (7, "Horváth, Ödön", 2330, "HUN", "m", "FM"),
    (8, "Růžička, Pavel", 2280, "CZE", "m", ""),
    (9, "Łukaszewski, Bartłomiej", 2260, "POL", "m", "FM"),
    (10, "Kováč, Ľubomír", 2210, "SVK", "m", ""),
]
CANDIDATE = {2: "=", 3: "1", 4: "=", 5: "1", 6: "=", 7: "1", 8: "1", 9: "=", 10: "0"}
"""Player 1's result against each opponent: 6/9, the IM norm the corpus test checks."""


def czech_round_robin() -> None:
    """A Czech round robin in Windows-1250 with Czech, Polish, Hungarian and Slovak names,
    ``05.10.2019`` dates, CR line ends (as TRF16 asks), and an IM norm for player 1."""
    rng = random.Random(2019)
    players = {r: P(r, n, rt, f, s, t, 91_000_000 + r, f"19{70 + r}/0{1 + r % 9}/1{r % 9}")
               for r, n, rt, f, s, t in CZECH_RR}  # fmt: skip
    opposite = {"1": "0", "0": "1", "=": "="}
    for pairs in berger(10):
        for w, b in pairs:
            if 1 in (w, b):
                other = b if w == 1 else w
                mine = CANDIDATE[other]
                rw, rb = (mine, opposite[mine]) if w == 1 else (opposite[mine], mine)
            else:
                rw, rb = result(players[w], players[b], rng)
            players[w].cells.append((b, "w", rw))
            players[b].cells.append((w, "b", rb))
    at = places(list(players.values()))
    start = date(2019, 10, 5)
    lines = [
        "012 Memoriál Jana Šťastného 2019",
        "022 Třinec",
        "032 CZE",
        "042 05.10.2019",
        "052 13.10.2019",
        "062 10",
        "072 10",
        "092 Individual: Round-Robin",
        "102 IA Novák, Miroslav",
        "122 90 min/40 tahů + 30 min + 30 s/tah",
        dates_132(start, range(9), "%y/%m/%d"),
    ]
    lines += [line(p, at[p.rank]) for p in players.values()]
    write("authored-czech-round-robin-cp1250-2019.trf", lines, newline="\r", encoding="cp1250")


def greek_open() -> None:
    """A Greek open in UTF-8: Greek tournament and player names, ``2023-07-01`` dates,
    ``90'+30"``, one player of unknown (blank) federation."""
    rng = random.Random(2023)
    names = [
        ("Παπαδόπουλος, Γιώργος", 2455, "GRE", "IM"), ("Κωνσταντίνου, Ελένη", 2190, "GRE", "WIM"),
        ("Νικολάου, Ανδρέας", 2360, "CYP", "FM"), ("Δημητρίου, Σταύρος", 2310, "GRE", "FM"),
        ("Γεωργίου, Μαρία", 2050, "CYP", ""), ("Ιωάννου, Πέτρος", 2240, "GRE", "CM"),
        ("Αλεξίου, Νίκος", 1980, "", ""), ("Βασιλείου, Κατερίνα", 1910, "GRE", ""),
        ("Χριστοδούλου, Άγγελος", 2120, "GRE", ""), ("Σπυρόπουλος, Θανάσης", 1875, "GRE", ""),
    ]  # fmt: skip
    players = [
        P(i, n, r, f, "w" if t.startswith("W") or n.endswith(("η", "α")) else "m", t, 4_290_000 + i)
        for i, (n, r, f, t) in enumerate(names, 1)
    ]
    swiss(players, 5, rng)
    at = places(players)
    start = date(2023, 7, 1)
    lines = [
        "012 Ανοιχτό Πρωτάθλημα Πάτρας 2023",
        "022 Πάτρα",
        "032 GRE",
        "042 2023-07-01",
        "052 2023-07-05",
        "092 Individual: Swiss-System",
        "102 IA Παπαγεωργίου Ιωάννης",
        "122 90'+30\"",
        dates_132(start, range(5), "%y/%m/%d"),
    ]
    lines += [line(p, at[p.rank]) for p in players]
    write("authored-greek-open-utf8-2023.trf", lines)


def cyrillic_cup() -> None:
    """A Russian-language export in UTF-8 with a byte-order mark: Cyrillic names,
    ``21.05.2021`` and round dates as ``DD.MM.YY``, the time control in Russian."""
    rng = random.Random(2021)
    names = [
        ("Иванов, Иван", 2310, "FM"), ("Петрова, Анна", 2205, "WIM"),
        ("Сидоров, Пётр", 2150, ""), ("Кузнецов, Алексей", 2080, ""),
        ("Смирнова, Ольга", 1990, ""), ("Попов, Дмитрий", 1950, ""),
        ("Волков, Сергей", 1890, ""), ("Фёдоров, Никита", 1820, ""),
    ]  # fmt: skip
    players = [
        P(i, n, r, "RUS", "w" if "а," in n else "m", t, 24_100_000 + i)
        for i, (n, r, t) in enumerate(names, 1)
    ]
    swiss(players, 5, rng)
    at = places(players)
    lines = [
        "012 Кубок Новосибирска 2021",
        "022 Новосибирск",
        "032 RUS",
        "042 21.05.2021",
        "052 23.05.2021",
        "092 Швейцарская система",
        "122 90 мин + 30 сек на ход",
        dates_132(date(2021, 5, 21), (0, 0, 1, 1, 2), "%d.%m.%y"),
    ]
    lines += [line(p, at[p.rank]) for p in players]
    write("authored-cyrillic-cup-utf8-bom-2021.trf", lines, encoding="utf-8-sig")


def rapid_championship() -> None:
    """A strong rapid championship (``122 15 min + 10 sec/move``): GMs and IMs whose
    results would make norm prospects in a standard event."""
    rng = random.Random(2025)
    feds = ["ESP", "FRA", "GER", "ITA", "POR", "NED", "POL", "SRB", "HUN", "ROU"]
    players = []
    for rank in range(1, 61):
        rating = 2680 - rank * 9
        title = "GM" if rank <= 15 else "IM" if rank <= 30 else "FM" if rank <= 45 else ""
        players.append(
            P(rank, f"Rapidplayer, No{rank:02d}", rating, feds[rank % 10], "m", title,
              93_000_000 + rank, f"{1975 + rank % 30}/01/01")
        )  # fmt: skip
    swiss(players, 9, rng)
    at = places(players)
    lines = [
        "012 Campeonato de Europa de Rápidas (ficticio) 2025",
        "022 Ciudad Ejemplo",
        "032 ESP",
        "042 2025/12/12",
        "052 2025/12/13",
        "062 60",
        "072 60",
        "092 Individual: Swiss-System (Rapid)",
        "102 IA Ejemplo, Juan (93999999)",
        "122 15 min + 10 sec/move",
        dates_132(date(2025, 12, 12), (0, 0, 0, 0, 0, 1, 1, 1, 1), "%y/%m/%d"),
        "XXR 9",
    ]
    lines += [line(p, at[p.rank]) for p in players]
    write("authored-rapid-championship-2025.trf", lines)


def team_swiss() -> None:
    """A Swiss-Manager team export: column rulers, ``062 32 (30)``, TRF26 records (142,
    192), team records ``013`` and ``310`` (kept and ignored), sex ``f``, ``YY/MM/DD``."""
    rng = random.Random(2023)
    teams = [f"Klub {c}" for c in "ABCDEFGH"]
    players: list[P] = []
    for t in range(8):
        for board in range(4):
            rank = t * 4 + board + 1
            woman = board == 3 and t % 2 == 0
            players.append(
                P(rank, f"Spieler{'in' if woman else ''}, {teams[t][-1]}{board + 1}",
                  2300 - t * 30 - board * 40, "AUT" if t < 6 else "", "f" if woman else "m",
                  "", 16_000_000 + rank, f"{1980 + rank}/00/00")
            )  # fmt: skip
    scores = [0.0] * 8
    met: set[tuple[int, int]] = set()
    for r in range(1, 8):
        order = sorted(range(8), key=lambda t: (-scores[t], t))
        while order:
            a = order.pop(0)
            b = next((t for t in order if (a, t) not in met), order[0])
            order.remove(b)
            met |= {(a, b), (b, a)}
            points = 0.0
            for board in range(4):
                pa, pb = players[a * 4 + board], players[b * 4 + board]
                white, black = (pa, pb) if (board + r) % 2 == 0 else (pb, pa)
                rw, rb = result(white, black, rng)
                white.cells.append((black.rank, "w", rw))
                black.cells.append((white.rank, "b", rb))
                points += {"1": 1, "=": 0.5, "0": 0}[rw if white is pa else rb]
            scores[a] += 2 if points > 2 else 1 if points == 2 else 0
            scores[b] += 2 if points < 2 else 1 if points == 2 else 0
    at = places(players)
    lines = [
        "012 Landesliga Beispiel 2023/24",
        "022 Beispielort",
        "032 AUT",
        "042 2023/11/10",
        "052 2023/11/12",
        "062 32 (30)",
        "072 32",
        "082 8",
        "092 Team Swiss System",
        "102 IA Beispiel, Anna",
        "122 90 min + 30 sec/move",
        "142 7",
        "192 FIDE_TEAM_BAKU",
        dates_132(date(2023, 11, 10), (0, 0, 1, 1, 1, 2, 2), "%y/%m/%d"),
        "",
        "".join(f"{n:>10}" for n in range(1, 10)),  # the column rulers
        "1234567890" * 9,
        "DDD SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR",
    ]
    lines += [line(p, at[p.rank]) + "  " for p in players]
    lines.append("")
    for t, name in enumerate(teams):
        ranks = "".join(f"{t * 4 + b + 1:5d}" for b in range(4))
        lines.append(f"013 {name:<32}{ranks}")
    for t, name in enumerate(teams):
        ranks = " ".join(f"{t * 4 + b + 1:4d}" for b in range(4))
        fields = f"{'':5} {2200:6d} {scores[t]:6.1f} {0:6.1f} {t + 1:3d}"
        lines.append(f"310 {t + 1:3d} {name:<32} {fields}  {ranks}")
    write("authored-swiss-manager-team-2023.trf", lines)


def javafo_style_cut() -> None:
    """A pairing program's TRF(x) input as JaVaFo's sample shows it: ``24/09/2010`` dates,
    ``122 moves/time, increment`` (a template), XXR 9 and XXA acceleration records, four of
    nine rounds played and half-point byes already entered for round 5."""
    rng = random.Random(2010)
    players = [
        P(r, f"Jugador {r:02d}, Nombre", 2500 - r * 22, ["ESP", "FRA", "POR"][r % 3], "m",
          "GM" if r < 3 else "IM" if r < 6 else "", 22_000_000 + r, f"{1960 + r}")
        for r in range(1, 31)
    ]  # fmt: skip
    swiss(
        players,
        5,
        rng,
        played=4,
        absent=lambda p, r: "H" if (r == 5 and p.rank in (24, 25)) else None,
    )
    at = places(players)
    lines = [
        "012 Open Internacional de Ejemplo",
        "022 Ciudad Ejemplo",
        "032 ESP",
        "042 24/09/2010",
        "052 02/10/2010",
        "062 30",
        "072 30",
        "082 0",
        "092 Individual: Swiss-System",
        "102 IA Ejemplo Arbitro, Juan (22999999)",
        "112",
        "122 moves/time, increment",
        "XXR 9",
    ]
    lines += [f"XXA {r:4d}  1.0  1.0  1.0  0.5  0.5" for r in range(1, 16)]
    lines += [line(p, at[p.rank]) for p in players]
    write("authored-javafo-style-cut-2010.trf", lines)


FIRST = ["Jérôme", "Hélène", "François", "Stéphane", "Loïc", "Gaëlle", "Anaïs", "Benoît",
         "Léa", "Mathéo", "Noël", "Cécile", "Théo", "Agnès", "Éric", "Zoé", "Raphaël",
         "Inès", "Maël", "Chloé", "Hugo", "Lucas", "Emma", "Jules", "Manon"]  # fmt: skip
LAST = ["Lefèvre", "Béranger", "Chevalier", "Dubois", "Moreau", "Laurent", "Girard",
        "Bonnet", "Dupré", "Lemaître", "Fournier", "Mercier", "Garçon", "Faure", "Rousseau",
        "Blanc", "Guérin", "Müller", "Gómez", "Nuñez", "Øster", "Lambert", "Fontaine",
        "Rivière", "Leroy", "Roux", "Vincent", "Mathieu", "Clément", "Gauthier",
        "Cœur"]  # fmt: skip
FEDS = ["FRA"] * 14 + ["ESP", "ITA", "GER", "SUI", "BEL", "ALG", "MAR", "IND", "UKR", ""]


def french_open() -> None:
    """SYNTHETIC: a French open of 580 players and 9 rounds, the size of the largest real
    files (a speed target), in Windows-1252 with French names; titled players at the top,
    unrated players, blank federations, half-point byes, withdrawals, ``12/07/2025``."""
    rng = random.Random(580)
    players = []
    for rank in range(1, 581):
        rating = max(1000, int(2680 - 2.9 * rank + rng.randint(-25, 25))) if rank < 540 else None
        title = (
            "GM"
            if rank <= 12
            else "IM"
            if rank <= 30
            else "FM"
            if rank <= 60
            else "CM"
            if rank <= 75
            else ""
        )
        woman = rng.random() < 0.12
        if woman and title:
            title = {"GM": "WGM", "IM": "WIM", "FM": "WFM", "CM": "WCM"}[title]
        name = f"{LAST[rng.randrange(len(LAST))]}, {FIRST[rng.randrange(len(FIRST))]}"
        players.append(
            P(rank, name, rating, FEDS[rng.randrange(len(FEDS))], "w" if woman else "m",
              title, 26_000_000 + rank if rating else None,
              f"{1950 + rng.randrange(65)}/{1 + rng.randrange(12):02d}/{1 + rng.randrange(28):02d}")
        )  # fmt: skip
    byes = {(rng.randrange(60, 580), rng.randrange(1, 8)) for _ in range(40)}
    gone = {rng.randrange(100, 580): rng.randrange(4, 9) for _ in range(12)}
    swiss(
        players,
        9,
        rng,
        absent=lambda p, r: (
            "H" if (p.rank, r) in byes else "Z" if p.rank in gone and r >= gone[p.rank] else None
        ),
    )
    at = places(players)
    lines = [
        "012 SYNTHETIC Open International de Sète-sur-Mer 2025 (généré)",
        "022 Sète-sur-Mer",
        "032 FRA",
        "042 12/07/2025",
        "052 20/07/2025",
        "062 580",
        "072 539",
        "092 Individual: Swiss-System",
        "102 AI Arbitre, Exemple (20999999)",
        "122 90 min + 30 s/coup",
        dates_132(date(2025, 7, 12), range(9), "%y/%m/%d"),
        "XXR 9",
    ]
    lines += [line(p, at[p.rank]) for p in players]
    write("synthetic-french-open-580-2025.trf", lines, newline="\r\n", encoding="cp1252")


ALL = (
    karl_mala_style,
    lichess_style,
    czech_round_robin,
    greek_open,
    cyrillic_cup,
    rapid_championship,
    team_swiss,
    javafo_style_cut,
    french_open,
)


if __name__ == "__main__":
    for make in ALL:
        make()
