# plangraph — see README.md. `make run` and `make test` install what they need.
SHELL := /bin/bash
GO    := $(shell scripts/go.sh)
# go generate runs `go` from PATH: make it the same toolchain
export PATH := $(dir $(GO)):$(PATH)
BIN   := bin/plangraph
export CGO_ENABLED := 1
# packages whose tests need PostgreSQL and Redis read this (scripts/services.sh may change it)
export PLANGRAPH_TEST_POSTGRES ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
# Tesseract's OpenMP threads spin while packages and pages run side by side
# (the plangraph binary sets this itself; test binaries read it from here)
export OMP_THREAD_LIMIT ?= 1

.PHONY: all build run test deps test-deps services generate check-generate vet fuzz clean bench bench-go bench-api bench-vision bench-web web test-web

all: build

deps:
	@scripts/deps.sh run

test-deps:
	@scripts/deps.sh test

build: deps web
	$(GO) build -trimpath -o $(BIN) ./cmd/plangraph

# The web app (web/): npm ci from the committed lockfile when it changed, then
# codegen against graph/*.graphqls, tsc and vite into web/dist, which web.go embeds.
WEB_SRC := $(shell find web/src -type f -not -path 'web/src/gql/*' 2>/dev/null) web/index.html web/vite.config.ts \
	web/codegen.ts web/tsconfig.json web/scripts/clean.mjs $(wildcard graph/*.graphqls)
web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund
web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SRC)
	cd web && npm run build
web: deps web/dist/index.html

# The web app's unit tests (Vitest) and its end-to-end test against a real
# `plangraph serve` (web/e2e/run.mjs), in Chromium and in Firefox ESR (about a
# minute each).
test-web: build
	cd web && npm test
	cd web && PLANGRAPH_BIN=$(abspath $(BIN)) node e2e/run.mjs
	cd web && PLANGRAPH_BIN=$(abspath $(BIN)) E2E_BROWSER=firefox node e2e/run.mjs

# Starts the service with embedded defaults (SQLite, in-process Redis, files, local CA) under ./data.
run: build
	$(BIN) serve

generate:
	cd ent && $(GO) generate .
	cd graph && $(GO) generate .

# Fails when the committed generated code differs from what the generators write.
check-generate:
	@sum() { find ent graph gqlgen.yml -type f -not -path 'ent/schema/*' | LC_ALL=C sort | xargs sha256sum; }; \
	before=$$(sum); $(MAKE) --no-print-directory generate >/dev/null; after=$$(sum); \
	if [ "$$before" != "$$after" ]; then echo "generated code is stale: run 'make generate' and commit" >&2; \
	  diff <(echo "$$before") <(echo "$$after") >&2; exit 1; fi; echo "generated code is up to date"

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '^ent/' ) 2>/dev/null); \
	if [ -n "$$out" ]; then echo "gofmt needed:" >&2; echo "$$out" >&2; exit 1; fi

services:
	@eval "$$(scripts/services.sh)"; echo "PostgreSQL: $$PLANGRAPH_TEST_POSTGRES"

# The whole suite: generated code fresh, vet, every package's tests on both
# the embedded profile and real PostgreSQL + Redis, then a short fuzz pass.
test: test-deps web
	@eval "$$(scripts/services.sh)"; export PLANGRAPH_TEST_POSTGRES; \
	$(MAKE) --no-print-directory check-generate vet && \
	$(GO) test -count=1 -timeout 30m ./... && \
	$(MAKE) --no-print-directory test-web && \
	$(MAKE) --no-print-directory fuzz

# fuzzing runs a fixed number of inputs: with a duration (-fuzztime 10s) the
# Go fuzzer can fail with "context deadline exceeded" when a worker is busy
# on an input as the time runs out (seen in CI on FuzzOpenTIFF)
FUZZTIME ?= 200000x
FUZZRENDER ?= 25000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzCursorDecode$$' -fuzztime $(FUZZTIME) ./internal/cursor
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZTIME) ./internal/httpx
	$(GO) test -run '^$$' -fuzz '^FuzzParseBBoxLayout$$' -fuzztime $(FUZZTIME) ./vision/text
	@# a page's stored geometry
	$(GO) test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZRENDER) ./vision/vector
	@# decoders of uploaded files: sniffing, PDF, PNG, JPEG, TIFF
	for f in FuzzSniff FuzzOpenPDF FuzzOpenPNG FuzzOpenJPEG FuzzOpenTIFF; do \
	  $(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZRENDER) ./vision/render || exit 1; done

clean:
	rm -rf bin web/node_modules web/src/gql
	find web/dist -mindepth 1 -not -name NOT_BUILT.txt -delete

# API latency against a bare net/http + pgx handler (needs PostgreSQL and Redis; see BENCHMARKS.md).
bench-api: build
	@eval "$$(scripts/services.sh)"; $(BIN) bench api --admin-url "$$PLANGRAPH_TEST_POSTGRES"

# Symbol matching on the datasets (not in the repository): make bench-vision DATASETS=../shared/datasets
DATASETS ?= ../shared/datasets
bench-vision: build
	$(BIN) bench sesyd $(DATASETS)/sesyd-dev
	$(BIN) bench sesyd --geometry $(DATASETS)/sesyd-dev
	$(BIN) bench synth --seeds 3 --sheets 1
	$(BIN) bench synth --seeds 3 --sheets 1 --vary
	$(BIN) bench synth --seeds 3 --sheets 1 --conventions mixed
	$(BIN) bench real $(DATASETS)/real

# Go benchmarks: rendering, the pixel matcher's inner loops, the geometry matcher on a dense drawing
bench-go: deps
	$(GO) test -run '^$$' -bench . ./vision/render ./vision/symbols ./vision/vecsym

# The web app's speed in Chromium and Firefox ESR against a real `plangraph serve`
# (web/e2e/perf.mjs): first screen, a 113 MP sheet with ~2,000 detections opened,
# panned and zoomed (frame intervals), redraws.
bench-web: build
	cd web && PLANGRAPH_BIN=$(abspath $(BIN)) node e2e/perf.mjs
	cd web && PLANGRAPH_BIN=$(abspath $(BIN)) E2E_BROWSER=firefox node e2e/perf.mjs

bench: bench-go bench-api bench-vision bench-web
