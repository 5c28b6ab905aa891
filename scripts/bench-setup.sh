#!/bin/sh
# Installs what `make bench` compares pdfedit with and checks outputs with:
# qpdf, pdftk-java, mupdf-tools (mutool), poppler-utils (pdftotext, pdfinfo,
# pdfunite, pdfseparate), Ghostscript (the lossy "Smaller files" rows) and GNU time
# from Debian/Ubuntu; pypdf, pikepdf and
# matplotlib (the chart) from PyPI. Installs only what is missing; the benchmark
# leaves out any tool that is still missing and says so.
# With --apply-inputs, only makes the inputs of the `apply` rows (below): qpdf is all they need.
# With --size, only installs the tools (the "Smaller files" rows read the corpus).
set -e
if [ "$1" != "--apply-inputs" ]; then
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
missing=""
for p in qpdf pdftk-java mupdf-tools poppler-utils ghostscript time python3-pip; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "bench-setup: installing$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
modules=""
for m in pypdf pikepdf matplotlib; do
  python3 -c "import $m" 2>/dev/null || modules="$modules $m"
done
if [ -n "$modules" ]; then
  echo "bench-setup: pip installing$modules"
  # Debian marks its Python as externally managed: a user install is what it allows.
  python3 -m pip install --quiet --user $modules 2>/dev/null \
    || python3 -m pip install --quiet --user --break-system-packages $modules \
    || echo "bench-setup: could not install$modules; the benchmark leaves them out"
fi
fi

# The inputs of the `apply` rows (scripts/bench_apply.py): 2,000 documents of 20
# pages made from the committed fixtures with qpdf (alpha 1-7, beta 1-5, gamma 1-3,
# alpha 1-5), under .build/bench-apply/ (not committed; made once).
[ "$1" = "--size" ] && exit 0
APPLY_INPUTS="${BENCH_APPLY_INPUTS:-$(dirname "$0")/../.build/bench-apply}"
if [ ! -f "$APPLY_INPUTS/doc-2000.pdf" ]; then
  echo "bench-setup: making 2,000 documents of 20 pages in $APPLY_INPUTS"
  mkdir -p "$APPLY_INPUTS"
  fixtures="$(dirname "$0")/../Fixtures"
  qpdf --empty --pages "$fixtures/alpha.pdf" 1-z "$fixtures/beta.pdf" 1-z "$fixtures/gamma.pdf" 1-z \
    "$fixtures/alpha.pdf" 1-5 -- "$APPLY_INPUTS/doc-0001.pdf"
  n=2
  while [ "$n" -le 2000 ]; do
    cp "$APPLY_INPUTS/doc-0001.pdf" "$APPLY_INPUTS/$(printf 'doc-%04d.pdf' "$n")"
    n=$((n + 1))
  done
fi
