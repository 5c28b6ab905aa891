#!/usr/bin/env bash
# Runs `swift test` with the given arguments, keeping its whole output in a log
# (.build/test-logs/NAME.log) while it streams. When the run fails, the failing
# tests and their recorded issues are printed again at the end, so that the last
# lines of a long CI log say what failed (CI shows only the tail).
#   scripts/swift-test.sh NAME [swift test arguments...]
set -uo pipefail
name=$1
shift
mkdir -p .build/test-logs
log=.build/test-logs/$name.log
"${SWIFT:-swift}" test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" != 0 ]; then
  echo
  echo "=== $name failed (exit $status); what failed, from $log:"
  # swift-testing marks failures with ✘; XCTest with "error:" and "failed".
  # (an issue's message may go on over the next lines)
  grep -E -A3 '^✘ Test .*(recorded an issue|failed)|^.*error: |Test Case .* failed|Fatal error|Caught signal|exited with signal' "$log" |
    grep -v '^✘ Test run with' | tail -80
  grep -E '^✘ Test run with' "$log" | tail -1
fi
exit "$status"
