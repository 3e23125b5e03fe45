# make            build the release binary (Swift runtime linked statically)
# make install    copy it to $(PREFIX)/bin (default /usr/local; e.g. make install PREFIX=~/.local)
# make test       the whole test suite
# make bench      the benchmark against bc
PREFIX ?= /usr/local

.PHONY: all install uninstall test bench format

all:
	./scripts/deps
	swift build -c release --static-swift-stdlib --disable-local-rpath

install: all
	install -d "$(PREFIX)/bin"
	install -m 0755 .build/release/reckon "$(PREFIX)/bin/reckon"

uninstall:
	rm -f "$(PREFIX)/bin/reckon"

test:
	./scripts/deps && swift build -c release --static-swift-stdlib --disable-local-rpath && swift test

bench:
	bench/run

format:
	swift format --in-place --recursive Package.swift Sources Tests
