"""Do certificate PDFs delay a round's alerts? Prints figures; no pass/fail.

    .venv/bin/python bench/bench_certificates.py [--requests 30] [--trials 5]

The web views (``streams.web.application``, served on a loopback port as the worker serves
them) over a processor holding ``--requests`` copies of the Danube seed under other ids, so
that every request asks for a different certificate (no answer comes from the cache), and one
more copy waiting for its last result. ``--requests`` concurrent PDF requests are sent from
another process (as browsers elsewhere send them); when the server starts on the first, that
last result is due, and it is handled in the same event loop, as the worker's agent handles
it (:meth:`streams.processor.Processor.handle`: the round's evaluation and its alerts). The
benchmark prints how long the alerts took from the moment the result was due (median and
worst of ``--trials``), beside the same with no request at all, and with the PDFs rendered
on the event loop itself (how the worker rendered them before issue 22), in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiohttp import web as aioweb

from streams.broker import free_port
from streams.feed import AlertFeed
from streams.processor import Processor
from streams.publish import load
from streams.records import encode_input
from streams.settings import Settings
from streams.web import VIEWS, Backend, application
from tracker import contract as ev

SEED = Path(__file__).resolve().parents[1] / "seeds" / "swiss-11r-secured-2013.trf"


class OnTheLoop(Executor):
    """Runs each rendering at once, in the caller's thread: the event loop's (as before)."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        done: Future[Any] = Future()
        done.set_result(fn(*args, **kwargs))
        return done


CLIENT = """
import sys, threading, urllib.request
base, count = sys.argv[1], int(sys.argv[2])
def get(n):
    url = f"{base}/api/tournaments/t{n}/players/14/certificate?format=pdf"
    with urllib.request.urlopen(url, timeout=600) as answer:
        assert answer.status == 200 and answer.read().startswith(b"%PDF-")
threads = [threading.Thread(target=get, args=(n,)) for n in range(count)]
for t in threads: t.start()
for t in threads: t.join()
"""
"""The PDF requests, from a process of their own (as browsers elsewhere would send them)."""


async def trial(
    processor: Processor, base: str, requests: int, last: Any, tid: str, started: asyncio.Event
) -> tuple[float, float]:
    """Seconds from the server starting on the first of ``requests`` concurrent PDF requests
    (``started``; at once with none) to the round's alerts being made, and to the last PDF
    answered."""
    client = None
    if requests:
        client = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CLIENT, base, str(requests)
        )
        await started.wait()
    due = started_at[0] if requests else time.perf_counter()
    outcome = processor.handle(tid.encode(), encode_input(last), 0, 10**6)
    took = time.perf_counter() - due
    assert any(a.type == "round_finished" for a in outcome.alerts)
    if client is None:
        return took, 0.0
    assert await client.wait() == 0
    return took, time.perf_counter() - due


started_at = [0.0]


def first_request(started: asyncio.Event) -> Any:
    """A middleware that sets ``started`` (and :data:`started_at`) on the first request."""

    @aioweb.middleware
    async def first(request: aioweb.Request, handler: Any) -> Any:
        if not started.is_set():
            started_at[0] = time.perf_counter()
            started.set()  # the round's last result is due now
        return await handler(request)

    return first


async def run(requests: int, trials: int) -> None:
    events = load(SEED)
    settings = Settings(broker="kafka://127.0.0.1:9")
    port = free_port()
    figures: dict[str, list[float]] = {}
    answered: dict[str, list[float]] = {}
    for label, on_the_loop, asked in (
        ("no PDF requests", False, 0),
        (f"{requests} PDF requests, rendered off the loop", False, requests),
        (f"{requests} PDF requests, rendered on the loop (before)", True, requests),
    ):
        for number in range(trials):
            processor = Processor(topic="in")
            offset = 0
            for n in range(requests):
                for e in events:
                    copy = e.model_copy(update={"tournament_id": f"t{n}"})
                    processor.handle(f"t{n}".encode(), encode_input(copy), 0, offset)
                    offset += 1
            tid = f"round-{number}"
            copies = [e.model_copy(update={"tournament_id": tid}) for e in events]
            at = max(i for i, e in enumerate(copies) if isinstance(e, ev.GameResult))
            before, last = copies[:at], copies[at]  # the result that finishes the last round
            for e in before:
                processor.handle(tid.encode(), encode_input(e), 0, offset)
                offset += 1
            app = application(Backend(processor, AlertFeed(settings), settings))
            started = asyncio.Event()
            app.middlewares.insert(0, first_request(started))
            if on_the_loop:
                app[VIEWS].pdfs.threads = OnTheLoop()  # type: ignore[assignment]
            runner = aioweb.AppRunner(app)
            await runner.setup()
            await aioweb.TCPSite(runner, "127.0.0.1", port).start()
            try:
                base = f"http://127.0.0.1:{port}"
                took, everything = await trial(processor, base, asked, last, tid, started)
            finally:
                await runner.cleanup()
            figures.setdefault(label, []).append(took)
            answered.setdefault(label, []).append(everything)
    alone = statistics.median(figures["no PDF requests"])
    print(f"a round's alerts (32-player Swiss, round 11), {trials} trials, median / worst:")
    for label, values in figures.items():
        median = statistics.median(values)
        pdfs = statistics.median(answered[label])
        print(
            f"  {label:<52} {median * 1000:7.0f} / {max(values) * 1000:7.0f} ms"
            f"   ({median / alone:6.1f}x alone)"
            + (f"; every PDF answered in {pdfs:.1f} s" if pdfs else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(run(args.requests, args.trials))


if __name__ == "__main__":
    main()
