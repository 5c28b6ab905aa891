#!/usr/bin/env bash
# Writes scripts/symbol-order.txt, the order in which scripts/build-release.sh
# asks the linker (lld, --symbol-ordering-file) to lay out pdfedit's functions:
# those that typical commands run, in the order they are first needed, ahead of
# all the others. Code is mapped 64 KB around each page first touched, so
# functions scattered over the 13 MB of text (the Swift runtime, Foundation,
# ArgumentParser, ours) made 10 MB of it resident for a one-page edit; packed,
# it is about 4.5 MB, and start-up has fewer pages to fault in.
#
# The list is a profile, not a rule: a function missing from it is only placed
# later, a name that no longer exists is skipped (--no-warn-symbol-ordering).
# Run this again after large changes or a new Swift toolchain (valgrind's
# callgrind counts the functions each command runs; about a minute).
#   scripts/make-symbol-order.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v valgrind >/dev/null || {
  echo "make-symbol-order: installing valgrind"
  $([ "$(id -u)" = 0 ] || echo sudo) apt-get install -y -qq valgrind >/dev/null
}
# The functions are profiled in the release build (every function in its own
# section; the names are the same whatever their order).
bash scripts/build-release.sh >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF 5 the toolchain writes: profile a copy
# without debug information (the symbol table stays).
strip --strip-debug -o "$work/pdfedit" .build/release/pdfedit
cp .build/release/libpdfedit-qpdf.so "$work/" # loaded from beside the binary
cp Fixtures/alpha.pdf Fixtures/beta.pdf Fixtures/features.pdf Fixtures/photo.jpg "$work/"
python3 scripts/make-big-pdf.py 20 "$work/doc20.pdf" >/dev/null
cd "$work"
run=0
profile() {
  run=$((run + 1))
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/profile.$(printf %03d $run)" \
    "$work/pdfedit" "$@" >/dev/null 2>"$work/stderr" ||
    { echo "make-symbol-order: pdfedit $* failed:" >&2; tail -3 "$work/stderr" >&2; exit 1; }
}
# Start-up and the small-file edits first (scripts/benchlib/small.py), then
# exports of one file, then a session as `make demo` makes one.
profile --version
profile rotate 2 --by 90 doc20.pdf -o rotated.pdf -q
profile move 3..5 --to 1 doc20.pdf -o moved.pdf -q
profile remove 2..3 alpha.pdf -o removed.pdf -q
profile export range.pdf 2..4 --from features.pdf -q
profile export --split parts --from doc20.pdf -q
profile info features.pdf --no-text
profile open alpha.pdf beta.pdf
profile move 3..5 --to 1
profile rotate 2 --by 90
profile insert features.pdf photo.jpg --after 3
profile copy 1..2 --to 1 --into beta
profile list
profile undo
profile export edited.pdf
profile export --split session-parts
python3 "$root/scripts/symbol_order.py" pdfedit "$work" > "$root/scripts/symbol-order.txt"
echo "make-symbol-order: $(wc -l < "$root/scripts/symbol-order.txt") functions in scripts/symbol-order.txt ($run commands profiled)"
# Relinked in the new order (build-release.sh notices that the order changed).
cd "$root" && bash scripts/build-release.sh >/dev/null
