# make            build the release binary (Swift runtime linked statically)
# make install    copy it, stripped, to $(PREFIX)/bin (default /usr/local; e.g. make install PREFIX=~/.local),
#                 and LICENSE, THIRD-PARTY and licenses/ to $(PREFIX)/share/doc/reckon
# make test       the whole test suite
# make bench      the benchmark against bc
PREFIX ?= /usr/local
# The licence texts that install copies (THIRD-PARTY names each).
LICENSES = $(wildcard licenses/*.txt)

.PHONY: all install uninstall test bench format

all:
	./scripts/deps
	swift build -c release --static-swift-stdlib --disable-local-rpath

install: all
	install -d "$(PREFIX)/bin"
	install -s -m 0755 .build/release/reckon "$(PREFIX)/bin/reckon"
	install -d "$(PREFIX)/share/doc/reckon/licenses"
	install -m 0644 LICENSE THIRD-PARTY "$(PREFIX)/share/doc/reckon"
	install -m 0644 $(LICENSES) "$(PREFIX)/share/doc/reckon/licenses"

uninstall:
	rm -f "$(PREFIX)/bin/reckon"
	rm -f "$(PREFIX)/share/doc/reckon/LICENSE" "$(PREFIX)/share/doc/reckon/THIRD-PARTY"
	rm -f $(LICENSES:licenses/%="$(PREFIX)/share/doc/reckon/licenses/%")
	rmdir "$(PREFIX)/share/doc/reckon/licenses" "$(PREFIX)/share/doc/reckon" 2>/dev/null || true

test:
	./scripts/deps && swift build -c release --static-swift-stdlib --disable-local-rpath && swift test

bench:
	bench/run

format:
	swift format --in-place --recursive Package.swift Sources Tests
