#!/usr/bin/env bash
# bench/version-submit.sh — POST /api/workflows/:id/versions with testdata/bench/ir/mixed-100.json, 10 connections,
# each connection submitting to its own workflow, against `edgeflow serve` on SQLite (on disk, in a temp dir).
#
# Target (issue 4): >= 1,500 submissions/s with 10 connections. The anchor (AwaitStep) did 340/s, p50 28 ms
# (testdata/bench/README.md). Each submission is parsed, fully validated, compiled to TypeScript and stored (IR +
# code) in one SQLite transaction; the response is the new version's summary.
#
# Measured 2026-11-23 19:21 UTC on the shared 2-core machine (load average 1.1-2.2), 20 s runs: 1,783, 1,617 and
# 1,808 submissions/s; p50 5.0-5.6 ms, p99 18.5-21 ms; server CPU 0.90-1.01 ms per submission. Before the changes of
# docs/decisions.md 54 the same script gave 1,277/s at 1.30 ms.
#
# The load comes from wrk in another process, as for bench/api-list.sh, so the figure is the server's (the in-process
# BenchmarkVersionSubmit in internal/api also pays for its Go HTTP client). wrk shares the 2 cores with the server.
#
# Needs wrk (Debian: apt-get install wrk), curl and Go. Usage: bench/version-submit.sh [seconds]   (default 20)
# Env: EDGEFLOW_BIN (a built binary; default: go build), PORT (default 18090), CONNECTIONS (default 10),
# THREADS (default 1), IR (default testdata/bench/ir/mixed-100.json).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${1:-20}
PORT=${PORT:-18090}
CONNECTIONS=${CONNECTIONS:-10}
THREADS=${THREADS:-1}
IR=${IR:-testdata/bench/ir/mixed-100.json}
[ -f "$IR" ] || { echo "no IR at $IR" >&2; exit 1; }
. bench/serve.sh
start_serve

bootstrap_key

# One workflow per connection; the body is {"ir": <IR>}.
IDS=()
for i in $(seq "$CONNECTIONS"); do
	id=$(curl -fs -H "$AUTH" -H 'Content-Type: application/json' -d "{\"name\":\"bench $i\"}" "$URL/api/workflows" |
		sed -E 's/.*"id":"(wf_[^"]+)".*/\1/')
	IDS+=("$id")
done
{ printf '{"ir":'; cat "$IR"; printf '}'; } >"$WORK/body.json"
code=$(curl -s -o "$WORK/first.json" -w '%{http_code}' -H "$AUTH" -H 'Content-Type: application/json' \
	--data-binary "@$WORK/body.json" "$URL/api/workflows/${IDS[0]}/versions")
[ "$code" = 201 ] || { echo "submission failed with $code: $(cat "$WORK/first.json")" >&2; exit 1; }

# wrk: each connection (one Lua state per thread, connections numbered in order) posts to its own workflow.
cat >"$WORK/submit.lua" <<LUA
local ids = { $(printf '"%s",' "${IDS[@]}") }
local f = assert(io.open("$WORK/body.json", "rb"))
local body = f:read("*a")
f:close()
local n = 0
request = function()
  n = n + 1
  local id = ids[(n % #ids) + 1]
  return wrk.format("POST", "/api/workflows/" .. id .. "/versions",
    { ["Authorization"] = "Bearer $KEY", ["Content-Type"] = "application/json" }, body)
end
local created, other = 0, 0
response = function(status)
  if status == 201 then created = created + 1 else other = other + 1 end
end
done = function(summary)
  if summary.errors.status > 0 then
    io.stderr:write(string.format("%d responses were not 201\n", summary.errors.status))
  end
end
LUA

wrk -t1 -c"$CONNECTIONS" -d3s -s "$WORK/submit.lua" "$URL" >/dev/null # warm-up
echo "POST /api/workflows/:id/versions ($(basename "$IR"), $(wc -c <"$WORK/body.json") bytes), $CONNECTIONS connections, ${DURATION}s (load average before: $(cut -d' ' -f1-3 /proc/loadavg)):"
cpu0=$(awk '{print $14+$15}' "/proc/$PID/stat")
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/submit.lua" "$URL" | tee "$WORK/wrk.out" | sed 's/^/  /'
cpu1=$(awk '{print $14+$15}' "/proc/$PID/stat")
reqs=$(awk '/requests in/ {print $1}' "$WORK/wrk.out")
echo "load average after:              $(cut -d' ' -f1-3 /proc/loadavg) (other processes share the 2 cores)"
echo "server CPU per submission:       $(echo "scale=3; ($cpu1 - $cpu0) * 1000 / $(getconf CLK_TCK) / $reqs" | bc) ms"
latest=$(curl -fs -H "$AUTH" "$URL/api/workflows/${IDS[0]}/versions?limit=1" | grep -o '"version":[0-9]*' | head -1 | cut -d: -f2)
echo "versions of the first workflow:  ${latest:-?} (the newest version's number)"
