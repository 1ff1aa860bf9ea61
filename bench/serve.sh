# bench/serve.sh — sourced by the API benchmarks: start `edgeflow serve` on SQLite in a temporary data dir.
#
# start_serve: needs PORT; sets WORK (removed on exit), BIN (EDGEFLOW_BIN or a fresh go build), DATA, URL and PID,
# and waits for /healthz. Rate limits are off (the benchmarks measure the API, not the limiter); request logs go to
# a file, as in production.
# bootstrap_key: creates the first user and sets KEY (an API key) and AUTH (its Authorization header).

start_serve() {
	command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
	command -v curl >/dev/null || { echo "curl is missing" >&2; exit 1; }
	WORK=$(mktemp -d)
	BIN=${EDGEFLOW_BIN:-$WORK/edgeflow}
	[ -n "${EDGEFLOW_BIN:-}" ] || go build -o "$BIN" ./cmd/edgeflow
	DATA="$WORK/data"
	URL="http://127.0.0.1:$PORT"
	EDGEFLOW_RATE_LIMITS=off "$BIN" serve --addr "127.0.0.1:$PORT" --data-dir "$DATA" --no-edge >"$WORK/serve.out" 2>"$WORK/serve.log" &
	PID=$!
	trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$WORK"' EXIT
	for _ in $(seq 100); do curl -fs "$URL/healthz" >/dev/null && break; sleep 0.1; done
}

bootstrap_key() {
	KEY=$("$BIN" admin bootstrap --data-dir "$DATA" --email bench@example.com --password bench-password --json |
		sed -E 's/.*"apiKey":"([^"]+)".*/\1/')
	AUTH="Authorization: Bearer $KEY"
}
