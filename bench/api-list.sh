#!/usr/bin/env bash
# bench/api-list.sh — GET /api/workflows on SQLite: 1,000 workflows stored, 50 rows per page, 10 connections.
#
# Targets (issue 2): >= 5,000 requests/s with p99 <= 10 ms; idle resident memory of `edgeflow serve` <= 40 MB.
# The anchor (AwaitStep) served the same request at 768 requests/s, p99 28 ms (testdata/bench/README.md).
#
# Measured 2026-11-23 17:22 UTC on the shared 2-core machine while other engineers' builds and tests kept the load
# average at ~7 (so the server had well under one core): 1,171 requests/s, p50 7.4 ms, p99 131 ms; idle RSS 30.5 MB
# after start, 36.4 MB after the load. In process, one CPU, same load: 402 us per request (BenchmarkWorkflowList),
# 72% of it in the SQLite store's ListWorkflows, 13% JSON encoding, 7% API key lookup.
#
# With the SQLite store's read cache (docs/decisions.md 50), 2026-11-23 17:56 UTC, load average 5.4-6.3, back to
# back with the build before it (1,323 requests/s, p50 6.7 ms, p99 51 ms): 12,333 and 12,996 requests/s, p50 0.63
# and 0.57 ms, p90 2.3 and 2.8 ms, p99 16.1 and 11.4 ms; idle RSS 29.5 MB, 45.5 MB after the load (heap grown for
# the higher request rate). The p99 <= 10 ms target needs a moment when other processes leave the cores alone.
#
# Needs wrk (Debian: apt-get install wrk), curl and Go. Usage: bench/api-list.sh [seconds]   (default 20)
# Env: EDGEFLOW_BIN (a built binary; default: go build), PORT (default 18089), WORKFLOWS (default 1000), CONNECTIONS (default 10), THREADS (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${1:-20}
PORT=${PORT:-18089}
WORKFLOWS=${WORKFLOWS:-1000}
CONNECTIONS=${CONNECTIONS:-10}
THREADS=${THREADS:-2}
. bench/serve.sh
start_serve

rss() { awk '/VmRSS/ {printf "%.1f", $2/1024}' "/proc/$PID/status"; }
sleep 2
echo "idle RSS after start:            $(rss) MB"

bootstrap_key

# Seed the workflows with one curl process (keep-alive), 100 requests per --next batch.
CFG="$WORK/seed.curl"
: >"$CFG"
for i in $(seq "$WORKFLOWS"); do
	printf 'next\nurl = "%s/api/workflows"\nrequest = "POST"\nheader = "%s"\nheader = "Content-Type: application/json"\ndata = "{\\"name\\":\\"workflow %d\\",\\"description\\":\\"benchmark workflow number %d\\"}"\noutput = "/dev/null"\nsilent\n' \
		"$URL" "$AUTH" "$i" "$i" >>"$CFG"
done
sed -i '1d' "$CFG" # no "next" before the first request
start=$(date +%s.%N)
curl -K "$CFG"
echo "seeded $WORKFLOWS workflows in $(echo "$(date +%s.%N) - $start" | bc) s"
count=$(curl -fs -H "$AUTH" "$URL/api/workflows?limit=50" | grep -o '"id":"wf_' | wc -l)
[ "$count" = 50 ] || { echo "expected 50 rows per page, got $count" >&2; exit 1; }

wrk -t1 -c2 -d3s -H "$AUTH" "$URL/api/workflows" >/dev/null # warm-up
echo "GET /api/workflows (50 rows), $CONNECTIONS connections, ${DURATION}s (load average before: $(cut -d' ' -f1-3 /proc/loadavg)):"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "$AUTH" "$URL/api/workflows" | sed 's/^/  /'
echo "load average after:              $(cut -d' ' -f1-3 /proc/loadavg) (other processes share the 2 cores)"
sleep 3
echo "RSS after the load:              $(rss) MB"
