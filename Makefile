# edgeflow — build, run and test.
#
#   make run    start the service on http://127.0.0.1:8080 (SQLite and the local edge under ./.edgeflow);
#               make run ADDR=127.0.0.1:9090 DATA_DIR=/var/lib/edgeflow picks another address and data directory
#   make test   run the whole test suite (Go, the Node packages' tests, Studio's unit and browser tests)
#   make bench  run the Go benchmarks
#   make web    build Studio (web/) when its sources are newer than its build; make build and make run do it
#   make apidoc regenerate docs/api.md's endpoint reference and Studio's API types from the route table

GO        ?= go
ADDR      ?= 127.0.0.1:8080
DATA_DIR  ?= ./.edgeflow
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT    ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS   := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)
# The local edge needs Node.js 22 or newer. Where the machine's own node is older, node-runtime installs one (the
# npm registry's Node binary package for this platform) into edge/node-runtime, and every command below finds it
# first on PATH; `edgeflow serve` and `edgeflow edge` find it there too (docs/operations.md).
NODE_MIN     := 22
EDGE_NODE    := edge/node-runtime
MACHINE_PATH := $(PATH)
export PATH  := $(CURDIR)/$(EDGE_NODE)/node_modules/.bin:$(PATH)
# Every Node package of the repository (the local edge, test harnesses, the UI), but the Node runtime itself.
NPM_DIRS  := $(filter-out $(EDGE_NODE),$(patsubst %/package-lock.json,%,$(shell git ls-files '*package-lock.json' 2>/dev/null)))
# Studio: the files its build depends on, and the build the binary embeds (web/embed.go).
WEB_SOURCES := $(shell find web/src web/public -type f 2>/dev/null) \
	$(wildcard web/index.html web/package.json web/package-lock.json web/vite.config.* web/tsconfig*.json)
WEB_BUILD   := web/dist/app/index.html

.PHONY: all build web run test test-go test-node test-wrangler test-browser deps npm-deps edge-deps wrangler-clis node-runtime bench lint clean apidoc

all: build

# The binary embeds Studio's build as it is when the binary is compiled.
build: web
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/edgeflow ./cmd/edgeflow

web: $(WEB_BUILD)

$(WEB_BUILD): $(WEB_SOURCES) web/node_modules/.package-lock.json | node-runtime
	cd web && npm run build --silent

# npm ci in web/ when node_modules is missing or older than the lock file.
web/node_modules/.package-lock.json: web/package-lock.json | node-runtime
	cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error

# The service needs only the local edge's npm packages (and Studio's, to build it), not the test harnesses'.
run: edge-deps build
	./bin/edgeflow serve --addr $(ADDR) --data-dir $(DATA_DIR)

deps: npm-deps wrangler-clis
	$(GO) mod download

# The wrangler CLIs the conformance tests and the Go export test drive (wrangler 3 and 4), each installed once into
# ~/.cache/edgeflow/wranglerN (edge/test/conformance/wrangler-cli.mjs): here, before the test lanes start, so that
# no lane finds one missing while another lane installs it. EDGE_SKIP_WRANGLER=1 leaves them out.
wrangler-clis: node-runtime
	@cd edge && node --input-type=module \
		-e 'import { installWrangler, skip } from "./test/conformance/wrangler-cli.mjs"; if (!skip) for (const m of [3, 4]) installWrangler(m);'

edge-deps:
	@$(MAKE) --no-print-directory npm-deps NPM_DIRS=edge

# node-runtime installs Node.js from the npm registry into edge/node-runtime when the machine's node is older than
# NODE_MIN (or missing), and keeps it current with its lock file once installed.
node-runtime:
	@if [ -d $(EDGE_NODE)/node_modules ] && [ ! $(EDGE_NODE)/package-lock.json -nt $(EDGE_NODE)/node_modules/.package-lock.json ]; then :; \
	elif [ ! -d $(EDGE_NODE)/node_modules ] && PATH="$(MACHINE_PATH)" node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= $(NODE_MIN) ? 0 : 1)' 2>/dev/null; then :; \
	else echo "npm ci in $(EDGE_NODE) (Node.js for the local edge: this machine's node is older than $(NODE_MIN))"; \
		(cd $(EDGE_NODE) && npm ci --no-audit --no-fund --loglevel=error) || exit 1; fi

# npm ci only where node_modules is missing or older than its lock file.
npm-deps: node-runtime
	@for d in $(NPM_DIRS); do \
		if [ ! -d "$$d/node_modules" ] || [ "$$d/package-lock.json" -nt "$$d/node_modules/.package-lock.json" ]; then \
			echo "npm ci in $$d"; (cd "$$d" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) || exit 1; \
		fi; \
	done

# The suite runs in three lanes side by side (its parts spend much of their time waiting on the local edge, wrangler
# and the browser, so it takes about as long as its longest lane): the Node unit tests then the browser tests print
# as they go (the browser tests run even when a Node test failed), while the wrangler tests and the Go tests are kept
# and printed after them, the Go tests last, so that go test's summary ends the output. Before them, one line per
# lane gives its wall and CPU time (tools/timed.sh). The exit status is that of the first part that failed.
test: deps web
	@logs=$$(mktemp -d); \
	( tools/timed.sh "make test: wrangler lane" "$$logs/times" $(MAKE) --no-print-directory test-wrangler > "$$logs/wrangler.log" 2>&1; echo $$? > "$$logs/wrangler.status" ) & \
	( tools/timed.sh "make test: Go lane" "$$logs/times" $(MAKE) --no-print-directory test-go > "$$logs/go.log" 2>&1; echo $$? > "$$logs/go.status" ) & \
	tools/timed.sh "make test: Node and browser lane" "$$logs/times" $(MAKE) -k --no-print-directory test-node test-browser; js=$$?; \
	wait; wr=$$(cat "$$logs/wrangler.status"); go=$$(cat "$$logs/go.status"); \
	[ "$$js" -eq 0 ] || echo "make test: the Node or browser tests failed (above); the wrangler and Go tests follow" >&2; \
	cat "$$logs/times"; cat "$$logs/wrangler.log" "$$logs/go.log"; rm -rf "$$logs"; \
	[ "$$js" -eq 0 ] && [ "$$wr" -eq 0 ] && [ "$$go" -eq 0 ]

test-node:
	@for d in $(NPM_DIRS); do \
		if grep -q '"test"' "$$d/package.json"; then echo "npm test in $$d"; (cd "$$d" && npm test --silent) || exit 1; fi; \
	done

# wrangler 3 driven against the local edge (edge/test/wrangler).
test-wrangler:
	@for d in $(NPM_DIRS); do \
		if grep -q '"test:wrangler"' "$$d/package.json"; then echo "npm run test:wrangler in $$d"; (cd "$$d" && npm run test:wrangler --silent) || exit 1; fi; \
	done

# Studio in chromium against a real server (web/browser; needs Debian's chromium).
test-browser: web
	cd web && npm run test:browser --silent

# The end-to-end package (internal/e2e) is the longest by far and waits on the local edge most of its time: it runs
# in a go test of its own started beside the other packages', so that it does not wait for a free package slot. Its
# edges run every Workflow in two shards (EDGEFLOW_EDGE_SHARDS=2, decision 707): the suite covers instances spread
# over two workerds, while the other packages' and the edge's own tests keep the default policy.
# The project's Go packages: go's ./... also walks node_modules (an npm package under tools/lint ships a Go package).
GO_PACKAGES = $$($(GO) list ./... | grep -v /node_modules/)

test-go:
	$(GO) vet $(GO_PACKAGES)
	@e2e=$$(mktemp); \
	( EDGEFLOW_EDGE_SHARDS=2 $(GO) test -count=1 -timeout 30m ./internal/e2e/ > "$$e2e" 2>&1; echo $$? > "$$e2e.status" ) & \
	$(GO) test -count=1 -timeout 20m $$($(GO) list ./... | grep -v -e '/internal/e2e$$' -e /node_modules/); rest=$$?; \
	wait; cat "$$e2e"; e2e_status=$$(cat "$$e2e.status"); rm -f "$$e2e" "$$e2e.status"; \
	[ "$$rest" -eq 0 ] && [ "$$e2e_status" -eq 0 ]

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(GO_PACKAGES)

# What the route table (internal/api/routes.go) generates: docs/api.md's endpoint reference and Studio's API types
# (web/src/api/schema.gen.ts, by openapi-typescript from the OpenAPI document; its npm package is
# internal/api/cmd/apidoc/ts).
apidoc:
	@$(MAKE) --no-print-directory npm-deps NPM_DIRS=internal/api/cmd/apidoc/ts
	$(GO) run ./internal/api/cmd/apidoc

# The linters: gofmt, go vet and staticcheck (a go tool of go.mod) for Go; eslint (with react-hooks) and prettier for
# web/ and edge/, from their own npm package in tools/lint (its configurations sit beside it).
LINT_BIN      := tools/lint/node_modules/.bin
PRETTIER_GLOB := "web/src/**/*.{ts,tsx,css}" "web/browser/**/*.mjs" "web/*.{ts,mjs}" \
	"edge/*.mjs" "edge/src/**/*.{mjs,js}" "edge/test/**/*.mjs" "bench/**/*.mjs"
lint:
	@$(MAKE) --no-print-directory npm-deps NPM_DIRS=tools/lint
	@files=$$(gofmt -l $$(git ls-files '*.go')); [ -z "$$files" ] || { echo "gofmt: not formatted: $$files"; exit 1; }
	$(GO) vet $(GO_PACKAGES)
	$(GO) tool staticcheck $(GO_PACKAGES)
	$(LINT_BIN)/eslint --config tools/lint/eslint.config.mjs web edge bench
	$(LINT_BIN)/prettier --config tools/lint/prettier.config.mjs --check $(PRETTIER_GLOB)

clean:
	rm -rf bin web/dist/app
