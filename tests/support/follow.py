"""Helpers for following tests: live snapshots cut from a finished TRF, a broadcast PGN
written from one, and a local HTTP server that serves whatever the test puts there, and can
misbehave as a hostile or broken server would."""

from __future__ import annotations

import contextlib
import dataclasses
import email.utils
import gzip
import hashlib
import io
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from follow.embedded import EmbeddedSink
from follow.runner import Follower, Options
from follow.sources import Source
from tests.support.paths import ROOT
from tracker.domain.results import Code, format_result
from tracker.formats.start_list import StartList
from tracker.formats.trf import Cell, TrfFile, TrfPlayer, format_trf, parse_trf
from tracker.host.replay import Replay, read_events, render
from tracker.ingest.ledger import Report

SEEDS = ROOT / "seeds"

AHEAD = (Code.HALF_BYE, Code.FULL_BYE, Code.ZERO_BYE)
"""Byes an arbiter enters before the round is paired."""


def boards(trf: TrfFile, round_: int) -> list[tuple[int, int]]:
    """The boards of a round as (lower, higher) start ranks, in that order."""
    out = set()
    for p in trf.players:
        c = p.cell(round_)
        if c is not None and c.opponent is not None:
            out.add((min(p.rank, c.opponent), max(p.rank, c.opponent)))
    return sorted(out)


def cut(
    trf: TrfFile,
    round_: int,
    results: int | None = None,
    *,
    ahead: bool = False,
    finished: Sequence[tuple[int, int]] | None = None,
) -> TrfFile:
    """The file as the arbiter's program writes it during round ``round_``: the rounds
    before it whole, round ``round_`` paired with the results of its first ``results``
    boards (by :func:`boards`; every board when ``None``, or those of ``finished``), no later
    round, except with ``ahead`` the half-point, full-point and zero byes already entered for
    later rounds. Round 0 is the start list alone."""
    done = set(boards(trf, round_)[:results] if finished is None else finished)
    players = []
    for p in trf.players:
        cells: list[Cell | None] = []
        for r, c in enumerate(p.cells, 1):
            if r < round_:
                cells.append(c)
            elif r == round_:
                if c is not None and c.opponent is not None:
                    board = (min(p.rank, c.opponent), max(p.rank, c.opponent))
                    if board not in done:
                        c = Cell(c.opponent, c.colour, None)
                cells.append(c)
            elif ahead and c is not None and c.opponent is None and c.code in AHEAD:
                cells.append(c)
            else:
                cells.append(None)
        while cells and cells[-1] is None:
            cells.pop()
        score = TrfPlayer(rank=p.rank, name=p.name, cells=tuple(cells)).score
        players.append(dataclasses.replace(p, cells=tuple(cells), points=score, final_rank=None))
    return dataclasses.replace(trf, players=tuple(players))


def live(trf: TrfFile, *, ahead: bool = False) -> list[str]:
    """Snapshots of a whole event: the start list, then for each round its pairing, half its
    results and all of them."""
    out = [format_trf(cut(trf, 0, ahead=ahead))]
    for r in range(1, trf.rounds + 1):
        half = len(boards(trf, r)) // 2
        for k in (0, half, None):
            out.append(format_trf(cut(trf, r, k, ahead=ahead)))
    return out


def seed(name: str) -> TrfFile:
    return parse_trf((SEEDS / name).read_text(encoding="utf-8"))


def replay_lines(text: str, name: str = "final.trf") -> list[str]:
    """What ``tracker replay --format jsonl`` prints for the text of a file."""
    run = Replay()
    out: list[str] = []
    for item in read_events(text, name):
        out.extend(render(run, item, run.feed(item), "jsonl", 10, set()))
    return out


# --------------------------------------------------------------------------- PGN


def pgn_game(
    trf: TrfFile,
    round_: int,
    white: int,
    black: int,
    result: str | None,
    *,
    fide_ids: bool = True,
    name_style: str = "as-is",
) -> str:
    """One broadcast game of the board, its result ``*`` while ``result`` is ``None``."""
    w, b = trf.player(white), trf.player(black)

    def name(p: TrfPlayer) -> str:
        if name_style == "initial" and "," in p.name:
            last, first = p.name.split(",", 1)
            return f"{last.strip()},{first.strip()[:1]}"
        if name_style == "first-last" and "," in p.name:
            last, first = p.name.split(",", 1)
            return f"{first.strip()} {last.strip()}"
        return p.name

    listed = boards(trf, round_)
    pair = (min(white, black), max(white, black))
    board = listed.index(pair) + 1 if pair in listed else len(listed) + 1
    tags = [
        ("Event", trf.header.name),
        ("Site", trf.header.city or "?"),
        ("Date", "????.??.??"),
        ("Round", f"{round_}.{board}"),
        ("White", name(w)),
        ("Black", name(b)),
        ("Result", result or "*"),
    ]
    if fide_ids:
        tags += [("WhiteFideId", str(w.fide_id or "")), ("BlackFideId", str(b.fide_id or ""))]
    tags += [("WhiteElo", str(w.rating or "")), ("BlackElo", str(b.rating or ""))]
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags)
    return f"{head}\n1. d4 d5 {result or '*'}\n\n"


def games(trf: TrfFile, round_: int) -> list[tuple[int, int, str | None]]:
    """(white, black, result) of every board of the round, from the file (``None`` while
    the board has no result)."""
    out = []
    for a, b in boards(trf, round_):
        ca, cb = trf.player(a).cell(round_), trf.player(b).cell(round_)
        assert ca is not None
        assert cb is not None
        if ca.colour == "b" or (ca.colour == "-" and cb.colour == "w"):
            (a, ca), (b, cb) = (b, cb), (a, ca)
        result = format_result(ca.code, cb.code) if ca.code and cb.code else None
        out.append((a, b, result))
    return out


def pgn_of(trf: TrfFile, upto_round: int, **style: object) -> str:
    """A broadcast of every board of rounds 1 … ``upto_round`` as the file has them."""
    return "".join(
        pgn_game(trf, r, w, b, result, **style)  # type: ignore[arg-type]
        for r in range(1, upto_round + 1)
        for w, b, result in games(trf, r)
    )


# --------------------------------------------------------------------------- HTTP


@dataclasses.dataclass
class _Doc:
    data: bytes
    modified: float | None
    """``None``: modified at each answer (:meth:`SnapshotServer.set`)."""


TRICKS = (
    "cut",
    "cut-chunked",
    "bad-gzip",
    "cut-gzip",
    "bomb",
    "huge",
    "endless",
    "trickle",
    "not-http",
    "long-header",
    "many-headers",
    "reset",
)
"""How :class:`SnapshotServer` can misbehave on a request (:meth:`SnapshotServer.misbehave`):
a body cut short (with a ``Content-Length``, or chunked), a corrupt or cut gzip body, a gzip
bomb (8 MB of zeros in 8 kB), a ``Content-Length`` of 1 GB, a body that never ends, a body
trickling a byte every 0.2 s, a status line that is not HTTP, a 70 kB header line, 150
headers, a connection closed without an answer."""

_BOMB: list[bytes] = []


def bomb() -> bytes:
    """8 MB of zeros, gzipped (made once)."""
    if not _BOMB:
        _BOMB.append(gzip.compress(bytes(8 * 1024 * 1024), compresslevel=9))
    return _BOMB[0]


class SnapshotServer:
    """Serves documents the test sets, with ETag and Last-Modified, answering conditional
    requests with 304; can be told to fail the next requests of a path, or to misbehave on
    them (:data:`TRICKS`). With ``etag=False`` it gives no ETag and answers
    ``If-Modified-Since`` by the document's time in whole seconds, as a static file server
    (Python's ``http.server``, nginx) does."""

    def __init__(self, etag: bool = True) -> None:
        self.docs: dict[str, _Doc] = {}
        self.failures: dict[str, int] = {}
        self.tricks: dict[str, list[str]] = {}
        self.log: list[tuple[str, int, int]] = []
        """(path, status, version) of every answer, in the order answered: the version is
        the path's document as it was when the request came in (:meth:`set` counts them)."""
        self.versions: dict[str, int] = {}
        self.asked: list[dict[str, str]] = []
        """The headers of every request."""
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            version = 0
            """The version of the path's document when the request came in."""
            stamp: float | None = None
            """The answer's ``Date`` when it must be its document's ``Last-Modified``."""

            def date_time_string(self, timestamp: float | None = None) -> str:
                if timestamp is None and self.stamp is not None:
                    timestamp = self.stamp
                return super().date_time_string(timestamp)

            def do_GET(self) -> None:
                with server.lock:
                    server.asked.append(dict(self.headers))
                    doc = server.docs.get(self.path)
                    self.version = server.versions.get(self.path, 0)
                    failing = server.failures.get(self.path, 0)
                    if failing:
                        server.failures[self.path] = failing - 1
                    queued = server.tricks.get(self.path)
                    trick = queued.pop(0) if queued else None
                if trick is not None:
                    with server.lock:
                        server.log.append((self.path, -1, self.version))
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self._misbehave(trick, doc.data if doc else b"x" * 1000)
                    return
                if failing:
                    self._answer(503)
                    return
                if doc is None:
                    self._answer(404)
                    return
                tag = '"' + hashlib.sha1(doc.data).hexdigest()[:16] + '"' if etag else ""
                at = time.time() if doc.modified is None else doc.modified
                if doc.modified is None:
                    self.stamp = at  # the Date said is this very time
                modified = email.utils.formatdate(at, usegmt=True)
                if tag and self.headers.get("If-None-Match") == tag:
                    self._answer(304, etag=tag, modified=modified)
                    return
                since = self.headers.get("If-Modified-Since")
                if not etag and since is not None:
                    asked = email.utils.parsedate_to_datetime(since).timestamp()
                    if int(at) <= asked:
                        self._answer(304, modified=modified)
                        return
                self._answer(200, doc.data, tag, modified)

            def _answer(
                self, status: int, body: bytes = b"", etag: str = "", modified: str = ""
            ) -> None:
                with server.lock:
                    server.log.append((self.path, status, self.version))
                self.send_response(status)
                if etag:
                    self.send_header("ETag", etag)
                if modified:
                    self.send_header("Last-Modified", modified)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _misbehave(self, trick: str, data: bytes) -> None:
                out = self.wfile
                if trick == "not-http":
                    out.write(b"SSH-2.0-OpenSSH_9.2\r\n")
                    return
                if trick == "reset":
                    return
                head = b"HTTP/1.1 200 OK\r\n"
                if trick == "long-header":
                    out.write(head + b"X-Long: " + b"a" * 70_000 + b"\r\n\r\n" + data)
                    return
                if trick == "many-headers":
                    lines = b"".join(b"X-%d: 1\r\n" % i for i in range(150))
                    out.write(head + lines + b"Content-Length: 1\r\n\r\nx")
                    return
                if trick == "cut":
                    out.write(head + b"Content-Length: %d\r\n\r\n" % len(data))
                    out.write(data[: len(data) // 2])
                elif trick == "cut-chunked":
                    out.write(head + b"Transfer-Encoding: chunked\r\n\r\n")
                    out.write(b"%x\r\n%s\r\n" % (len(data), data) + b"400\r\nabc")
                elif trick in ("bad-gzip", "cut-gzip", "bomb"):
                    body = {
                        "bad-gzip": b"\x1f\x8b\x08\x00" + b"not gzip at all" * 10,
                        "cut-gzip": gzip.compress(data)[: len(gzip.compress(data)) // 2],
                        "bomb": bomb() if trick == "bomb" else b"",
                    }[trick]
                    out.write(head + b"Content-Encoding: gzip\r\n")
                    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                elif trick == "huge":
                    out.write(head + b"Content-Length: 1000000000\r\n\r\n" + data)
                elif trick == "endless":
                    out.write(head + b"\r\n")  # no length: the body ends with the connection
                    for _ in range(10_000):  # 640 MB at most, if nobody hangs up
                        out.write(data[:64] * 1024)
                elif trick == "trickle":
                    out.write(head + b"Content-Length: %d\r\n\r\n" % len(data))
                    for byte in data[:150]:  # 30 s at most, if nobody hangs up
                        out.write(bytes([byte]))
                        out.flush()
                        time.sleep(0.2)
                else:
                    raise ValueError(trick)

            def log_message(self, *args: object) -> None:
                return None

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def set(
        self, path: str, data: str | bytes, modified: float | None = None, *, live: bool = False
    ) -> None:
        """Serve ``data`` at ``path``, modified at ``modified`` (default: now); with ``live``,
        its ``Last-Modified`` is the moment of each answer, the same as the answer's
        ``Date`` however slowly the request comes (a file rewritten as it is served)."""
        raw = data.encode() if isinstance(data, str) else data
        with self.lock:
            at = None if live else time.time() if modified is None else modified
            self.docs[path] = _Doc(raw, at)
            self.versions[path] = self.versions.get(path, 0) + 1

    def fail(self, path: str, times: int) -> None:
        with self.lock:
            self.failures[path] = times

    def misbehave(self, path: str, *tricks: str) -> None:
        """Answer the next requests of ``path`` with these tricks, one each."""
        with self.lock:
            self.tricks.setdefault(path, []).extend(tricks)

    def statuses(self, path: str) -> list[int]:
        """The status of each answer to ``path`` (-1: a trick)."""
        with self.lock:
            return [s for p, s, _ in self.log if p == path]

    def requests(self, path: str) -> int:
        return len(self.statuses(path))

    def current(self, path: str, since: int) -> int:
        """How many of the answers to ``path`` after the first ``since`` were to requests
        that came in once its present document was set (an answer logged after ``since``
        may be to a request that read the document before)."""
        with self.lock:
            now = self.versions.get(path, 0)
            return sum(v == now for _, _, v in [e for e in self.log if e[0] == path][since:])


@contextmanager
def serving(etag: bool = True) -> Iterator[SnapshotServer]:
    server = SnapshotServer(etag)
    server.thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


# --------------------------------------------------------------------------- a follower


@dataclasses.dataclass
class Run:
    """A follower with the embedded sink, printing JSON lines into a buffer."""

    follower: Follower
    out: io.StringIO
    said: list[str]

    def lines(self) -> list[str]:
        return [line for line in self.out.getvalue().splitlines() if line]

    def reports(self, kind: str) -> list[str]:
        return [line for line in self.said if f": {kind}: " in line]


def follower(
    trf: Source | None = None,
    pgns: Sequence[Source] = (),
    *,
    start_list: StartList | None = None,
    options: Options | None = None,
    state_file: Path | None = None,
) -> Run:
    out = io.StringIO()
    said: list[str] = []

    def report(r: Report) -> None:
        said.append(f"follow: {r}")

    sink = EmbeddedSink(out, "jsonl", 10, state_file, report)
    f = Follower(sink, said.append, options or Options(interval=0.0), trf, pgns, start_list)
    return Run(f, out, said)


# --------------------------------------------------------------------------- rating lists

RATING_LIST_HEADER = (
    "ID Number      Name                                                         "
    "Fed Sex Tit  WTit OTit           FOA SEP11 Gms K  B-day Flag"
)
_TXT_COLUMNS = (0, 15, 76, 80, 84, 89, 94, 109, 113, 119, 123, 126, 132)
"""Where FIDE's TXT download puts each field (the header above)."""


def _rating_fields(p: TrfPlayer) -> list[str]:
    title = p.title.value if p.title else ""
    open_title, women_title = ("", title) if title.startswith("W") else (title, "")
    return [
        str(p.fide_id),
        p.name,
        p.federation,
        "F" if p.sex == "w" else "M",
        open_title,
        women_title,
        "",
        "",
        str(p.rating or ""),
        "0",
        "10" if (p.rating or 0) >= 2400 else "15",  # K of the 2009 rating rules
        str(p.birth_year or ""),
        "",
    ]


def txt_line(values: Sequence[str]) -> str:
    """A line of FIDE's TXT download: ID, name, fed, sex, Tit, WTit, OTit, FOA, rating,
    games, K, birth year, flag."""
    line = ""
    for column, value in zip(_TXT_COLUMNS, values, strict=True):
        line = line.ljust(column) + value
    return line.rstrip()


def rating_list_txt(trf: TrfFile) -> str:
    """The players of a file as FIDE's monthly TXT download lists them."""
    lines = [RATING_LIST_HEADER, *(txt_line(_rating_fields(p)) for p in trf.players)]
    return "\n".join(lines) + "\n"


def rating_list_xml(trf: TrfFile) -> str:
    """The same in FIDE's XML download."""
    tags = [
        "fideid",
        "name",
        "country",
        "sex",
        "title",
        "w_title",
        "o_title",
        "foa_title",
        "rating",
        "games",
        "k",
        "birthday",
        "flag",
    ]
    out = ['<?xml version="1.0" encoding="utf-8"?>', "<playerslist>"]
    for p in trf.players:
        fields = "".join(
            f"<{t}>{v}</{t}>" if v else f"<{t}></{t}>"
            for t, v in zip(tags, _rating_fields(p), strict=True)
        )
        out.append(f"<player>{fields}</player>")
    out.append("</playerslist>")
    return "\n".join(out) + "\n"


def broadcast(trf: TrfFile, rounds: int, finished: int | None = None) -> str:
    """A broadcast of rounds 1 … ``rounds`` of a file, with its quirks: names written three
    ways (``Last, First``, ``Last,F``, ``First Last``) and FIDE ids on every other game.
    ``finished``: how many games of the last round have a result (default: all)."""
    styles = ("as-is", "initial", "first-last")
    out = []
    number = 0
    for r in range(1, rounds + 1):
        for i, (w, b, result) in enumerate(games(trf, r)):
            if r == rounds and finished is not None and i >= finished:
                result = None
            out.append(
                pgn_game(
                    trf,
                    r,
                    w,
                    b,
                    result,
                    fide_ids=number % 2 == 0,
                    name_style=styles[number % 3],
                )
            )
            number += 1
    return "".join(out)


def wait_for_polls(server: SnapshotServer, path: str, since: int, polls: int = 2) -> None:
    """Wait until ``polls`` of the answers to ``path`` after the first ``since`` were to
    requests that read its present document: with one poll at a time, the second such
    request comes after the first one's answer has been dealt with. Requests counted by
    their answers alone would not do: one that read the document before it changed can be
    answered after ``since`` (the follower then had the change only in hand). A follower
    killed and started again after ``since`` may have one request of the dead one counted:
    wait for three then."""
    deadline = time.monotonic() + 90
    while server.current(path, since) < polls:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path}: no poll after {server.requests(path)} requests")
        time.sleep(0.02)


def _is_bye(c: Cell | None) -> bool:
    return c is not None and c.opponent is None


def _blank_byes(trf: TrfFile, rank: int) -> TrfFile:
    players = []
    for p in trf.players:
        if p.rank == rank:
            p = dataclasses.replace(p, cells=tuple(None if _is_bye(c) else c for c in p.cells))
        players.append(p)
    return dataclasses.replace(trf, players=tuple(players))


def _blank_result(trf: TrfFile, round_: int, a: int, b: int) -> TrfFile:
    players = []
    for p in trf.players:
        cells = list(p.cells)
        if p.rank in (a, b):
            c = cells[round_ - 1]
            assert c is not None
            cells[round_ - 1] = Cell(c.opponent, c.colour, None)
        players.append(dataclasses.replace(p, cells=tuple(cells)))
    return dataclasses.replace(trf, players=tuple(players))


def _swap(trf: TrfFile, round_: int, one: tuple[int, int], two: tuple[int, int]) -> TrfFile:
    """Re-pair two boards: the lower player of ``one`` meets the higher of ``two``."""
    (a, b), (c, d) = one, two
    new = {a: d, d: a, c: b, b: c}
    players = []
    for p in trf.players:
        cells = list(p.cells)
        if p.rank in new:
            old = cells[round_ - 1]
            assert old is not None
            cells[round_ - 1] = Cell(new[p.rank], "w" if p.rank in (a, c) else "b", None)
        players.append(dataclasses.replace(p, cells=tuple(cells)))
    return dataclasses.replace(trf, players=tuple(players))
