# pdfedit — every target installs what it needs first, so on a fresh machine
# `make demo` and `make test` are each one command.

PREFIX ?= /usr/local
SWIFT ?= swift
APT_PACKAGES := libqpdf-dev libpoppler-glib-dev libpango1.0-dev zlib1g-dev pkg-config qpdf poppler-utils man-db groff-base libjpeg62-turbo-dev libtiff-dev libfontconfig-dev libfreetype-dev fonts-urw-base35
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/release/pdfedit

.PHONY: setup setup-test setup-deb build debug test examples fuzz-short test-long sanitize demo install uninstall fixtures clean bench bench-apply bench-size man deb deb-check

# Installs the system libraries and the independent checking tools when missing.
setup:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make setup: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "make setup: swift not found (Swift 6.1 or later is needed)"; exit 1; }

# Fonts the tests of Unicode text stamps draw with (Latin, Greek, Cyrillic,
# Hebrew and Arabic in DejaVu; Japanese in WenQuanYi Micro Hei), and libtiff's
# tiffinfo, which reads back the TIFF files `render` writes.
TEST_PACKAGES := fonts-dejavu-core fonts-wqy-microhei libtiff-tools
setup-test: setup
	@missing=""; for p in $(TEST_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make setup-test: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@# Independent Python readers the tests check outputs with: Pillow (reference
	@# pixels of images), pikepdf (attachments) and pyHanko (the signatures
	@# --keep-signatures keeps). From PyPI with pip, into the user's site of the
	@# python3 on PATH (which may not be Debian's, so not python3-pil), about a
	@# minute; Debian packages no pyHanko. A test whose reader is missing fails
	@# and says so, except pyHanko's, which is skipped with a note.
	@python3 -c 'import PIL, pikepdf, pyhanko, pyhanko_certvalidator' 2>/dev/null || { \
	  echo "make setup-test: installing Pillow, pikepdf and pyHanko (pip)"; \
	  python3 -m pip install -q --user pillow pikepdf pyhanko 2>/dev/null \
	    || python3 -m pip install -q --user --break-system-packages pillow pikepdf pyhanko 2>/dev/null \
	    || echo "make setup-test: Pillow, pikepdf or pyHanko could not be installed: the tests that read with them fail"; }

# What `make deb` needs besides: dpkg-shlibdeps (dpkg-dev), strip and readelf (binutils).
DEB_PACKAGES := dpkg-dev binutils
setup-deb: setup
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make setup-deb: installing$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# The release binary, the Swift runtime linked statically (scripts/build-release.sh
# holds the flags; `make deb` builds with the same).
build: setup
	SWIFT=$(SWIFT) bash scripts/build-release.sh

debug: setup
	$(SWIFT) build

# Unit, integration and end-to-end tests. The end-to-end tests run the release
# binary (PDFEDIT_BIN), the one `make install` and `make deb` ship, as a user
# would (the corpus sweeps take a third less CPU than on the debug binary); the
# other tests run on the debug build of the libraries. Then the library's public
# API, as the built module declares it, is held against docs/public-api.txt
# (scripts/public-api.py: a change to it shows in review) and the DocC catalogue
# is built from the same symbol graph with warnings as errors (as `swift package
# generate-documentation --target PDFEditKit` builds it), the client packages
# under Examples/ (`make examples`) and a short, fixed run of the PDF fuzz harness
# (`make fuzz-short`).
# The tests are built without debug information (TEST_FLAGS): 274 instead of
# 297 s from scratch on 2 cores, and CI has 15 minutes. `swift test` run by hand
# builds with it, in the same .build (so it rebuilds everything); give it the
# same flags to reuse this build.
TEST_FLAGS := -Xswiftc -gnone -Xcc -g0 -Xcxx -g0
# Each step says when it starts, so a CI log tells where its minutes went.
test: build setup-test
	@echo "make test: the test build and run start at $$(date +%T)"
	PDFEDIT_BIN=$(CURDIR)/$(BIN) SWIFT=$(SWIFT) bash scripts/swift-test.sh test $(TEST_FLAGS)
	@echo "make test: the public API check starts at $$(date +%T)"
	python3 scripts/public-api.py --check docs/public-api.txt --docc
	@echo "make test: the examples start at $$(date +%T)"
	$(MAKE) --no-print-directory examples
	@echo "make test: the short fuzz run starts at $$(date +%T)"
	$(MAKE) --no-print-directory fuzz-short
	@echo "make test: done at $$(date +%T)"

# The library's clients: each folder of Examples/ is a package of its own that
# depends on this one by path, built with plain `swift build` as a user's package
# would be, all in one scratch folder. Each is run on a fixture and its output
# checked with qpdf and pdfinfo; so is the program of the DocC "Getting started"
# article (scripts/check-doc-example.sh). PageService, an HTTP service on
# Hummingbird, is started on a loopback port and sent real requests
# (scripts/check-page-service.sh).
# They build in this package's own scratch folder with the test build's flags:
# SwiftPM gives pdfedit's modules the same commands whether this package is the
# root or a path dependency, so after `make test`'s test build only the clients'
# own files compile (16 s, where a scratch folder of their own rebuilt the whole
# package in debug again: 1.5 minutes of CI).
EXAMPLES_SCRATCH := $(CURDIR)/.build
examples: setup
	cd Examples/ReorderPDF && $(SWIFT) build --scratch-path $(EXAMPLES_SCRATCH) $(TEST_FLAGS)
	@out=$$(mktemp -d) && trap 'rm -rf "$$out"' EXIT && \
	  $(EXAMPLES_SCRATCH)/debug/reorder-example Fixtures/alpha.pdf "$$out/alpha.pdf" >/dev/null && \
	  qpdf --check "$$out/alpha.pdf" >/dev/null && \
	  pages=$$(pdfinfo "$$out/alpha.pdf" | awk '/^Pages:/ { print $$2 }') && \
	  rotation=$$(pdfinfo -f 1 -l 1 "$$out/alpha.pdf" | awk '/^Page +1 rot:/ { print $$4 }') && \
	  if [ "$$pages" = 7 ] && [ "$$rotation" = 90 ]; then echo "reorder-example: ok (7 pages, page 1 turned 90)"; \
	  else echo "reorder-example: $$pages pages, page 1 turned $$rotation (want 7 and 90)"; exit 1; fi
	bash scripts/check-doc-example.sh $(EXAMPLES_SCRATCH)
	cd Examples/PageService && $(SWIFT) build --scratch-path $(EXAMPLES_SCRATCH) $(TEST_FLAGS)
	bash scripts/check-page-service.sh $(EXAMPLES_SCRATCH)

# 300 inputs of the PDF harness (Fuzz/PDF) from the seeds with a fixed seed: the
# same inputs every run, about a minute after its build. `scripts/fuzz.sh SECONDS`
# fuzzes for real.
fuzz-short: setup
	FUZZ_RUNS=300 bash scripts/fuzz.sh 0 pdf

# The reliability suites with their long counts (16 kills per scenario, 100,000
# pages, 200 generated scripts, 250 damaged sessions, 50 random mutants of each
# PDF and more PDFs); the other suites have no long variant. Run it before a
# release and after changing how files are read or written: it no longer fits
# in CI's 15 minutes beside `make test` (3 more minutes on 2 cores, where the
# builds alone take 9 from a fresh clone), so CI runs
# the short variants of `make test`. scripts/swift-test.sh repeats what failed
# at the end of the log.
LONG_SUITES = CrashSafetyTests|LimitsTests|MutationTests|ScriptFuzzTests
test-long: build setup-test
	PDFEDIT_LONG_TESTS=1 PDFEDIT_BIN=$(CURDIR)/$(BIN) SWIFT=$(SWIFT) bash scripts/swift-test.sh test-long $(TEST_FLAGS) --filter '$(LONG_SUITES)'

# The whole suite against AddressSanitizer and ThreadSanitizer builds of pdfedit
# and the tests (about 25 minutes on 2 cores; not part of CI). A report makes the
# sanitized pdfedit exit non-zero, which fails the test that ran it.
sanitize: setup
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	ASAN_OPTIONS=detect_leaks=0 PDFEDIT_BIN=$(CURDIR)/.build/asan/debug/pdfedit \
		$(SWIFT) test --sanitize=address --scratch-path .build/asan --skip-build
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	PDFEDIT_BIN=$(CURDIR)/.build/tsan/debug/pdfedit \
		$(SWIFT) test --sanitize=thread --scratch-path .build/tsan --skip-build

demo: build
	@bash scripts/demo.sh $(CURDIR)/$(BIN)

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/pdfedit
	$(BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/pdfedit
	$(BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_pdfedit
	$(BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/pdfedit.fish
	install -m 644 docs/pdfedit.1 $(DESTDIR)$(PREFIX)/share/man/man1/pdfedit.1

# pdfedit_VERSION_ARCH.deb at the top of the checkout: the release binary with the
# Swift runtime linked statically, man page, completions, Depends computed by
# dpkg-shlibdeps from the binary's shared libraries. `make deb-check`
# checks it (fields, files, Depends, and that the unpacked binary runs a real edit
# without the toolchain's libraries); CI runs both.
deb: setup-deb
	SWIFT=$(SWIFT) bash scripts/make-deb.sh

deb-check: deb
	bash scripts/check-deb.sh

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/pdfedit \
	  $(DESTDIR)$(PREFIX)/share/man/man1/pdfedit.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/pdfedit \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_pdfedit \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/pdfedit.fish

# Benchmarks against qpdf (and other tools), written to BENCHMARKS.md.
bench: build
	sh scripts/bench-setup.sh
	python3 scripts/bench.py $(CURDIR)/$(BIN)

# Only the rows of `apply` (many small files in one process), printed; BENCHMARKS.md unchanged.
bench-apply: build
	sh scripts/bench-setup.sh --apply-inputs
	python3 scripts/bench.py $(CURDIR)/$(BIN) --only apply

# Only the "Smaller files" rows (optimize against qpdf and Ghostscript on the
# corpus), replaced in BENCHMARKS.md; bench-setup.sh installs Ghostscript.
bench-size: build
	sh scripts/bench-setup.sh --size
	python3 scripts/bench.py $(CURDIR)/$(BIN) --only size

# Regenerates the man page (committed in docs/): swift-argument-parser's
# generate-manual plugin writes it from the commands' help, then
# scripts/man-page.py puts back the characters the plugin drops, appends
# docs/pdfedit.1.sections (SELECTIONS, ENVIRONMENT, EXIT STATUS) and records what
# the page was made from, which ManPageTests checks.
man: setup
	$(SWIFT) build --product pdfedit
	mkdir -p .build/man
	$(SWIFT) package --allow-writing-to-directory .build/man generate-manual --configuration debug --output-directory .build/man
	python3 scripts/man-page.py .build/man/pdfedit.1 .build/debug/pdfedit > .build/man/pdfedit.1.finished
	mv .build/man/pdfedit.1.finished docs/pdfedit.1

# Regenerates the committed fixtures (needs Pillow for the images).
fixtures:
	python3 Fixtures/make-fixtures.py

clean:
	rm -rf .build demo-out
