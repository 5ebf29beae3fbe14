#!/usr/bin/env bash
# Start or stop the real servers the integration tests use, on loopback ports, with data in a temp dir.
#   eval "$(.ci/servers.sh start)"   # exports LEADFINDER_TEST_NATS_URL and LEADFINDER_TEST_MONGODB_URL
#   .ci/servers.sh stop
set -euo pipefail
STATE=${LEADFINDER_SERVERS_STATE:-/tmp/leadfinder-test-servers}
NATS_PORT=${LEADFINDER_TEST_NATS_PORT:-14222}
MONGO_PORT=${LEADFINDER_TEST_MONGO_PORT:-27018}
GOBIN=$(go env GOPATH 2>/dev/null)/bin
NATS_BIN=$(command -v nats-server-2.11 || echo "$GOBIN/nats-server")
FERRET_BIN=$(command -v ferretdb || echo "$GOBIN/ferretdb")

wait_port() { # host port name
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && { exec 3>&- 3<&- 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  echo "$3 did not start listening on $1:$2; see $STATE/$3.log" >&2
  return 1
}

case "${1:-}" in
  start)
    "$0" stop >/dev/null 2>&1 || true
    rm -rf "$STATE"; mkdir -p "$STATE/nats" "$STATE/ferretdb"
    "$NATS_BIN" -js -a 127.0.0.1 -p "$NATS_PORT" -sd "$STATE/nats" >"$STATE/nats.log" 2>&1 &
    echo $! >"$STATE/nats.pid"
    "$FERRET_BIN" --handler=sqlite --sqlite-url="file:$STATE/ferretdb/" --listen-addr="127.0.0.1:$MONGO_PORT" \
      --telemetry=disable --state-dir="$STATE/ferretdb" --debug-addr=- >"$STATE/ferretdb.log" 2>&1 &
    echo $! >"$STATE/ferretdb.pid"
    wait_port 127.0.0.1 "$NATS_PORT" nats
    wait_port 127.0.0.1 "$MONGO_PORT" ferretdb
    echo "export LEADFINDER_TEST_NATS_URL=nats://127.0.0.1:$NATS_PORT"
    echo "export LEADFINDER_TEST_MONGODB_URL=mongodb://127.0.0.1:$MONGO_PORT/"
    echo "export LEADFINDER_TEST_NATS_BIN=$NATS_BIN"
    echo "export LEADFINDER_TEST_FERRETDB_BIN=$FERRET_BIN"
    ;;
  stop)
    for name in nats ferretdb; do
      if [ -f "$STATE/$name.pid" ]; then
        pid=$(cat "$STATE/$name.pid"); kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true; rm -f "$STATE/$name.pid"
      fi
    done
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
