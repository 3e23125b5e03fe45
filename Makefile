# make               build the release binary (Swift runtime linked statically)
# make install       build it, then install-only
# make install-only  install what is built, without building: the stripped binary in
#                    $(PREFIX)/bin, the man page, the bash, zsh and fish completions, and
#                    LICENSE, THIRD-PARTY and licenses/ in $(PREFIX)/share/doc/reckon.
#                    PREFIX defaults to /usr/local (make install PREFIX=~/.local for
#                    yourself); DESTDIR=DIR stages the same tree under DIR.
# make uninstall     remove exactly what install-only installed, and the folders it made
#                    for them once they are empty: it lists both in $(MANIFEST)
# make man           regenerate man/reckon.1 from man/reckon.1.scd (needs scdoc)
# make deb           build the binary, then deb-only
# make deb-only      reckon_VERSION-REVISION_ARCH.deb from the built binary, with dpkg-deb
#                    (scripts/make-deb says how to set its maintainer, compression, …)
# make test          the whole test suite
# make bench         the benchmark against bc
#
# The man page is written in scdoc (man/reckon.1.scd): a small, readable markup that
# Debian packages (scdoc) and that needs no roff by hand. The generated man/reckon.1 is
# committed, so installing never needs scdoc.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
DOCDIR = $(PREFIX)/share/doc/reckon
BASHCOMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPLETIONDIR = $(PREFIX)/share/zsh/site-functions
FISHCOMPLETIONDIR = $(PREFIX)/share/fish/vendor_completions.d
# What install-only installed and the folders it made (those not there before), for
# uninstall: so that it removes what was installed even when the source has changed since.
MANIFEST = $(DOCDIR)/install-manifest
# The licence texts that install copies (THIRD-PARTY names each).
LICENSES = $(wildcard licenses/*.txt)
# Every file install-only installs, but the manifest.
INSTALLED = $(BINDIR)/reckon $(MANDIR)/man1/reckon.1.gz $(BASHCOMPLETIONDIR)/reckon \
  $(ZSHCOMPLETIONDIR)/_reckon $(FISHCOMPLETIONDIR)/reckon.fish $(DOCDIR)/LICENSE $(DOCDIR)/THIRD-PARTY \
  $(LICENSES:licenses/%=$(DOCDIR)/licenses/%)
BINARY = .build/release/reckon
BUILD = swift build -c release --static-swift-stdlib --disable-local-rpath

.PHONY: all install install-only uninstall man deb deb-only test bench format

all:
	./scripts/deps
	$(BUILD)

install: all
	$(MAKE) install-only

install-only:
	@test -x $(BINARY) || { echo "make install-only: no $(BINARY); run make (or make install)" >&2; exit 1; }
	./scripts/install-manifest "$(DESTDIR)" "$(MANIFEST)" folders "$(BINDIR)" "$(MANDIR)/man1" "$(BASHCOMPLETIONDIR)" \
	  "$(ZSHCOMPLETIONDIR)" "$(FISHCOMPLETIONDIR)" "$(DOCDIR)/licenses"
	install -s -m 0755 $(BINARY) "$(DESTDIR)$(BINDIR)/reckon"
	gzip -9n < man/reckon.1 > "$(DESTDIR)$(MANDIR)/man1/reckon.1.gz"
	chmod 0644 "$(DESTDIR)$(MANDIR)/man1/reckon.1.gz"
	install -m 0644 completions/reckon.bash "$(DESTDIR)$(BASHCOMPLETIONDIR)/reckon"
	install -m 0644 completions/_reckon "$(DESTDIR)$(ZSHCOMPLETIONDIR)/_reckon"
	install -m 0644 completions/reckon.fish "$(DESTDIR)$(FISHCOMPLETIONDIR)/reckon.fish"
	install -m 0644 LICENSE THIRD-PARTY "$(DESTDIR)$(DOCDIR)"
	install -m 0644 $(LICENSES) "$(DESTDIR)$(DOCDIR)/licenses"
	./scripts/install-manifest "$(DESTDIR)" "$(MANIFEST)" files $(INSTALLED:%="%")

uninstall:
	./scripts/install-manifest "$(DESTDIR)" "$(MANIFEST)" remove $(INSTALLED:%="%") "$(DOCDIR)/licenses/" "$(DOCDIR)/"

man:
	./scripts/make-man

deb: all
	$(MAKE) deb-only

deb-only:
	./scripts/make-deb

test:
	./scripts/deps test && $(BUILD) && swift test

bench:
	bench/run

format:
	swift format --in-place --recursive Package.swift Sources Tests
