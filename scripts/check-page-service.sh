#!/usr/bin/env bash
# Runs the HTTP example (Examples/PageService, built in SCRATCH by `make
# examples`) on a loopback port, posts a fixture to it, and checks the answers
# with qpdf, pdfinfo and pdftotext: an edit, a refused selection, bytes that are
# not a PDF.
#
#   scripts/check-page-service.sh SCRATCH
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$1
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
"$scratch/debug/page-service" "$port" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT

# POST FILE QUERY OUT: prints the HTTP status; the body goes to OUT.
post() {
    python3 - "$port" "$1" "$2" "$3" <<'PY'
import sys, urllib.request, urllib.error
port, path, query, out = sys.argv[1:]
request = urllib.request.Request(f"http://127.0.0.1:{port}/edit?{query}", data=open(path, "rb").read(), method="POST")
try:
    with urllib.request.urlopen(request, timeout=60) as answer:
        status, body = answer.status, answer.read()
except urllib.error.HTTPError as error:
    status, body = error.code, error.read()
open(out, "wb").write(body)
print(status)
PY
}

for _ in $(seq 100); do
    if python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$port" 2>/dev/null; then break; fi
    kill -0 $server 2>/dev/null || { cat "$work/server.log"; echo "check-page-service: the server stopped"; exit 1; }
    sleep 0.2
done

fail() { echo "check-page-service: $*"; exit 1; }

status=$(post Fixtures/alpha.pdf "move=last&to=1&rotate=1&by=90&remove=2" "$work/out.pdf")
[ "$status" = 200 ] || fail "an edit answered $status: $(cat "$work/out.pdf")"
qpdf --check "$work/out.pdf" >/dev/null || fail "the edited PDF fails qpdf --check"
pages=$(pdfinfo "$work/out.pdf" | awk '/^Pages:/ { print $2 }')
[ "$pages" = 6 ] || fail "the edited PDF has $pages pages, not 6"
rotation=$(pdfinfo -f 1 -l 1 "$work/out.pdf" | awk '/^Page +1 rot:/ { print $4 }')
[ "$rotation" = 90 ] || fail "page 1 is turned $rotation, not 90"
first=$(pdftotext -f 1 -l 1 "$work/out.pdf" - | tr -s ' \n' '\n\n' | grep -m1 -- '-P' || true)
[ "$first" = ALPHA-P7 ] || fail "page 1 shows $first, not ALPHA-P7"

status=$(post Fixtures/alpha.pdf "keep=2..40" "$work/refused.txt")
[ "$status" = 400 ] || fail "a selection past the last page answered $status"
grep -q "40" "$work/refused.txt" || fail "the refusal does not name the page: $(cat "$work/refused.txt")"

printf 'not a pdf' >"$work/junk.pdf"
status=$(post "$work/junk.pdf" "keep=1" "$work/junk.txt")
[ "$status" = 400 ] || fail "bytes that are not a PDF answered $status"

echo "check-page-service: an edit posted on loopback came back right (6 pages, page 1 ALPHA-P7 turned 90); a bad selection and a non-PDF were refused with 400"
