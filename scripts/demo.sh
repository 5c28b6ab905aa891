#!/usr/bin/env bash
# make demo: a real edit on the shipped fixtures, in a scratch folder demo-out/.
set -euo pipefail
bin=${1:?usage: demo.sh PATH-TO-pdfedit}
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/demo-out"
rm -rf "$out" && mkdir -p "$out"
cd "$out"
cp "$root/Fixtures/alpha.pdf" "$root/Fixtures/beta.pdf" "$root/Fixtures/features.pdf" "$root/Fixtures/photo.jpg" .

step() { printf '\n$ pdfedit %s\n' "${*:2}"; "$@"; }
step "$bin" open alpha.pdf beta.pdf
step "$bin" move 3..5 --to 1
step "$bin" rotate 2 --by 90
step "$bin" insert features.pdf photo.jpg --after 3
step "$bin" placeholder --at 1 --label cover
step "$bin" fill 1 beta.pdf
step "$bin" copy 1..2 --to 1 --into beta
step "$bin" list
step "$bin" undo
step "$bin" history
step "$bin" export edited.pdf
step "$bin" export --split parts --at-outlines
step "$bin" move 2..4 --to 1 beta.pdf -o beta-direct.pdf
step "$bin" info edited.pdf --no-text
printf '\nDemo output in %s: edited.pdf, parts/ (one file per bookmark), beta-direct.pdf; the session is in .pdfedit/\n' "$out"
