# vmarket: `make run` serves the demo site; `make test` runs every test (installs what it needs).
.PHONY: run cluster cluster-down test-cluster test openapi deps frontend lint test-rust test-sqlite test-postgres test-frontend test-e2e clean bench bench-upload-memory bench-catalog-search bench-lottery bench-pages

NEXTEST := $(shell cargo nextest --version >/dev/null 2>&1 && echo "cargo nextest run" || echo "cargo test")

## Fresh clone → running site with demo data on http://127.0.0.1:8000 (SQLite), with the demo's
## payment providers (local fakes of Stripe, PayPal and GMO: scripts/demo-providers).
run:
	@[ -d node_modules ] || npm ci --no-audit --no-fund
	npm run build
	cargo run --bin vmarket -- seed demo
	scripts/demo-providers -- cargo run --bin vmarket -- serve

## The topology of README "Running at scale" on this machine: PostgreSQL, an S3-protocol store
## (moto), two web nodes, a worker and Varnish in front, with the demo data; prints the URL.
## `make cluster-down` stops it.
cluster:
	scripts/cluster up

cluster-down:
	scripts/cluster down

## The tests through the cluster (tests/it/cluster.rs): brings it up, runs them, takes it down.
test-cluster:
	cargo build --bin vmarket
	scripts/cluster down; scripts/cluster up && { $(NEXTEST) --test it --run-ignored only -j 1 -E 'test(/^cluster::/)'; rc=$$?; scripts/cluster down; exit $$rc; }

## Rewrites widgets/openapi.json (the front end's typed API client is generated from it).
openapi:
	cargo run --quiet --bin vmarket -- openapi > widgets/openapi.json

## Every test: lints, Rust on SQLite and PostgreSQL, front-end unit tests, browser e2e — installing
## what is missing first, overlapping the stages that can share the machine, and ending with a
## table of stage times (scripts/test-all; README "Tests"). The targets below run one stage each.
test:
	scripts/test-all

deps:
	scripts/install-test-deps

frontend:
	npm run build

lint:
	cargo fmt --check
	cargo clippy --all-targets --quiet -- -D warnings
	npm run --silent typecheck

test-frontend:
	npm test

test-sqlite:
	$(NEXTEST)

## The integration tests only: the library's unit tests never open a test database.
test-postgres:
	VMARKET_TEST_DATABASE_URL="$$(scripts/pg-test-server)" $(NEXTEST) --test it

test-e2e:
	scripts/e2e

## Benchmarks, not part of `make test` (record results in bench/RESULTS.md). `make bench` builds the
## release binary and measures upload memory against throwaway demo servers; catalogue search at
## 100k items and the lottery at 100k applications run through the test harness and need cargo-nextest.
bench: bench-upload-memory

bench-upload-memory:
	cargo build --release --bin vmarket
	bench/upload-memory --serve target/release/vmarket

bench-catalog-search:
	bench/catalog-search

bench-lottery:
	bench/lottery

## Public pages and lists under wrk beside nginx serving the same bytes (bench/pages --pg adds
## PostgreSQL); installs wrk and nginx if missing.
bench-pages:
	bench/pages

clean:
	scripts/pg-test-server stop
	rm -rf static/dist target/e2e-screenshots target/test-logs
