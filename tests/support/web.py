"""The seed the web tests serve, its tournament id, and the views served without Faust."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from aiohttp import web as aioweb

from streams.feed import AlertFeed
from streams.processor import Processor
from streams.records import encode_input
from streams.settings import Settings
from streams.web import Backend, application
from tests.support.paths import ROOT
from tracker import contract as ev

SEED = ROOT / "seeds" / "swiss-11r-secured-2013.trf"


TID = "swiss-11r-secured-2013"


@dataclasses.dataclass
class Served:
    """The web views of :mod:`streams.web` as their own aiohttp application (no Faust), over a
    processor and an alert feed that tests fill by hand."""

    web_app: aioweb.Application
    processor: Processor
    feed: AlertFeed
    backend: Backend


def served(events: Iterable[ev.InputEvent] = (), settings: Settings | None = None) -> Served:
    """The views over a processor fed ``events`` (the seed's input, as the agent would)."""
    settings = settings or Settings(broker="kafka://127.0.0.1:9")
    processor = Processor(topic=settings.topic("input"))
    for offset, event in enumerate(events):
        processor.handle(event.tournament_id.encode(), encode_input(event), 0, offset)
    backend = Backend(processor, AlertFeed(settings), settings)
    return Served(application(backend), processor, backend.feed, backend)
