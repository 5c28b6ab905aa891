#!/usr/bin/env bash
# Checks the package `make deb` built (`make deb-check`, run by CI): its name and
# fields, its files, that its Depends names the package of every shared library
# the binary needs and that apt can install it here, and that the unpacked
# binary runs without the Swift toolchain's libraries: no Swift library among its
# NEEDED entries or resolved by ldd, run with an empty environment on a real
# edit whose output is checked with qpdf and pdfinfo.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(bash scripts/make-deb.sh --print-name)
fail() { echo "deb-check: $deb: $*" >&2; exit 1; }
[ -f "$deb" ] || fail "missing (run make deb)"

version=$(sed -n 's/.*static let pdfedit = "\(.*\)".*/\1/p' Sources/PDFEditKit/Versions.swift)
[ "$(dpkg-deb -f "$deb" Package)" = pdfedit ] || fail "Package is not pdfedit"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version is not $version"
[ "$(dpkg-deb -f "$deb" Architecture)" = "$(dpkg --print-architecture)" ] || fail "wrong Architecture"
depends=$(dpkg-deb -f "$deb" Depends)
grep -qi swift <<< "$depends" && fail "Depends names Swift: $depends"
# Redaction measures standard fonts without /Widths on the URW base-35 fonts.
grep -q ', fonts-urw-base35\( \|,\|$\)' <<< ", $depends" || fail "Depends does not name fonts-urw-base35: $depends"

files=$(dpkg-deb -c "$deb" | awk '{ print $NF }')
for want in ./usr/bin/pdfedit ./usr/share/man/man1/pdfedit.1.gz ./usr/share/bash-completion/completions/pdfedit \
  ./usr/share/zsh/vendor-completions/_pdfedit ./usr/share/fish/vendor_completions.d/pdfedit.fish \
  ./usr/share/doc/pdfedit/copyright; do
  grep -qx "$want" <<< "$files" || fail "has no $want"
done
dpkg-deb -c "$deb" | awk '$2 != "root/root" { bad = 1 } END { exit bad }' || fail "files not owned by root"
# One binary: no library of pdfedit's own beside it.
grep -q '^\./usr/lib/' <<< "$files" && fail "holds files under /usr/lib: $(grep '^\./usr/lib/' <<< "$files" | tr '\n' ' ')"

unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
dpkg-deb -x "$deb" "$unpacked/root"
binary="$unpacked/root/usr/bin/pdfedit"
man=$(zcat "$unpacked/root/usr/share/man/man1/pdfedit.1.gz")
grep -q '^\.Nm pdfedit' <<< "$man" || fail "man page is not pdfedit's"
grep -q 'complete' "$unpacked/root/usr/share/bash-completion/completions/pdfedit" || fail "bash completion is empty"

# No Swift library needed, none found by the loader, no run path into a toolchain.
needed=$(readelf -d "$binary" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
grep -Eq 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_Foundation' <<< "$needed" &&
  fail "needs a Swift runtime library: $(echo $needed)"
# (SwiftPM gives executables the run path $ORIGIN, the binary's own folder: harmless.)
runpath=$(readelf -d "$binary" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p')
[ -z "$runpath" ] || [ "$runpath" = '$ORIGIN' ] || fail "has a run path: $runpath"
resolved=$(env -i ldd "$binary")
grep -q 'not found' <<< "$resolved" && fail "libraries not found: $(grep 'not found' <<< "$resolved")"
grep -Eq 'swift|/opt/' <<< "$resolved" && fail "a library resolves into a toolchain: $(grep -E 'swift|/opt/' <<< "$resolved")"

# The glibc the binary needs is at most the one Depends asks for.
glibc_said=$(sed -n 's/.*libc6 (>= \([0-9.]*\)).*/\1/p' <<< "$depends")
[ -n "$glibc_said" ] || fail "Depends gives no libc6 version: $depends"
for need in $(readelf -V "$binary" | sed -n 's/.*Name: GLIBC_\([0-9.]*\) .*/\1/p'); do
  dpkg --compare-versions "$need" le "$glibc_said" || fail "needs glibc $need but Depends says libc6 (>= $glibc_said)"
done
# Every needed library comes from a package Depends names.
for lib in $needed; do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && p == "" { p = $NF } END { print p }')
  [ -n "$path" ] || fail "$lib not known to ldconfig"
  package=$({ dpkg -S "$(readlink -f "$path")" 2>/dev/null || true; } | head -1 | cut -d: -f1)
  [ -n "$package" ] || package=$({ dpkg -S "$path" 2>/dev/null || true; } | head -1 | cut -d: -f1)
  [ -n "$package" ] || fail "no package holds $lib"
  grep -q ", $package[ ,]" <<< ", $depends," || fail "$lib comes from $package, which Depends does not name ($depends)"
done
simulated=$(apt-get install --simulate "./$deb" 2>&1 || true)
grep -q '^Inst pdfedit' <<< "$simulated" || fail "apt-get cannot install it: $(tail -3 <<< "$simulated")"

# A real edit with an empty environment (no PATH into a toolchain, no LD_LIBRARY_PATH).
work="$unpacked/work"
mkdir "$work"
cp Fixtures/alpha.pdf "$work/"
said=$(cd "$work" && env -i HOME="$work" "$binary" --version) || fail "--version failed"
grep -q "^$version (" <<< "$said" || fail "--version says $said, not $version"
(cd "$work" && env -i HOME="$work" "$binary" rotate 1 --by 90 alpha.pdf -o out.pdf >/dev/null) ||
  fail "the unpacked binary could not rotate a page"
qpdf --check "$work/out.pdf" >/dev/null || fail "its output fails qpdf --check"
[ "$(pdfinfo "$work/out.pdf" | awk '/^Pages:/ { print $2 }')" = 7 ] || fail "its output has not 7 pages"
[ "$(pdfinfo -f 1 -l 1 "$work/out.pdf" | awk '/^Page +1 rot:/ { print $4 }')" = 90 ] || fail "page 1 is not turned 90"
echo "deb-check: $deb ok ($(du -h "$deb" | cut -f1); Depends: $depends)"
