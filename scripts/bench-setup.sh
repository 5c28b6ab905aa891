#!/bin/sh
# Installs what `make bench` compares pdfedit with and checks outputs with:
# qpdf, pdftk-java, mupdf-tools (mutool), poppler-utils (pdftotext, pdfinfo,
# pdfunite, pdfseparate) and GNU time from Debian/Ubuntu; pypdf, pikepdf and
# matplotlib (the chart) from PyPI. Installs only what is missing; the benchmark
# leaves out any tool that is still missing and says so.
set -e
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
missing=""
for p in qpdf pdftk-java mupdf-tools poppler-utils time python3-pip; do
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
