"""Apache Kafka's own topic defaults (4.1), for what a topic is created without: the tests
of the worker's topic checks fill them in as the broker's description would."""

KAFKA_DEFAULTS = {
    "cleanup.policy": "delete",
    "retention.ms": "604800000",
    "retention.bytes": "-1",
    "max.message.bytes": "1048588",
    "min.insync.replicas": "1",
}
