#!/usr/bin/env bash
# Builds the release pdfedit: the one place for its build flags, used by `make
# build` (and so `make bench`, `make demo`, `make install`) and by
# scripts/make-deb.sh. The Swift runtime is linked statically: the binary runs
# where Swift is not installed, and starts without loading and relocating a
# dozen Swift shared libraries (about 8 ms of every command's start-up).
#   scripts/build-release.sh [more swift build options, e.g. --scratch-path DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${SWIFT:-swift}" build -c release --static-swift-stdlib --product pdfedit "$@"
