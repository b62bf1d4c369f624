# memoree: build, test, demo, install, bench.
GO      ?= go
PREFIX  ?= /usr/local
DESTDIR ?=
# VERSION is what memoree --version prints: git describe of the checkout, or "devel" outside one.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
# The man page is committed, so it cannot name the commit it is part of: it names the last release tag.
MANVERSION ?= $(shell git describe --tags --abbrev=0 2>/dev/null || echo devel)
LDFLAGS := -X main.buildVersion=$(VERSION)
# memoree makes its own man page and completions: urfave/cli's Markdown and man renderers, whose package
# initializers every command would pay for, are left out.
TAGS    := urfave_cli_no_docs
OUT     ?= build
BIN     := $(OUT)/bin/memoree

.PHONY: all build test test-full demo install bench fuzz race faults man clean

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -tags "$(TAGS)" -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/memoree

# test is what CI runs: vet, then every package's tests. Checks that take minutes (whole-process
# comparisons on generated 100,000-claim stores) run under 'make bench' and 'make test-full'.
test:
	$(GO) vet ./...
	$(GO) test -short -count=1 ./...

# test-full runs the tests without -short, the heavy checks included.
test-full:
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 30m ./...

# demo builds memoree and runs its main flow on a sample note in a throwaway data directory.
demo: build
	@BIN="$(CURDIR)/$(BIN)" sh testdata/demo.sh

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/memoree
	install -m 0644 man/memoree.1 $(DESTDIR)$(PREFIX)/share/man/man1/memoree.1
	$(BIN) completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/memoree
	$(BIN) completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_memoree
	$(BIN) completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/memoree.fish

# bench runs the package benchmarks, then the whole-process comparisons against their floors.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./checkpoint ./scan ./compiler ./recall ./journal ./pending
	$(GO) test -run '^$$' -bench . -benchtime 40x -timeout 30m ./internal/benchproc

# fuzz runs every fuzz target for FUZZTIME each. A crasher is written to the package's testdata/fuzz, where
# it becomes a regression case that every go test runs: commit it with the fix. Go 1.26's fuzzing coordinator
# can report its own -fuzztime deadline as a failure when a worker is busy at that moment
# (go.dev/issue/75804, fixed in Go 1.27): a run that fails that way and writes no failing input is run again,
# up to three runs in all; any other failure, or a failing input, fails at once.
FUZZTIME ?= 10s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			for run in 1 2 3; do \
				echo "fuzz $$pkg $$t (run $$run)"; \
				out=$$($(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg 2>&1); rc=$$?; echo "$$out"; \
				[ $$rc -eq 0 ] && break; \
				if ! echo "$$out" | grep -q 'context deadline exceeded' || echo "$$out" | grep -q 'Failing input written' || [ $$run -eq 3 ]; then \
					exit 1; \
				fi; \
				echo "fuzz $$pkg $$t: the coordinator reported its own deadline (go.dev/issue/75804)"; \
			done; \
		done; \
	done

# race runs the tests (-short) under the race detector.
race:
	$(GO) test -race -short -count=1 ./...

# faults runs the fault suite (internal/faults) on a binary built from this tree: kills at random moments,
# full disks, a second user, racing commands. It prints a table of trials, failures and losses, and fails on any.
# The disk-full and second-user scenarios need root and skip elsewhere. Trial counts: MEMOREE_FAULTS_KILLS,
# _DISK, _HOME, _RACES, _ROUNDS, _WRITES; MEMOREE_FAULTS_SEED repeats a run.
faults:
	MEMOREE_FAULTS=1 $(GO) test -count=1 -v -timeout 10m -run . ./internal/faults

# man regenerates man/memoree.1 from the command definitions.
man:
	$(GO) test ./cmd/memoree -run TestManPage -update -args -man-version=$(MANVERSION) -man-date=$(shell date +%F)

clean:
	rm -rf $(OUT)
