"""``tracker follow``: the shell that watches an arbiter's TRF export and a broadcast's PGN
feed and hands what is new to the tracker.

The decisions are pure and live in ``tracker/`` (:mod:`tracker.ingest.snapshots`,
:mod:`tracker.ingest.broadcast`, :mod:`tracker.ingest.ledger`); this package only polls (a
file's bytes, a URL with conditional requests and back-off), sleeps, and hands the events to
the embedded core (:mod:`follow.embedded`) or to the input topic (:mod:`follow.broker`, which
needs the ``streams`` extra and is imported only with ``--broker``).
"""
