"""Running input events through :func:`tracker.engine.transition.apply`, as a live tournament
would have, without any broker. Reading files is the CLI's job; this module only turns
text into events and events into alerts."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from tracker import contract as ev
from tracker.domain.tournaments import System
from tracker.engine.evaluation import norm_event
from tracker.engine.state import TournamentState
from tracker.engine.transition import Rejected, apply
from tracker.engine.watch import watch_after
from tracker.formats.decoding import decode
from tracker.formats.pgn import looks_like_pgn
from tracker.formats.trf import CELL_WIDTH, FIRST_CELL_COLUMN, TrfError, parse_trf, to_events
from tracker.render.report import story
from tracker.render.watch_text import watch_lines


@dataclasses.dataclass(frozen=True, slots=True)
class Sourced:
    """An input event and where it came from (``file.jsonl:12``), for error messages."""

    event: ev.InputEvent
    where: str


class InputError(ValueError):
    """Input that cannot be replayed; the message names the file, line and field."""


def read_bytes(data: bytes, name: str) -> list[Sourced]:
    """Events from the bytes of a TRF or JSONL file, in whatever encoding the file is
    (:func:`tracker.formats.decoding.decode`: UTF-8, Windows-1250/1252 or Latin-1)."""
    return read_events(decode(data).text, name)


def read_events(text: str, name: str) -> list[Sourced]:
    """Events from the text of a TRF file or a JSONL file of input events (one JSON object
    per line; blank lines and lines starting with ``#`` are skipped)."""
    if not text.strip():
        raise InputError(
            f"{name}: empty file: a TRF export (or a JSONL file of input events) is expected"
        )
    if _looks_like_jsonl(text):
        return list(_jsonl(text, name))
    if looks_like_pgn(text):
        raise InputError(
            f"{name}: a PGN file (a broadcast's games), not a TRF export: a PGN is read by "
            "`tracker follow --pgn FILE_OR_URL --players START_LIST`"
        )
    try:
        trf = parse_trf(text)
    except TrfError as exc:
        raise InputError(f"{name}: {exc}") from None
    try:
        events = to_events(trf)
    except TrfError as exc:
        raise InputError(f"{name}: {exc}") from None
    lines = {p.rank: p.line for p in trf.players}
    return [Sourced(e, _trf_where(e, name, lines)) for e in events]


def _trf_where(event: ev.InputEvent, name: str, lines: dict[int, int]) -> str:
    """Where a TRF-made event comes from: ``x.trf:14`` for a player, ``x.trf:14, round 3
    (columns 112-121)`` for a board or bye (the cell on the line of White, or of the player
    with the bye); the header for the tournament.

    >>> _trf_where(ev.Bye(tournament_id="t", round=2, player=3, kind="H"), "x.trf", {3: 9})
    'x.trf:9, round 2 (columns 102-111)'
    """
    if isinstance(event, ev.PlayerRegistered):
        return f"{name}:{lines.get(event.rank, 0)}"
    rank = getattr(event, "white", None) or getattr(event, "player", None)
    number = getattr(event, "round", None)
    if number is None:
        return f"{name} (header records)"
    if rank is None:
        return f"{name}, round {number}"
    first = FIRST_CELL_COLUMN + CELL_WIDTH * (number - 1)
    return f"{name}:{lines.get(rank, 0)}, round {number} (columns {first}-{first + CELL_WIDTH - 1})"


def _looks_like_jsonl(text: str) -> bool:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.startswith("{")
    return False


def _jsonl(text: str, name: str) -> Iterator[Sourced]:
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            yield Sourced(ev.parse_input(stripped), f"{name}:{number}")
        except ev.InvalidEvent as exc:
            raise InputError(f"{name}:{number}: {exc}") from None


def with_overrides(
    events: Iterable[Sourced],
    edition: str | None = None,
    rounds: int | None = None,
    system: System | None = None,
) -> list[Sourced]:
    """Every tournament registration of the stream with the arbiter's ``--edition``,
    ``--rounds`` and ``--system`` over it (:class:`~tracker.contract.Overrides`; ``None``
    keeps the file's)."""
    events = list(events)
    given = ev.Overrides(edition, rounds, system)
    if not given:
        return events
    players = Counter(s.event.tournament_id for s in events if s.event.type == "player_registered")
    return [
        Sourced(given.apply(s.event, players[s.event.tournament_id]), s.where)
        if isinstance(s.event, ev.TournamentRegistered)
        else s
        for s in events
    ]


@dataclasses.dataclass
class Replay:
    """The states of every tournament seen, updated event by event."""

    states: dict[str, TournamentState] = dataclasses.field(default_factory=dict)

    def feed(self, item: Sourced) -> list[ev.OutputEvent]:
        tid = item.event.tournament_id
        try:
            state, out = apply(self.states.get(tid), item.event)
        except Rejected as exc:
            raise InputError(f"{item.where}: {exc}") from None
        self.states[tid] = state
        return out


def render(
    run: Replay,
    item: Sourced,
    alerts: Sequence[ev.OutputEvent],
    fmt: str,
    top: int,
    announced: set[str],
    watch: int = 0,
) -> Iterator[str]:
    """The lines ``tracker replay`` prints after feeding ``item``: in ``jsonl``, one alert
    per line; in ``text``, the story of the alerts, after the tournament's header the first
    time a fact other than a registration is fed (once the players are known: the rate of
    play reads them; ``announced`` remembers it), and after each round's alerts the first
    ``watch`` entries of its norm watch (:func:`~tracker.render.watch_text.watch_lines`)."""
    if fmt == "jsonl":
        yield from (to_jsonl(alert) for alert in alerts)
        return
    tid = item.event.tournament_id
    registering = isinstance(item.event, ev.TournamentRegistered | ev.PlayerRegistered)
    if not registering and tid not in announced and tid in run.states:
        announced.add(tid)
        yield from header(run.states[tid])
    chunk: list[ev.OutputEvent] = []
    for alert in [*alerts, None]:
        if chunk and (alert is None or isinstance(alert, ev.RoundFinished)):
            yield from story(chunk, top=top)
            first = chunk[0]
            if watch and isinstance(first, ev.RoundFinished) and first.not_a_norm_event is None:
                state = run.states[first.tournament_id]
                yield from watch_lines(watch_after(state, first.round), watch)
            chunk = []
        if alert is not None:
            chunk.append(alert)


def header(state: TournamentState) -> list[str]:
    """The edition a tournament is judged by, and whether it is a norm event and why."""
    t = state.tournament
    gate = norm_event(state)
    return [
        f"# {t.name or t.id}: edition {state.edition_reason}",
        f"# {'a norm event' if gate.norms else 'NOT a norm event'}: {gate.reason}",
    ]


def replay(events: Iterable[Sourced]) -> Iterator[ev.OutputEvent]:
    """Every alert the events produce, in order."""
    run = Replay()
    for item in events:
        yield from run.feed(item)


def to_jsonl(alert: ev.OutputEvent) -> str:
    """The wire form of an alert: one JSON object, keys in model order."""
    return alert.model_dump_json()


def from_jsonl(line: str) -> ev.OutputEvent:
    return ev.OUTPUT_ADAPTER.validate_python(json.loads(line))
