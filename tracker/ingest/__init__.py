"""Successive snapshots of a live event (TRF exports, a broadcast) turned into the input
events that are new, with a ledger of what was already sent."""
