#!/usr/bin/env bash
# Builds the release pdfedit: the one place for its build flags, used by `make
# build` (and so `make bench`, `make demo`, `make install`) and by
# scripts/make-deb.sh. The Swift runtime is linked statically: the binary runs
# where Swift is not installed, and starts without loading and relocating a
# dozen Swift shared libraries (about 8 ms of every command's start-up).
#
# Linked by lld (the Swift toolchain's) with every function in its own section
# and laid out in the order of scripts/symbol-order.txt (make-symbol-order.sh),
# the functions typical commands run first and together: a one-page edit keeps
# 4.5 MB of code resident instead of 10 MB, and faults fewer pages in. Relative
# relocations are packed (DT_RELR: 9 KB instead of 1.1 MB that the loader read
# at every start; glibc 2.36 or later, which the package's Depends says).
#
# Concrete generic types' metadata (KeyedDecodingContainer<CodingKeys>,
# Set<SourceID>, Range<Int>…) is made by direct calls, not from mangled names:
# a mangled name names its conformances, which the runtime finds by scanning all
# 5,040 conformance records of the binary once per new pair. A 20-page edit made
# 70 such scans, 50 with direct calls; its parse took 3.1 instead of 2.3 ms, the
# edit 5% less time; about 100 KB more code. On the corpus's books (21
# interleaved runs): tracemonkey rotate even -8%, TeXbyTopic move, freeculture
# extract and chelsea split -1 to -2%, none slower.
# pdfedit's libqpdf code (QPDFCore) is not linked in: it is
# libpdfedit-qpdf.so beside the executable (scripts/link-qpdf-core.sh), loaded
# when a command first opens a PDF (Sources/QPDFBridge/Loader.c).
# The executable exports only what shared libraries must find in it (C++'s
# operator new and delete, which the bridge replaces for libqpdf too, named here
# since libqpdf, loaded later, is not in the link to ask for them), not every
# public symbol of the kit's modules as swiftc's link asks (--export-dynamic):
# 5,600 names in .dynsym and .dynstr (470 KB) that every start maps and the
# loader hashes against; --version 0.7 MB less resident.
#
# Without debug information (-gnone, -g0): the package strips it, valgrind
# 3.19 cannot read the DWARF 5 the toolchain writes, and profiles use the symbol
# table, which stays. The build takes less time (CI builds it from scratch) and
# the binary is half the size.
#   scripts/build-release.sh [more swift build options, e.g. --scratch-path DIR]
#   scripts/build-release.sh --print-layout   the layout flags alone
set -euo pipefail
cd "$(dirname "$0")/.."
layout=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcxx -ffunction-sections
  -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic
  -Xlinker '--export-dynamic-symbol=_Zn[wa]*' -Xlinker '--export-dynamic-symbol=_Zd[la]*'
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
  -Xswiftc -gnone -Xcc -g0 -Xcxx -g0)
if [ "${1:-}" = --print-layout ]; then
  echo "${layout[*]}" # for scripts/benchlib/small.py: the floor program is linked alike
  exit 0
fi
ordering=()
if [ -f scripts/symbol-order.txt ]; then
  ordering=(-Xlinker "--symbol-ordering-file=$PWD/scripts/symbol-order.txt" -Xlinker --no-warn-symbol-ordering)
fi
# SwiftPM neither recompiles what it compiled with other -Xswiftc/-Xcc flags nor
# relinks when only the order file changed: the flags and the order a release
# build was made with are noted in its scratch folder, and a build made with
# others (or before these notes) is started afresh, or relinked.
scratch=.build
for ((i = 1; i < $#; i++)); do
  if [ "${!i}" = --scratch-path ]; then
    next=$((i + 1))
    scratch=${!next}
  fi
done
flags="${layout[*]}"
order=$(cat scripts/symbol-order.txt 2>/dev/null | sha256sum | cut -c1-16)
if [ "$(cat "$scratch/release-flags" 2>/dev/null)" != "$flags" ]; then
  rm -rf "$scratch"/*-linux-gnu/release
elif [ "$(cat "$scratch/release-order" 2>/dev/null)" != "$order" ]; then
  rm -f "$scratch"/*-linux-gnu/release/pdfedit
fi
"${SWIFT:-swift}" build -c release --static-swift-stdlib --target QPDFCore "${layout[@]}" "$@"
"${SWIFT:-swift}" build -c release --static-swift-stdlib --product pdfedit "${layout[@]}" "${ordering[@]}" "$@"
bash scripts/link-qpdf-core.sh "$scratch/release" -fuse-ld=lld -Wl,-z,pack-relative-relocs
echo "$flags" > "$scratch/release-flags"
echo "$order" > "$scratch/release-order"
