"""Files of the chess world read into the event contract: TRF16/TRF26, broadcast PGN, FIDE's
rating list and start lists, with the dates, encodings and scripts real files use."""
