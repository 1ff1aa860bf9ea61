#!/bin/sh
# bench/burst.sh — a burst of runs on edgeflow (serve + local edge, through the API) beside raw miniflare, on disk
# and on tmpfs. Usage: bench/burst.sh [DIR...] (default: /var/tmp and /dev/shm); BURST_ARGS passes options to
# bench/burst.mjs (e.g. BURST_ARGS="--rounds 2", or "--runs 1000 --shards 1,2" for edgeflow with its local edge forced
# to 1 and to 2 shards, docs/edge.md "Shards"); EDGEFLOW_BIN uses a built binary instead of building one.
# Missing tools or directories fail the run.
set -eu
cd "$(dirname "$0")/.."
command -v node >/dev/null || { echo "burst: node is missing" >&2; exit 2; }
[ -d edge/node_modules/miniflare ] || { echo "burst: edge/node_modules/miniflare is missing: run npm ci in edge/" >&2; exit 2; }
if [ -n "${EDGEFLOW_BIN:-}" ]; then
	BIN=$EDGEFLOW_BIN
else
	command -v go >/dev/null || { echo "burst: go is missing" >&2; exit 2; }
	TMP=$(mktemp -d)
	trap 'rm -rf "$TMP"' EXIT
	BIN=$TMP/edgeflow
	go build -o "$BIN" ./cmd/edgeflow
fi
[ $# -gt 0 ] || set -- /var/tmp /dev/shm
for dir in "$@"; do
	[ -d "$dir" ] && [ -w "$dir" ] || { echo "burst: $dir is missing or not writable" >&2; exit 2; }
	# shellcheck disable=SC2086
	node bench/burst.mjs --bin "$BIN" --dir "$dir" ${BURST_ARGS:-}
done
