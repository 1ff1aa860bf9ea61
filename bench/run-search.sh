#!/usr/bin/env bash
# bench/run-search.sh — GET /api/runs searches (issue 19, item 3): first pages of 50 runs, and the fifth page of the
# project's runs, on RUNS stored runs (default 1,000,000), on SQLite and, when EDGEFLOW_TEST_POSTGRES_URL is set,
# PostgreSQL. The runs are stored in bulk by the benchmark itself (internal/storetest/runsearch_bench.go describes
# them: 10 % in a second workflow, 2 % errored with "card declined by issuer N", 20 versions, 1 ms apart).
#
# Target: <= 50 ms per page (ns/op below is one page; project-page-5 is five pages).
#
# Usage: bench/run-search.sh [iterations per search]   (default 20)
# Env: RUNS (default 1000000), EDGEFLOW_TEST_POSTGRES_URL (optional).
set -euo pipefail
cd "$(dirname "$0")/.."
ITER=${1:-20}
export EDGEFLOW_BENCH_RUNS=${RUNS:-1000000}
pkgs=(./internal/sqlite)
if [ -n "${EDGEFLOW_TEST_POSTGRES_URL:-}" ]; then
	pkgs+=(./internal/postgres)
else
	echo "EDGEFLOW_TEST_POSTGRES_URL is not set: SQLite only" >&2
fi
go test -count=1 -run '^$' -bench '^BenchmarkRunSearch$' -benchtime "${ITER}x" -timeout 60m -v "${pkgs[@]}" |
	grep -E '^(Benchmark|ok|FAIL|---|\s+runsearch_bench|\s+.*stored)' || true
