#!/usr/bin/env bash
# Links libpdfedit-qpdf.so, pdfedit's libqpdf code (the QPDFCore target), from
# the objects `swift build` compiled for it, into the same build folder as the
# pdfedit executable, which loads it on first use (Sources/QPDFBridge/Loader.c).
# SwiftPM links a dynamic library product against the Swift runtime's shared
# library even when it holds no Swift, which the statically linked pdfedit
# must not load a second copy of (nor can it, where Swift is not installed):
# this C++ library is linked by clang++ alone.
#   scripts/link-qpdf-core.sh BUILD_FOLDER [more link options, e.g. -fsanitize=address]
# BUILD_FOLDER: .build/release, .build/debug, .build/asan/debug…
set -euo pipefail
cd "$(dirname "$0")/.."
folder=${1:?usage: scripts/link-qpdf-core.sh BUILD_FOLDER [link options]}
shift
objects=("$folder"/QPDFCore.build/*.o)
[ -e "${objects[0]}" ] || {
  echo "link-qpdf-core: no objects in $folder/QPDFCore.build (swift build --target QPDFCore first)" >&2
  exit 1
}
exports=$(mktemp)
trap 'rm -f "$exports"' EXIT
# Only the bridge's C functions are the library's interface; the rest is local
# (fewer names to map and look up when it loads) and binds to itself.
echo '{ global: pe_*; local: *; };' > "$exports"
out="$folder/libpdfedit-qpdf.so"
"${CXX:-clang++}" -shared -fPIC -o "$out.tmp" "${objects[@]}" \
  -Wl,-soname,libpdfedit-qpdf.so -Wl,--version-script="$exports" -Wl,-Bsymbolic \
  -Wl,-z,now -Wl,-z,relro -Wl,--as-needed -lqpdf -lz -lstdc++ "$@"
mv "$out.tmp" "$out"
