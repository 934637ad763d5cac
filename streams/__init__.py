"""The Kafka shell of the tracker (faust-streaming): one input topic keyed by tournament id,
one agent calling the pure core, a ``facts`` table, output topics per audience and a
dead-letter topic. Nothing here decides anything about norms; :mod:`tracker` does."""
