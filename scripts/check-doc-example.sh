#!/usr/bin/env bash
# Compiles the first Swift code block of the DocC "Getting started" article that
# imports PDFEditKit as the main.swift of a client package (depending on this
# one by path, built in SCRATCH, `make examples`'s), and runs it on a copy of a
# fixture: the article's program is a complete program that works.
#
#   scripts/check-doc-example.sh SCRATCH
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$1
repo=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/package/Sources/getting-started"
python3 - Sources/PDFEditKit/PDFEditKit.docc/GettingStarted.md "$work/package/Sources/getting-started/main.swift" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"```swift\n(.*?)```", text, re.S)
program = next(b for b in blocks if "import PDFEditKit" in b)
open(sys.argv[2], "w").write(program)
PY
cat > "$work/package/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "GettingStarted",
    dependencies: [.package(name: "pdfedit", path: "$repo")],
    targets: [.executableTarget(name: "getting-started", dependencies: [.product(name: "PDFEditKit", package: "pdfedit")])]
)
SWIFT
(cd "$work/package" && swift build --scratch-path "$scratch" -Xswiftc -gnone -Xcc -g0 -Xcxx -g0 >"$work/build.log" 2>&1) ||
    { cat "$work/build.log"; echo "check-doc-example: the getting-started program does not compile"; exit 1; }
mkdir -p "$work/run"
cp Fixtures/alpha.pdf "$work/run/in.pdf"
(cd "$work/run" && "$scratch/debug/getting-started")
qpdf --check "$work/run/out.pdf" >/dev/null
pages=$(pdfinfo "$work/run/out.pdf" | awk '/^Pages:/ { print $2 }')
[ "$pages" = 7 ] || { echo "check-doc-example: out.pdf has $pages pages, not 7"; exit 1; }
pdftotext -f 7 -l 7 "$work/run/out.pdf" - | grep -q "Page 7 of 7" ||
    { echo "check-doc-example: the last page of out.pdf is not numbered \"Page 7 of 7\""; exit 1; }
echo "check-doc-example: the getting-started program compiles, runs and writes a 7-page PDF"
