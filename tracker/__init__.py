"""The pure core of the FIDE title-norm tracker: no I/O, no clock, no Kafka."""
