#!/usr/bin/env bash
# Measures the idle resident memory of each role, started as the image starts it (compiled by
# deploy/build.mjs, then node <out>/leadfinder.mjs serve --role R), over the NATS and MongoDB-wire servers of
# `.ci/servers.sh` (LEADFINDER_TEST_NATS_URL, LEADFINDER_TEST_MONGODB_URL). Each role is started alone,
# waited for until /readyz (or /healthz) answers, left idle for IDLE_S seconds, and its VmRSS read from
# /proc; then stopped. Prints charts/leadfinder/files/measured-idle-rss.json's content.
#   eval "$(.ci/servers.sh start)"; deploy/measure-idle-rss.sh > charts/leadfinder/files/measured-idle-rss.json
set -euo pipefail
cd "$(dirname "$0")/.."
: "${LEADFINDER_TEST_NATS_URL:?start the servers first: eval \"\$(.ci/servers.sh start)\"}"
: "${LEADFINDER_TEST_MONGODB_URL:?start the servers first}"
IDLE_S=${IDLE_S:-10}
base=${RSS_PORT_BASE:-$((30000 + RANDOM % 20000))}
data=$(mktemp -d)
out=.tmp/measure-idle-rss-$$   # inside the repository, so the bundle's imports resolve in node_modules
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$data" "$out"; }
trap cleanup EXIT
node deploy/build.mjs "$out" >/dev/null

common=(HOST=127.0.0.1 LEADFINDER_DATA_DIR="$data" LEADFINDER_LOG_LEVEL=warn LEADFINDER_MONGODB_DB="rss_$$"
  LEADFINDER_NATS_URL="$LEADFINDER_TEST_NATS_URL" LEADFINDER_MONGODB_URL="$LEADFINDER_TEST_MONGODB_URL"
  LEADFINDER_SESSION_SECRET=measure-idle-rss-session-secret-0123456789
  LEADFINDER_FETCHER_ADDR=dns:///127.0.0.1:$((base + 1)) LEADFINDER_FILTER_ADDR=dns:///127.0.0.1:$((base + 2)))
declare -A extra=(
  [fetcher]="LEADFINDER_GRPC_PORT=$((base + 1)) LEADFINDER_HEALTH_PORT=$((base + 3))"
  [filter]="LEADFINDER_GRPC_PORT=$((base + 2)) LEADFINDER_HEALTH_PORT=$((base + 4))"
  [coordinator]="LEADFINDER_HEALTH_PORT=$((base + 5))"
  [edge]="PORT=$((base + 6))"
)
declare -A probe=(
  [fetcher]=http://127.0.0.1:$((base + 3))/readyz [filter]=http://127.0.0.1:$((base + 4))/readyz
  [coordinator]=http://127.0.0.1:$((base + 5))/readyz [edge]=http://127.0.0.1:$((base + 6))/readyz
)
declare -A rss
for role in fetcher filter coordinator edge; do
  # shellcheck disable=SC2086
  env "${common[@]}" ${extra[$role]} node "$out/leadfinder.mjs" serve --role "$role" >"$data/$role.log" 2>&1 &
  pid=$!; pids+=("$pid")
  for _ in $(seq 1 300); do curl -sf "${probe[$role]}" >/dev/null 2>&1 && break; sleep 0.2; done
  curl -sf "${probe[$role]}" >/dev/null || { echo "$role did not become ready; log:" >&2; cat "$data/$role.log" >&2; exit 1; }
  sleep "$IDLE_S"
  rss[$role]=$(awk '/^VmRSS:/ { printf "%d", $2 / 1024 }' "/proc/$pid/status")
done
printf '{\n  "description": "Idle RSS in MiB of each role started as the image starts it (compiled by deploy/build.mjs, run by node), ready and idle for %ss; measured by deploy/measure-idle-rss.sh on %s, node %s",\n' "$IDLE_S" "$(uname -sm)" "$(node --version)"
printf '  "mib": { "edge": %s, "coordinator": %s, "fetcher": %s, "filter": %s }\n}\n' "${rss[edge]}" "${rss[coordinator]}" "${rss[fetcher]}" "${rss[filter]}"
