#!/usr/bin/env bash
# The three-broker leader-kill test (tests/integration/test_kafka_cluster.py), RUNS times in a
# row (default 3), stopping at the first failure; each run's figures are appended to
# ${TRACKER_TIMINGS:-out/cluster-test.txt}. It starts its own Apache Kafka cluster (Java and
# Maven needed).
#
#   scripts/cluster-test.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
mkdir -p out
export TRACKER_TIMINGS=${TRACKER_TIMINGS:-out/cluster-test.txt}
export TRACKER_TEST_BROKER_KIND=kafka TRACKER_CLUSTER_TEST=1
for run in $(seq 1 "$RUNS"); do
    echo "run $run of $RUNS ($(date -u +%FT%TZ))" | tee -a "$TRACKER_TIMINGS"
    .venv/bin/pytest -q -p no:cacheprovider tests/integration/test_kafka_cluster.py
done
echo "$RUNS runs in a row passed; figures in $TRACKER_TIMINGS"
