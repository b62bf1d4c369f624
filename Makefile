# memoree: build, test, demo, install, bench.
GO      ?= go
PREFIX  ?= /usr/local
DESTDIR ?=
# The program leaves out urfave/cli's man and Markdown renderers: they cost start-up time on every call.
TAGS    := urfave_cli_no_docs
# VERSION is what memoree --version prints: git describe of the checkout, or "devel" outside one.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -X github.com/memoree/memoree/internal/cmdline.buildVersion=$(VERSION)
OUT     ?= build
BIN     := $(OUT)/bin/memoree

.PHONY: all build test demo install bench man pgo faults clean

all: build

build:
	CGO_ENABLED=0 $(GO) build -tags "$(TAGS)" -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/memoree

test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# demo builds memoree and runs its main flow on a sample note in a throwaway data directory.
demo: build
	@BIN="$(CURDIR)/$(BIN)" sh testdata/demo.sh

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/memoree
	install -m 0644 man/memoree.1 $(DESTDIR)$(PREFIX)/share/man/man1/memoree.1

# bench runs the package benchmarks, then the whole-process comparisons against their floors.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./checkpoint ./scan ./compiler ./recall
	$(GO) test -run '^$$' -bench . -benchtime 40x -timeout 30m ./internal/benchproc

# pgo regenerates cmd/memoree/default.pgo, the CPU profile that go build applies to memoree for
# profile-guided optimization: the recall store's benchmarks, where the SQLite engine spends its time.
pgo:
	$(GO) test -run '^$$' -bench 'RecallSelective|RecallBroad|ApplyNote|OpenRecall' -benchtime 2s \
		-cpuprofile $(CURDIR)/cmd/memoree/default.pgo -o $(OUT)/recall.test ./recall

# faults runs the fault suite (internal/faults) on a binary built from this tree: kills at random moments,
# full disks, a second user, racing commands. It prints a table of trials, failures and losses, and fails on any.
# The disk-full and second-user scenarios need root and skip elsewhere. Trial counts: MEMOREE_FAULTS_KILLS,
# _DISK, _HOME, _RACES, _ROUNDS, _WRITES; MEMOREE_FAULTS_SEED repeats a run.
faults:
	MEMOREE_FAULTS=1 $(GO) test -count=1 -v -timeout 10m -run . ./internal/faults

# man regenerates man/memoree.1 from the command definitions.
man:
	$(GO) test ./internal/cmdline -run TestManPage -update

clean:
	rm -rf $(OUT)
