# Hearth: two commands on a fresh machine.
#   make run    start Hearth on its embedded defaults (web chat on http://localhost:8080)
#   make test   run the whole test suite (bootstraps its database)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

# Packages that own concurrency run under the race detector: the durable
# path (pipeline, store, the adapters), actions, the model providers, the
# embedding job, the scheduler and SMTP sending.
RACE_PKGS := ./pipeline ./pipeline/action ./pipeline/llm/... ./pipeline/embedding ./store/... ./adapters/... ./scheduler ./integrations/smtp/...

.PHONY: run test lint bench help

help:
	@sed -n 's/^#   //p' Makefile

run:
	@DATABASE_URL="$$(deploy/bootstrap-db.sh)"; export DATABASE_URL; \
	export HEARTH_HTTP_ADDR="$${HEARTH_HTTP_ADDR:-127.0.0.1:8080}" HEARTH_DEV_SIGNIN="$${HEARTH_DEV_SIGNIN:-true}"; \
	exec go run ./cmd/bot serve

test: lint
	@HEARTH_TEST_DATABASE_URL="$$(deploy/bootstrap-db.sh --test)"; export HEARTH_TEST_DATABASE_URL; \
	bash deploy/install-browser.sh >&2 || echo "no browser: the web chat browser test will skip" >&2; \
	race="$$(go list $(RACE_PKGS))"; \
	rest="$$(go list ./... | grep -vxF -f <(echo "$$race"))"; \
	go test -count=1 -race $$race; \
	go test -count=1 $$rest

lint:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	go vet ./...

bench:
	@HEARTH_TEST_DATABASE_URL="$$(deploy/bootstrap-db.sh --test)"; export HEARTH_TEST_DATABASE_URL; \
	go test -run NONE -bench . -benchmem ./...
