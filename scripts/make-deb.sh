#!/usr/bin/env bash
# Builds pdfedit_VERSION_ARCH.deb at the top of the checkout (`make deb`):
# a release binary with the Swift runtime linked statically (so a machine
# without Swift runs it), the man page, bash/zsh/fish completions and a
# Depends line computed from the shared libraries the binary needs
# (dpkg-shlibdeps): libqpdf, poppler-glib, cairo, GLib, libc… are ordinary
# NEEDED entries of the one binary.
#   scripts/make-deb.sh            build and package
#   scripts/make-deb.sh --print-name   only print the package's file name
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/.*static let pdfedit = "\(.*\)".*/\1/p' Sources/PDFEditKit/Versions.swift)
arch=$(dpkg --print-architecture)
name="pdfedit_${version}_${arch}.deb"
if [ "${1:-}" = "--print-name" ]; then
  echo "$name"
  exit 0
fi
[ -n "$version" ] || { echo "make-deb: no version in Sources/PDFEditKit/Versions.swift" >&2; exit 1; }

# The release binary of `make build` (the same flags, the same scratch path: a
# `make test` before has built it, as CI's run does).
bash scripts/build-release.sh
binary=.build/release/pdfedit

scratch=.build/deb
mkdir -p "$scratch"
root=$(mktemp -d "$PWD/$scratch/root.XXXXXX")
work=$(mktemp -d "$PWD/$scratch/work.XXXXXX")
trap 'rm -rf "$root" "$work"' EXIT
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/doc/pdfedit" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d"
install -m 755 "$binary" "$root/usr/bin/pdfedit"
strip --strip-unneeded "$root/usr/bin/pdfedit"
gzip -9n < docs/pdfedit.1 > "$root/usr/share/man/man1/pdfedit.1.gz"
"$binary" --generate-completion-script bash > "$root/usr/share/bash-completion/completions/pdfedit"
"$binary" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_pdfedit"
"$binary" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/pdfedit.fish"
cat > "$root/usr/share/doc/pdfedit/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: pdfedit
Comment: The pdfedit command and its Swift runtime (linked statically, Apache-2.0
 with Runtime Library Exception, https://swift.org/LICENSE.txt). It uses libqpdf
 and poppler-glib from the packages it depends on.
EOF
chmod 644 "$root/usr/share/bash-completion/completions/pdfedit" "$root/usr/share/zsh/vendor-completions/_pdfedit" \
  "$root/usr/share/fish/vendor_completions.d/pdfedit.fish" "$root/usr/share/doc/pdfedit/copyright"

# Depends from the NEEDED libraries of the binary: dpkg-shlibdeps reads the
# shlibs and symbols files of the installed packages (it wants a debian/control
# to run in).
mkdir -p "$work/debian"
printf 'Source: pdfedit\n\nPackage: pdfedit\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "$root/usr/bin/pdfedit" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Not a library the binary links: the fonts fontconfig substitutes for the
# standard 14 fonts, which redaction measures a standard font without /Widths
# on (RedactFonts.cpp); without them such text under a region is refused.
depends="$depends, fonts-urw-base35"

cat > "$root/DEBIAN/control" <<EOF
Package: pdfedit
Version: $version
Architecture: $arch
Maintainer: pdfedit developers <pdfedit@invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: text
Priority: optional
Description: command-line PDF page editor
 Move, copy, insert, remove, rotate and duplicate the pages of several PDF
 documents (and images) at once, with undo, and export one multi-page PDF or
 one PDF per page; direct edits of one file, scripts, and batches of many
 files in one process (pdfedit apply).
EOF
dpkg-deb --root-owner-group -Zxz --build "$root" "$name" >/dev/null
echo "make deb: wrote $name (Depends: $depends)"
