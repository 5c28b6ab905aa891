#!/usr/bin/env bash
# Builds the release pdfedit, .build/release/pdfedit: the one place for its
# flags, used by `make build` (and so `make test`, `make bench`, `make install`)
# and by scripts/make-deb.sh.
#   --static-swift-stdlib     the Swift runtime is linked into the binary, which
#                             then runs where Swift is not installed (the Debian
#                             package) and starts without loading a dozen Swift
#                             shared libraries.
#   -gnone, -g0               no debug information: the package strips it, and
#                             the build takes less time (CI builds from scratch).
#                             Profiles still have the symbol table.
#   -use-ld=lld               linked by the toolchain's lld: GNU ld warns at every
#                             link about the static Foundation's use of mktemp.
# libqpdf, poppler-glib, cairo and GLib are linked as SwiftPM finds them
# (pkg-config, Package.swift), in debug builds as in this one.
#   scripts/build-release.sh [more swift build options, e.g. --scratch-path DIR]
#   scripts/build-release.sh --print-flags   the -X flags alone (scripts/benchlib/small.py
#                                            builds its floor programs with them)
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-Xswiftc -gnone -Xcc -g0 -Xcxx -g0 -Xswiftc -use-ld=lld)
if [ "${1:-}" = --print-flags ]; then
  echo "${flags[*]}"
  exit 0
fi
"${SWIFT:-swift}" build -c release --static-swift-stdlib --product pdfedit "${flags[@]}" "$@"
