# rgit's build. `make demo` runs a real research session; `make test` runs the tests.
GO        ?= go
BIN       ?= bin/rgit
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)
GOBIN_DIR := $(shell $(GO) env GOPATH)/bin
STATICCHECK := $(GOBIN_DIR)/staticcheck
STATICCHECK_VERSION ?= v0.8.2
# Test servers and fakes live under testdata, which ./... skips (so that
# go build and go install leave them out): name them to vet and test them.
TESTDATA_PKGS := ./testdata/modelserver/... ./testdata/fakeagents
CROSS_OS  ?= linux darwin windows

.PHONY: all build install test vet staticcheck unit fuzz bench cross demo e2e clean

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/rgit

install:
	$(GO) install -ldflags "$(LDFLAGS)" ./cmd/rgit

test: vet staticcheck unit fuzz

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./... $(TESTDATA_PKGS)

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

staticcheck: $(STATICCHECK)
	$(STATICCHECK) ./... $(TESTDATA_PKGS)

unit:
	$(GO) test -race -count=1 -timeout 30m ./... $(TESTDATA_PKGS)

# Brief fuzzing of the parsers: no panic, and the round trip holds.
fuzz:
	GO=$(GO) ./testdata/fuzz.sh

bench:
	$(GO) test -run='^$$' -bench=. -benchmem -count=6 ./... | tee bench.txt

# System calls per phase commit, early and late in a breadth 4 depth 3
# mock session (needs strace): a commit's work, independent of the load.
.PHONY: bench-syscalls
bench-syscalls:
	./testdata/bench/phase-syscalls.sh

# Cold and warm index of GOROOT/src+doc against the grep -rl floor, same run.
.PHONY: bench-index
bench-index:
	./testdata/eval/bench-index.sh

# rgit builds for every system it supports (process groups, signals and
# lock liveness sit behind build tags).
cross:
	@for os in $(CROSS_OS); do \
		echo "GOOS=$$os go build"; GOOS=$$os $(GO) build ./... $(TESTDATA_PKGS) || exit 1; \
	done

demo: build
	./testdata/demo.sh

e2e: build
	./testdata/e2e/run.sh
	./testdata/e2e/webfetch.sh
	./testdata/e2e/mcp.sh
	./testdata/e2e/council.sh
	./testdata/e2e/browser.sh

clean:
	rm -rf bin bench.txt
