"""Certificate PDFs off the event loop (issue 22, point 5): rendered in a thread while the
loop keeps answering, once per certificate however many ask at once, at most
``certificate_renders`` at a time, and kept; a PDF answer says it loads nothing."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from aiohttp.test_utils import TestClient, TestServer

from streams.publish import load
from streams.settings import Settings
from streams.web import LOCKED, VIEWS
from tests.support.web import SEED, TID, Served, served
from tracker.render.certificate import NormCertificate

CERT = f"/api/tournaments/{TID}/players/14/certificate?format=pdf"


class Renders:
    """A stand-in for the PDF renderer that notes where and how often it runs, and how many
    run at once; each rendering waits for ``go`` (so the test decides when it ends)."""

    def __init__(self, real: Callable[[NormCertificate], bytes]) -> None:
        self.real = real
        self.threads: list[int] = []
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()
        self.go = threading.Event()

    def __call__(self, cert: NormCertificate) -> bytes:
        with self.lock:
            self.threads.append(threading.get_ident())
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            self.go.wait(30)
            return self.real(cert)
        finally:
            with self.lock:
                self.running -= 1


def serving(renders: int = 1) -> tuple[Served, Renders]:
    s = served(load(SEED), Settings(broker="kafka://127.0.0.1:9", certificate_renders=renders))
    pdfs = s.web_app[VIEWS].pdfs
    stand_in = Renders(pdfs.render_pdf)
    pdfs.render_pdf = stand_in
    return s, stand_in


async def test_thirty_requests_for_one_pdf_render_it_once_off_the_loop() -> None:
    s, renders = serving()
    async with TestClient(TestServer(s.web_app)) as client:
        asked = [asyncio.create_task(client.get(CERT)) for _ in range(30)]
        while not renders.threads:
            await asyncio.sleep(0.01)
        # the loop answers while the PDF is being made
        standings = await client.get(f"/api/tournaments/{TID}/standings")
        assert standings.status == 200
        assert not any(a.done() for a in asked)
        renders.go.set()
        answers = await asyncio.gather(*asked)
        bodies = {await a.read() for a in answers}
        assert {a.status for a in answers} == {200}
        assert len(bodies) == 1
        assert next(iter(bodies)).startswith(b"%PDF-")
        again = await client.get(CERT)  # kept
        assert await again.read() in bodies
    assert len(renders.threads) == 1
    assert renders.threads[0] != threading.get_ident()


async def test_different_pdfs_render_at_most_the_bound_at_a_time() -> None:
    for bound in (1, 2):
        s, renders = serving(bound)
        paths = [f"{CERT}&round={r}" for r in (9, 10, 11)] + [CERT]
        async with TestClient(TestServer(s.web_app)) as client:
            asked = [asyncio.create_task(client.get(p)) for p in paths for _ in range(5)]
            while renders.running < bound:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)  # time for a third rendering to start, if it could
            assert renders.running == bound
            renders.go.set()
            answers = await asyncio.gather(*asked)
            assert {a.status for a in answers} == {200}
        assert renders.most == bound
        # rounds 9 and 10 have their own certificates; 11 is the default one
        assert len(renders.threads) == 3


async def test_a_pdf_answer_loads_nothing() -> None:
    s = served(load(SEED))
    async with TestClient(TestServer(s.web_app)) as client:
        answer = await client.get(CERT)
        assert answer.status == 200
        assert answer.headers["Content-Security-Policy"] == LOCKED
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
